package api

import (
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The lists of deployments and runs. Deploy, takedown, trigger, a run's
// detail and run control live with the deploy engine (deployments.go,
// runs.go).

func (s *Server) listDeployments(w http.ResponseWriter, r *http.Request, workflowID string) error {
	p := PrincipalFrom(r)
	projectID, err := p.Project()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	if workflowID != "" {
		if _, err := s.Store.FindWorkflowByID(r.Context(), projectID, workflowID); err != nil {
			return err
		}
	}
	page, err := s.Store.ListDeployments(r.Context(), edgeflow.DeploymentFilter{ProjectID: projectID, WorkflowID: workflowID}, opts)
	if err != nil {
		return listError(err)
	}
	if err := deploysvc.FillDeploymentStates(r.Context(), s.Store, page.Items); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(d edgeflow.Deployment) edgeflow.Deployment { return d }))
	return nil
}

// handleDeploymentList lists the project's deployments, newest first.
func (s *Server) handleDeploymentList(w http.ResponseWriter, r *http.Request) error {
	return s.listDeployments(w, r, "")
}

// handleWorkflowDeploymentList lists one workflow's deployments.
func (s *Server) handleWorkflowDeploymentList(w http.ResponseWriter, r *http.Request) error {
	return s.listDeployments(w, r, r.PathValue("workflowId"))
}

// maxRunQuery is the longest ?q= of a run search.
const maxRunQuery = 200

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request, workflowID string) error {
	p := PrincipalFrom(r)
	projectID, err := p.Project()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	f, err := s.runFilter(r, projectID, workflowID)
	if err != nil {
		return err
	}
	page, err := s.Store.ListRuns(r.Context(), f, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(run edgeflow.Run) edgeflow.Run { return run }))
	return nil
}

// runFilter reads the run search's filters of a request (status,
// workflowId unless the path names the workflow, versionId, from, to, q)
// and checks that the workflow is the project's (or was, deleted with its
// runs kept).
func (s *Server) runFilter(r *http.Request, projectID, workflowID string) (edgeflow.RunFilter, error) {
	query := r.URL.Query()
	status := query.Get("status")
	switch status {
	case "", edgeflow.RunQueued, edgeflow.RunRunning, edgeflow.RunPaused, edgeflow.RunComplete, edgeflow.RunErrored, edgeflow.RunTerminated:
	default:
		return edgeflow.RunFilter{}, edgeflow.Invalid("?status", "status must be one of queued, running, paused, complete, errored, terminated")
	}
	f := edgeflow.RunFilter{ProjectID: projectID, WorkflowID: workflowID, Status: status, VersionID: query.Get("versionId"),
		Query: query.Get("q"), Environment: query.Get("environment")}
	if workflowID == "" {
		f.WorkflowID = query.Get("workflowId")
	}
	for _, b := range []struct {
		name string
		to   **time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		v := query.Get(b.name)
		if v == "" {
			continue
		}
		t, err := time.Parse(time.RFC3339Nano, v)
		if err != nil {
			return edgeflow.RunFilter{}, edgeflow.Invalid("?"+b.name, b.name+" must be an RFC 3339 time, e.g. 2026-11-27T06:40:00Z")
		}
		*b.to = &t
	}
	if f.From != nil && f.To != nil && !f.From.Before(*f.To) {
		return edgeflow.RunFilter{}, edgeflow.Invalid("?to", "to must be after from")
	}
	if utf8.RuneCountInString(f.Query) > maxRunQuery {
		return edgeflow.RunFilter{}, edgeflow.Invalid("?q", fmt.Sprintf("q must be at most %d characters", maxRunQuery))
	}
	if f.WorkflowID != "" {
		if _, err := s.Store.FindWorkflowByID(r.Context(), projectID, f.WorkflowID); err != nil {
			// The runs of a workflow deleted with ?runs=keep stay listed
			// under its id (decision 245).
			if !edgeflow.IsNotFound(err) {
				return edgeflow.RunFilter{}, err
			}
			if _, derr := s.Store.FindDeletedWorkflow(r.Context(), projectID, f.WorkflowID); derr != nil {
				return edgeflow.RunFilter{}, err
			}
		}
	}
	return f, nil
}

// maxUsageRuns is how many of the newest runs with model calls a usage
// sum reads (GET /api/runs/usage); past it the answer is partial.
const maxUsageRuns = 100_000

// handleRunUsage sums the token usage of the runs the run search's filters
// select, per workflow.
func (s *Server) handleRunUsage(w http.ResponseWriter, r *http.Request) error {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	f, err := s.runFilter(r, projectID, "")
	if err != nil {
		return err
	}
	sum, err := s.Store.SumRunUsage(r.Context(), f, maxUsageRuns)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, sum)
	return nil
}

// handleRunList lists the project's runs, newest first; ?status= narrows.
func (s *Server) handleRunList(w http.ResponseWriter, r *http.Request) error {
	return s.listRuns(w, r, "")
}

// handleWorkflowRunList lists one workflow's runs.
func (s *Server) handleWorkflowRunList(w http.ResponseWriter, r *http.Request) error {
	return s.listRuns(w, r, r.PathValue("workflowId"))
}
