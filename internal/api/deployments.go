package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Deploy, deploy-stream and takedown (docs/api.md and docs/deploy.md); the lists are
// in history.go.

type deployRequest struct {
	ConnectionID string `json:"connectionId"`
	// Environment names the project environment to deploy to, in place of
	// connectionId (docs/environments.md).
	Environment string `json:"environment"`
	VersionID   string `json:"versionId"`
	// RotateTriggerSecret replaces the public trigger's signing secret
	// (deployConfig.publicTrigger) instead of keeping it.
	RotateTriggerSecret bool `json:"rotateTriggerSecret"`
	// InFlight is what happens to the runs in flight of earlier versions:
	// "pin" (default), "migrate" or "drain" (docs/releases.md).
	InFlight string `json:"inFlight"`
	// Force migrates runs in flight even when the plan says the version is
	// not compatible with them (inFlight "migrate" only).
	Force bool `json:"force"`
}

func newDeployResult(d *edgeflow.Deployment) edgeflow.DeployResult {
	return edgeflow.DeployResult{Deployment: *d, Success: true, DeploymentID: d.ID}
}

// deployer returns the deploy service or an error when none is configured.
func (s *Server) deployer() (*deploysvc.Service, error) {
	if s.Deployer == nil {
		return nil, edgeflow.Errorf(edgeflow.EProviderUnavailable, "deploying is not configured on this server")
	}
	return s.Deployer, nil
}

// workflowCall is the start of every handler that acts on one workflow of
// the project through the deploy service: the service, and the {workflowId}
// of the path as the service read it for the principal's tenant (404 when
// it is not a workflow of the project). The service owns that read: the
// handler reads nothing of the workflow itself, and the calls that take the
// TenantWorkflow (Trigger, Restart, Invoke, Test, Takedown,
// FindTriggerSecret) do not read it again.
func (s *Server) workflowCall(r *http.Request) (*deploysvc.Service, *deploysvc.TenantWorkflow, error) {
	return s.workflowCallOn(r, r.PathValue("workflowId"))
}

// workflowCallOn is workflowCall for the workflow id.
func (s *Server) workflowCallOn(r *http.Request, id string) (*deploysvc.Service, *deploysvc.TenantWorkflow, error) {
	dep, err := s.deployer()
	if err != nil {
		return nil, nil, err
	}
	t, err := tenantOf(r)
	if err != nil {
		return nil, nil, err
	}
	tw, err := dep.ReadWorkflow(r.Context(), t, id)
	if err != nil {
		return nil, nil, err
	}
	return dep, tw, nil
}

// tenantOf is the principal's organization and project, as the deploy
// service names them.
func tenantOf(r *http.Request) (deploysvc.Tenant, error) {
	p := PrincipalFrom(r)
	projectID, err := p.Project()
	if err != nil {
		return deploysvc.Tenant{}, err
	}
	return deploysvc.Tenant{OrganizationID: p.OrganizationID, ProjectID: projectID}, nil
}

// prepareDeploy reads a deploy request and checks it (workflow, connection,
// version, lock, environment variables) before any stream starts.
func (s *Server) prepareDeploy(r *http.Request) (*deploysvc.Plan, error) {
	d, err := s.deployer()
	if err != nil {
		return nil, err
	}
	p := PrincipalFrom(r)
	projectID, err := p.Project()
	if err != nil {
		return nil, err
	}
	workflowID := r.PathValue("workflowId")
	if _, err := s.Store.FindWorkflowByID(r.Context(), projectID, workflowID); err != nil {
		return nil, err
	}
	if deployBodyMissing(r) {
		return nil, errDeployNeedsConnection
	}
	var req deployRequest
	if err := decode(r, &req); err != nil {
		return nil, err
	}
	plan, err := d.PrepareDeploy(r.Context(), deploysvc.DeployRequest{
		OrganizationID: p.OrganizationID, ProjectID: projectID, WorkflowID: workflowID,
		ConnectionID: req.ConnectionID, Environment: req.Environment, VersionID: req.VersionID, UserID: p.UserID,
		RotateTriggerSecret: req.RotateTriggerSecret, InFlight: req.InFlight, Force: req.Force,
	})
	if err != nil {
		return nil, err
	}
	if err := s.checkPlanProtected(r, plan, "deploy", ""); err != nil {
		return nil, err
	}
	return plan, nil
}

