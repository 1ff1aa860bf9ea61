package api

import (
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/edgeflow/edgeflow/internal/codegen"
	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// handleTriggerSecret answers the signing secret of the workflow's public
// trigger on ?connectionId= (deployConfig.publicTrigger, docs/deploy.md):
// the worker URL, the secret and how to sign. Scope deploy: the secret lets
// anyone who holds it start runs.
func (s *Server) handleTriggerSecret(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	connectionID := r.URL.Query().Get("connectionId")
	if strings.TrimSpace(connectionID) == "" {
		return edgeflow.Invalid("?connectionId", "connectionId is required")
	}
	secret, err := dep.FindTriggerSecret(r.Context(), tw, connectionID)
	if err != nil {
		return err
	}
	if secret.ViaEdgeflow {
		// The worker refuses signed requests: callers sign for edgeflow's route.
		secret.URL = s.baseURL(r) + "/api/workflows/" + tw.Workflow().ID + "/signed-trigger?connectionId=" + url.QueryEscape(connectionID)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, secret)
	return nil
}

// handleSignedTrigger starts a run from a request signed with the
// workflow's trigger secret (docs/deploy.md, "Public trigger"): no
// credential, the signature is the authority. It goes through the trigger
// path, so the workflow's flow control applies (429 with Retry-After, or
// held with ?queue=true); the worker of a workflow with flow control
// refuses signed requests (decision 721).
func (s *Server) handleSignedTrigger(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	q := r.URL.Query()
	connectionID := q.Get("connectionId")
	if strings.TrimSpace(connectionID) == "" {
		return edgeflow.Invalid("?connectionId", "connectionId is required")
	}
	queue := false
	switch q.Get("queue") {
	case "", "false":
	case "true":
		queue = true
	default:
		return edgeflow.Invalid("?queue", "queue must be true or false")
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, deploysvc.MaxParamsBytes+1))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return &edgeflow.Error{Code: edgeflow.EPayloadTooLarge, Message: "the body (the run's params) must be at most 100 KB"}
		}
		return errBadRequest("could not read the request body")
	}
	res, err := dep.TriggerSigned(r.Context(), deploysvc.SignedTriggerRequest{
		WorkflowID: r.PathValue("workflowId"), ConnectionID: connectionID,
		Timestamp: r.Header.Get(codegen.SignatureTimestampHeader), Signature: r.Header.Get(codegen.SignatureHeader),
		Body: body, Queue: queue,
	})
	if err != nil {
		return err
	}
	// The run is audited in its workflow's organization, by an anonymous
	// caller who held the trigger secret; a refused request names none.
	if d, err := s.Store.FindActiveDeployment(r.Context(), r.PathValue("workflowId"), connectionID); err == nil {
		if wf, err := s.Store.FindWorkflowByID(r.Context(), d.ProjectID, d.WorkflowID); err == nil {
			setAuditTenant(r, wf.OrganizationID, wf.ProjectID)
		}
	}
	writeJSON(w, http.StatusCreated, res)
	return nil
}
