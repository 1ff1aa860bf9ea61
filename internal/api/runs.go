package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
)

// Trigger, a run's detail with live status, and run control; the run lists
// are in history.go.

type triggerRequest struct {
	ConnectionID string `json:"connectionId"`
	// Environment names the project environment, in place of connectionId.
	Environment string          `json:"environment"`
	Params      json.RawMessage `json:"params"`
	// Queue holds the run when the workflow's flow control refuses it now
	// (201, statusDetail "held") instead of answering 429.
	Queue bool `json:"queue"`
}

// handleTrigger starts a run (201 {id, instanceId, status}) or, when params
// hold instanceId, eventType and payload, delivers the event to that
// waiting run (202, naming the run).
func (s *Server) handleTrigger(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	var req triggerRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	connID, _, err := dep.ResolveEnvironment(r.Context(), tw.Tenant(), req.ConnectionID, req.Environment)
	if err != nil {
		return err
	}
	res, err := dep.Trigger(r.Context(), tw, deploysvc.TriggerRequest{ConnectionID: connID, Params: req.Params, Queue: req.Queue})
	if err != nil {
		return err
	}
	status := http.StatusCreated
	if res.EventType != "" {
		status = http.StatusAccepted
	}
	writeJSON(w, status, res)
	return nil
}

type triggerBatchRequest struct {
	ConnectionID string `json:"connectionId"`
	// Environment names the project environment, in place of connectionId.
	Environment string               `json:"environment"`
	Runs        []deploysvc.BatchRun `json:"runs"`
	// Queue holds the entries the workflow's flow control refuses now
	// (created with statusDetail "held") instead of refusing them.
	Queue bool `json:"queue"`
}

// MaxBatchBody is the largest batch trigger: 100 runs of params up to
// 100 KB each, with room for their ids and the JSON around them.
const MaxBatchBody = 11 << 20

// handleTriggerBatch starts up to 100 runs at once (201 {created, errors},
// each entry by its index).
func (s *Server) handleTriggerBatch(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	body, err := readBodyLimit(r, MaxBatchBody)
	if err != nil {
		return err
	}
	defer body.release()
	var req triggerBatchRequest
	if err := decodeBytes(body.Bytes(), &req); err != nil {
		return err
	}
	connID, _, err := dep.ResolveEnvironment(r.Context(), tw.Tenant(), req.ConnectionID, req.Environment)
	if err != nil {
		return err
	}
	res, err := dep.TriggerBatch(r.Context(), tw, deploysvc.BatchTriggerRequest{ConnectionID: connID, Runs: req.Runs, Queue: req.Queue})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, res)
	return nil
}

// handleRunGet answers a run; a non-final run is refreshed from the
// provider first.
func (s *Server) handleRunGet(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	run, err := dep.GetRun(r.Context(), projectID, r.PathValue("workflowId"), r.PathValue("runId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.withTraceURL(run))
	return nil
}

// handleProjectRunGet answers a run of the active project by its id alone:
// a run of a workflow that exists as GET …/workflows/:id/runs/:runId does,
// a run kept after its workflow was deleted as stored (decision 245).
func (s *Server) handleProjectRunGet(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	run, err := dep.GetProjectRun(r.Context(), projectID, r.PathValue("runId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.withTraceURL(run))
	return nil
}

func (s *Server) controlRun(w http.ResponseWriter, r *http.Request, action string) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	t, err := tenantOf(r)
	if err != nil {
		return err
	}
	run, err := dep.ControlRun(r.Context(), t, r.PathValue("workflowId"), r.PathValue("runId"), action)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, s.withTraceURL(run))
	return nil
}

// handleRunPause pauses a running run (409 otherwise).
func (s *Server) handleRunPause(w http.ResponseWriter, r *http.Request) error {
	return s.controlRun(w, r, deploysvc.ActionPause)
}

// handleRunResume resumes a manually paused run (409 otherwise).
func (s *Server) handleRunResume(w http.ResponseWriter, r *http.Request) error {
	return s.controlRun(w, r, deploysvc.ActionResume)
}

// handleRunTerminate terminates a running or paused run (409 otherwise).
func (s *Server) handleRunTerminate(w http.ResponseWriter, r *http.Request) error {
	return s.controlRun(w, r, deploysvc.ActionTerminate)
}

type restartRequest struct {
	// FromStep is the node id to execute from; omitted: from the start.
	FromStep string `json:"fromStep"`
	// Version is "same" (default) or "current".
	Version string `json:"version"`
	// Mode is "replay" (default: a new run) or "in-place" (the provider
	// restarts the run's own instance; docs/runs.md).
	Mode string `json:"mode"`
}

// handleRunRestart starts a new run from a step of an existing one (201
// with the new run); docs/runs.md.
func (s *Server) handleRunRestart(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	var req restartRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	run, err := dep.Restart(r.Context(), tw, deploysvc.RestartRequest{
		RunID: r.PathValue("runId"), FromStep: req.FromStep, Version: req.Version, Mode: req.Mode,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, s.withTraceURL(run))
	return nil
}

type invokeRequest struct {
	ConnectionID string            `json:"connectionId"`
	Method       string            `json:"method"`
	Path         string            `json:"path"`
	Body         json.RawMessage   `json:"body"`
	Headers      map[string]string `json:"headers"`
}

// handleInvoke calls a function's active deployment on a connection and
// answers the function's answer (200 {status, headers, body, bodyTruncated,
// durationMs}), whatever status the function gave.
func (s *Server) handleInvoke(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	var req invokeRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	res, err := dep.Invoke(r.Context(), tw, deploysvc.InvokeRequest{
		ConnectionID: req.ConnectionID, Method: req.Method, Path: req.Path, Body: req.Body, Headers: req.Headers,
	})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// handleRunStepOutput answers the full output of one step of a run, per
// attempt, read from the provider's step endpoint: JSON, or the bytes of a
// step that returned a stream as application/octet-stream (docs/runs.md,
// "Step outputs").
func (s *Server) handleRunStepOutput(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	attempt, err := deploysvc.ParseAttempt(q.Get("attempt"))
	if err != nil {
		return err
	}
	out, err := dep.StepOutput(r.Context(), projectID, r.PathValue("workflowId"), deploysvc.StepOutputRequest{
		RunID: r.PathValue("runId"), NodeID: r.PathValue("nodeId"), Iteration: q.Get("iteration"), Attempt: attempt,
	})
	if err != nil {
		return err
	}
	if out.Stream != nil {
		h := w.Header()
		h.Set("Content-Type", "application/octet-stream")
		h.Set("Content-Length", strconv.Itoa(len(out.Stream)))
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Disposition", "attachment")
		h.Set("Edgeflow-Step-State", out.State)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(out.Stream)
		return nil
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}