// releaseAudit is the audit entry's details of a deploy, promotion or
// rollback: the environment and version it went to, where it came from
// (the environment a promotion read, the client's address) and, for a
// protected environment, that it was.
type releaseAudit struct {
	Environment     string `json:"environment,omitempty"`
	ConnectionID    string `json:"connectionId"`
	VersionID       string `json:"versionId"`
	Version         int    `json:"version"`
	FromEnvironment string `json:"fromEnvironment,omitempty"`
	ClientIP        string `json:"clientIp"`
	Protected       bool   `json:"protected,omitempty"`
}

// checkPlanProtected refuses a plan to a protected environment by a caller
// below admin (403) and records, either way, the audit details of the
// release: who is the entry's actor; the version, the environment and from
// where are its details.
func (s *Server) checkPlanProtected(r *http.Request, plan *deploysvc.Plan, what, from string) error {
	env := plan.Environment()
	a := releaseAudit{ConnectionID: plan.Connection().ID, VersionID: plan.Version().ID, Version: plan.Version().Number,
		FromEnvironment: from, ClientIP: s.clientIP(r)}
	if env != nil {
		a.Environment, a.Protected = env.Name, env.Protected
	}
	setAuditDetails(r, a)
	return checkProtected(r, env, what)
}

// handleDeploy deploys a version to a connection and answers the active
// deployment with its url.
func (s *Server) handleDeploy(w http.ResponseWriter, r *http.Request) error {
	plan, err := s.prepareDeploy(r)
	if err != nil {
		return err
	}
	d, err := s.Deployer.Deploy(r.Context(), plan, nil)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newDeployResult(d))
	return nil
}

// handleDeployStream is handleDeploy as Server-Sent Events: one
// "event: progress" frame per stage when its work starts, then exactly one
// "event: result" (the deployment) or "event: error" (an error body).
// Request errors found before the work starts are ordinary JSON errors.
func (s *Server) handleDeployStream(w http.ResponseWriter, r *http.Request) error {
	plan, err := s.prepareDeploy(r)
	if err != nil {
		return err
	}
	sse := newSSEWriter(w)
	if dp := plan.DeployPlan(); dp != nil {
		sse.event("plan", dp)
	}
	d, err := s.Deployer.Deploy(r.Context(), plan, func(p deploysvc.Progress) { sse.event("progress", p) })
	if err != nil {
		status, body := errorBody(err, requestIDFrom(r))
		if status == http.StatusInternalServerError {
			s.Logger.ErrorContext(r.Context(), "deploy failed", "requestId", requestIDFrom(r), "error", err.Error())
		}
		sse.event("error", edgeflow.StreamError{ErrorBody: body, Status: status})
		return nil
	}
	sse.event("result", newDeployResult(d))
	return nil
}

// sseWriter writes Server-Sent Events frames and flushes each one. Writes
// to a client that went away are dropped.
type sseWriter struct {
	w  http.ResponseWriter
	rc *http.ResponseController
	id int
}

func newSSEWriter(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	s := &sseWriter{w: w, rc: http.NewResponseController(w)}
	s.rc.Flush()
	return s
}

func (s *sseWriter) event(name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte(`{"error":"internal error","code":"internal"}`)
	}
	fmt.Fprintf(s.w, "event: %s\nid: %d\ndata: %s\n\n", name, s.id, data)
	s.id++
	s.rc.Flush()
}

type takedownRequest struct {
	ConnectionID string `json:"connectionId"`
	// Environment names the environment to take the workflow down from, in
	// place of connectionId (docs/environments.md).
	Environment string `json:"environment"`
}

