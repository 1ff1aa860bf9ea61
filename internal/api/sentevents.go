package api

import (
	"encoding/json"
	"net/http"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Events sent by type to the project's waiting runs (docs/runs.md,
// "Events"; the service's side is internal/deploy/sentevents.go).

type sendEventRequest struct {
	// Type is the event type the runs wait for (a wait_for_event node's eventType).
	Type string `json:"type"`
	// Payload is the event's payload: a JSON object of at most 100 KB ({} when omitted).
	Payload json.RawMessage `json:"payload" tstype:"Record<string, unknown>"`
	// WorkflowID limits the send to one workflow's runs.
	WorkflowID string `json:"workflowId"`
}

// handleEventSend sends an event to every run of the project waiting for
// its type (201 with the stored event and the runs it went to).
func (s *Server) handleEventSend(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	t, err := tenantOf(r)
	if err != nil {
		return err
	}
	var req sendEventRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	e, err := dep.SendEvent(r.Context(), t, deploysvc.SendEventRequest{Type: req.Type, WorkflowID: req.WorkflowID, Payload: req.Payload})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, e)
	return nil
}

// handleEventList lists the project's sent events, newest first.
func (s *Server) handleEventList(w http.ResponseWriter, r *http.Request) error {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListSentEvents(r.Context(), projectID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(e edgeflow.SentEvent) edgeflow.SentEvent { return e }))
	return nil
}

// handleEventGet answers one sent event of the project.
func (s *Server) handleEventGet(w http.ResponseWriter, r *http.Request) error {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	e, err := s.Store.FindSentEvent(r.Context(), projectID, r.PathValue("eventId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, e)
	return nil
}

// handleEventReplay sends a stored event again to the runs waiting for it
// now (201 with the new event, replayOf the old one).
func (s *Server) handleEventReplay(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	t, err := tenantOf(r)
	if err != nil {
		return err
	}
	e, err := dep.ReplaySentEvent(r.Context(), t, r.PathValue("eventId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, e)
	return nil
}
