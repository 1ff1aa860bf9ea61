package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"unicode/utf8"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Replay with edited params and bulk actions on runs (docs/runs.md).

type replayRequest struct {
	// Params are the new run's params: a JSON object of at most 100 KB.
	Params json.RawMessage `json:"params" tstype:"Record<string, unknown>"`
	// FromStep is the node id to execute from; omitted: from the start.
	FromStep string `json:"fromStep"`
	// Version is "same" (default) or "current".
	Version string `json:"version"`
}

// handleRunReplay starts a new run of a run's workflow with other params
// (201 with the new run).
func (s *Server) handleRunReplay(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	var req replayRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if len(req.Params) == 0 || string(req.Params) == "null" {
		return edgeflow.Invalid("/params", "params is required: the new run's params, a JSON object")
	}
	run, err := dep.Replay(r.Context(), tw, deploysvc.ReplayRequest{
		RunID: r.PathValue("runId"), Params: req.Params, FromStep: req.FromStep, Version: req.Version,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, run)
	return nil
}

type bulkRequest struct {
	// Action is restart, replay, terminate or delete.
	Action string `json:"action"`
	// Filter selects the runs, as GET /api/runs does.
	Filter edgeflow.BulkFilter `json:"filter"`
	// FromStep and Version apply to restart and replay.
	FromStep string `json:"fromStep"`
	Version  string `json:"version"`
	// DryRun answers the runs matched without acting.
	DryRun bool `json:"dryRun"`
}

// handleBulkStart starts a bulk action on the runs a filter matches (202
// {id, matched}), or answers what it would act on (dryRun).
func (s *Server) handleBulkStart(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	t, err := tenantOf(r)
	if err != nil {
		return err
	}
	var req bulkRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := s.checkBulkFilter(r, t.ProjectID, req.Filter); err != nil {
		return err
	}
	p := PrincipalFrom(r)
	actor := edgeflow.AuditActor{Type: "user", ID: p.UserID}
	if p.APIKey != nil {
		actor = edgeflow.AuditActor{Type: "key", ID: p.APIKey.ID}
	}
	res, err := dep.StartBulk(r.Context(), t, deploysvc.BulkRequest{Action: req.Action, Filter: req.Filter,
		FromStep: req.FromStep, Version: req.Version, DryRun: req.DryRun, Actor: actor, RequestID: requestIDFrom(r)})
	if err != nil {
		return err
	}
	if res.ID != "" {
		// The job records its one entry, with the filter and the counts,
		// when it ends.
		deferAudit(r)
	}
	writeJSON(w, http.StatusAccepted, res)
	return nil
}

// checkBulkFilter applies the run search's rules to a bulk filter.
func (s *Server) checkBulkFilter(r *http.Request, projectID string, f edgeflow.BulkFilter) error {
	if len(f.RunIDs) > 0 && (f.WorkflowID != "" || f.Status != "" || f.VersionID != "" || f.From != nil || f.To != nil || f.Q != "") {
		return edgeflow.Invalid("/filter/runIds", "runIds selects runs by id and takes no other filter")
	}
	switch f.Status {
	case "", edgeflow.RunQueued, edgeflow.RunRunning, edgeflow.RunPaused, edgeflow.RunComplete, edgeflow.RunErrored, edgeflow.RunTerminated:
	default:
		return edgeflow.Invalid("/filter/status", "status must be one of queued, running, paused, complete, errored, terminated")
	}
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		return edgeflow.Invalid("/filter/to", "to must be after from")
	}
	if utf8.RuneCountInString(f.Q) > maxRunQuery {
		return edgeflow.Invalid("/filter/q", fmt.Sprintf("q must be at most %d characters", maxRunQuery))
	}
	if f.WorkflowID != "" {
		if _, err := s.Store.FindWorkflowByID(r.Context(), projectID, f.WorkflowID); err != nil {
			if !edgeflow.IsNotFound(err) {
				return err
			}
			if _, derr := s.Store.FindDeletedWorkflow(r.Context(), projectID, f.WorkflowID); derr != nil {
				return &edgeflow.Error{Code: edgeflow.EInvalid, Message: "unknown workflow",
					Details: []edgeflow.FieldError{{Path: "/filter/workflowId", Message: "the project has no workflow " + f.WorkflowID}}}
			}
		}
	}
	return nil
}

// handleBulkGet answers a bulk job's state.
func (s *Server) handleBulkGet(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	t, err := tenantOf(r)
	if err != nil {
		return err
	}
	j, err := dep.BulkJob(r.Context(), t, r.PathValue("bulkId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, j)
	return nil
}

// handleBulkCancel cancels a running bulk job (200 with the job).
func (s *Server) handleBulkCancel(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	t, err := tenantOf(r)
	if err != nil {
		return err
	}
	j, err := dep.CancelBulk(r.Context(), t, r.PathValue("bulkId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, j)
	return nil
}