// handleTakedown deletes the deployed worker (and Workflow) and removes the
// deployment; nothing deployed there is 409. A takedown from a protected
// environment is refused below admin (403) and audited as releases are.
func (s *Server) handleTakedown(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	var req takedownRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if strings.TrimSpace(req.ConnectionID) == "" && strings.TrimSpace(req.Environment) == "" {
		return edgeflow.Invalid("/connectionId", "connectionId or environment is required")
	}
	connID, env, err := dep.ResolveEnvironment(r.Context(), tw.Tenant(), req.ConnectionID, req.Environment)
	if err != nil {
		return err
	}
	a := releaseAudit{ConnectionID: connID, ClientIP: s.clientIP(r)}
	if env != nil {
		a.Environment, a.Protected = env.Name, env.Protected
	}
	setAuditDetails(r, a)
	if err := checkProtected(r, env, "takedown"); err != nil {
		return err
	}
	d, err := dep.Takedown(r.Context(), tw, connID)
	if err != nil {
		return err
	}
	a.VersionID = d.VersionID
	if v, err := s.Store.FindVersionByID(r.Context(), d.WorkflowID, d.VersionID); err == nil {
		a.Version = v.Number
	}
	setAuditDetails(r, a)
	writeJSON(w, http.StatusOK, newDeployResult(d))
	return nil
}

type rollbackRequest struct {
	ConnectionID string `json:"connectionId"`
	// Environment names the environment to roll back, in place of
	// connectionId.
	Environment string `json:"environment"`
	// InFlight is what happens to the runs in flight of the current
	// version (deployRequest.InFlight; default "pin").
	InFlight string `json:"inFlight"`
}

// handleRollback deploys again the version that was active on the
// connection before the current one (docs/releases.md, "Rollback").
func (s *Server) handleRollback(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	var req rollbackRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	connID, env, err := dep.ResolveEnvironment(r.Context(), tw.Tenant(), req.ConnectionID, req.Environment)
	if err != nil {
		return err
	}
	if env != nil {
		setAuditDetails(r, releaseAudit{Environment: env.Name, ConnectionID: connID, ClientIP: s.clientIP(r), Protected: env.Protected})
	}
	if err := checkProtected(r, env, "rollback"); err != nil {
		return err
	}
	versionID, err := dep.RollbackVersion(r.Context(), tw, connID)
	if err != nil {
		return err
	}
	p := PrincipalFrom(r)
	t := tw.Tenant()
	plan, err := dep.PrepareDeploy(r.Context(), deploysvc.DeployRequest{OrganizationID: t.OrganizationID, ProjectID: t.ProjectID,
		WorkflowID: tw.Workflow().ID, ConnectionID: connID, VersionID: versionID, UserID: p.UserID, InFlight: req.InFlight})
	if err != nil {
		return err
	}
	if err := s.checkPlanProtected(r, plan, "rollback", ""); err != nil {
		return err
	}
	d, err := dep.Deploy(r.Context(), plan, nil)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newDeployResult(d))
	return nil
}

// defaultDeployer builds the deploy service of cfg.
func defaultDeployer(cfg Config) (*deploysvc.Service, error) {
	opts := deploysvc.Options{
		Store:    cfg.Store,
		Secrets:  deploysvc.SealerSecrets(cfg.Sealer),
		Compiler: &deploysvc.CodegenCompiler{Marketplace: cfg.Marketplace, CacheDir: cfg.CacheDir, CacheLimit: cfg.CacheLimit},
		Logger:   cfg.Logger.With("component", "deploy"),
		Now:      cfg.Now,

		CloudflareBaseURL: cfg.CloudflareBaseURL,
	}
	if cfg.LocalEdge != nil {
		opts.LocalEdge = cfg.LocalEdge
	}
	return deploysvc.New(opts)
}

// handleDeployPlan answers what a deploy of a version (the current one when
// versionId is absent) to a connection would do to the runs in flight
// there (docs/releases.md, "The deploy plan").
func (s *Server) handleDeployPlan(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if strings.TrimSpace(q.Get("connectionId")) == "" && strings.TrimSpace(q.Get("environment")) == "" {
		return edgeflow.Invalid("?connectionId", "connectionId or environment is required")
	}
	connID, _, err := dep.ResolveEnvironment(r.Context(), tw.Tenant(), q.Get("connectionId"), q.Get("environment"))
	if err != nil {
		return err
	}
	plan, err := dep.PlanDeploy(r.Context(), tw, connID, q.Get("versionId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, plan)
	return nil
}
