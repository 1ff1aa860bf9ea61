package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/codegen"
	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// Masked replaces secret values in every response.
const Masked = "***"

// workflowView is a workflow as the API shows it: secret variable values
// masked, empty collections as [] and {}.
func workflowView(w edgeflow.Workflow) edgeflow.Workflow {
	vars := make([]edgeflow.WorkflowEnvVar, len(w.EnvVars))
	for i, v := range w.EnvVars {
		if v.IsSecret {
			v.Value = Masked
			v.Values = maskedValues(v.Values)
		}
		vars[i] = v
	}
	w.EnvVars = vars
	if w.Dependencies == nil {
		w.Dependencies = map[string]string{}
	}
	return w
}

// FindWorkflow returns a workflow of the caller's project; any other is
// not_found. Handlers of workflow sub-resources start with it.
func (s *Server) FindWorkflow(r *http.Request, id string) (*edgeflow.Workflow, error) {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return nil, err
	}
	return s.Store.FindWorkflowByID(r.Context(), projectID, id)
}

// handleWorkflowList lists the project's workflows and functions, newest first.
func (s *Server) handleWorkflowList(w http.ResponseWriter, r *http.Request) error {
	projectID, err := PrincipalFrom(r).Project()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	if el, ok := s.Store.(encodedWorkflowLister); ok {
		b, err := el.ListWorkflowsEncoded(r.Context(), projectID, opts, workflowListEncoding,
			func(page edgeflow.Page[edgeflow.Workflow]) ([]byte, error) { return encodeWorkflowPage(r, page) })
		if err != nil {
			return listError(err)
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		w.Write(b)
		return nil
	}
	page, err := s.Store.ListWorkflows(r.Context(), projectID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, workflowView))
	return nil
}

// encodedWorkflowLister is a store that caches encoded workflow list pages
// (the SQLite store); the list handler then encodes a page once per change
// of the database instead of once per request.
type encodedWorkflowLister interface {
	ListWorkflowsEncoded(ctx context.Context, projectID string, opts edgeflow.ListOptions, encoding string,
		encode func(edgeflow.Page[edgeflow.Workflow]) ([]byte, error)) ([]byte, error)
}

// workflowListEncoding names encodeWorkflowPage's output in the store's
// cache. The cache is per project, and so is the list's cursor binding
// (the path, the project and its organization), so a cached page's
// nextCursor is right for every caller who reads it.
const workflowListEncoding = "api/workflow-page/v2"

// encodeWorkflowPage encodes a list page of r as writeJSON does (with the
// trailing newline). It must not modify page: the store shares it.
func encodeWorkflowPage(r *http.Request, page edgeflow.Page[edgeflow.Workflow]) ([]byte, error) {
	b, err := json.Marshal(newPage(r, page, workflowView))
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

type workflowCreateRequest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Kind        string `json:"kind"`
}

// handleWorkflowCreate creates a workflow (kind "workflow", the default) or a
// function (kind "script") in the project.
func (s *Server) handleWorkflowCreate(w http.ResponseWriter, r *http.Request) error {
	var req workflowCreateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	req.Name = strings.TrimSpace(req.Name)
	var p problems
	p.field("/name", edgeflow.NameProblem(req.Name))
	p.field("/description", edgeflow.DescriptionProblem(req.Description))
	switch req.Kind {
	case "":
		req.Kind = edgeflow.KindWorkflow
	case edgeflow.KindWorkflow, edgeflow.KindScript:
	default:
		p.add("/kind", `kind must be "workflow" or "script"`)
	}
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	projectID, err := pr.Project()
	if err != nil {
		return err
	}
	wf := &edgeflow.Workflow{
		OrganizationID: pr.OrganizationID, ProjectID: projectID, Name: req.Name, Description: req.Description,
		Kind: req.Kind, EnvVars: []edgeflow.WorkflowEnvVar{}, Dependencies: map[string]string{},
	}
	if err := s.Store.CreateWorkflow(r.Context(), wf); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, workflowView(*wf))
	return nil
}

// handleWorkflowGet returns one workflow.
func (s *Server) handleWorkflowGet(w http.ResponseWriter, r *http.Request) error {
	wf, err := s.FindWorkflow(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, workflowView(*wf))
	return nil
}

// maxFullVersions bounds the version summaries of /full.
const maxFullVersions = 1000

// handleWorkflowFull returns the workflow with its current version (or the
// one named by ?version=), summaries of its versions (highest first) and its
// active deployment (null when not deployed).
func (s *Server) handleWorkflowFull(w http.ResponseWriter, r *http.Request) error {
	wf, err := s.FindWorkflow(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	ctx := r.Context()
	out := edgeflow.WorkflowFull{Workflow: workflowView(*wf), Versions: []edgeflow.Version{}}
	versionID := wf.CurrentVersionID
	if q := r.URL.Query(); q.Has("version") {
		versionID = q.Get("version")
		if versionID == "" {
			return edgeflow.Invalid("?version", "version must be a version id")
		}
	}
	if versionID != "" {
		v, err := s.Store.FindVersionByID(ctx, wf.ID, versionID)
		if err != nil {
			return err
		}
		out.CurrentVersion = v
	}
	opts := edgeflow.ListOptions{Limit: MaxPageLimit}
	for len(out.Versions) < maxFullVersions {
		page, err := s.Store.ListVersions(ctx, wf.ID, opts)
		if err != nil {
			return err
		}
		out.Versions = append(out.Versions, page.Items...)
		if page.NextCursor == "" {
			break
		}
		opts.Cursor = page.NextCursor
	}
	d, err := s.Store.FindActiveDeployment(ctx, wf.ID, "")
	switch {
	case err == nil:
		out.ActiveDeployment = d
	case !edgeflow.IsNotFound(err):
		return err
	}
	// A deploy records its deployment and the workflow's active version in
	// one transaction, but the workflow was read before the deployment: one
	// that committed in between shows a deployment the workflow does not
	// name yet. Read the workflow again (a few times at most, in case other
	// deploys follow) so that both come from after the same deploy.
	for try := 0; d != nil && d.VersionID != wf.ActiveVersionID && try < 3; try++ {
		again, err := s.Store.FindWorkflowByID(ctx, wf.ProjectID, wf.ID)
		if err != nil {
			return err
		}
		wf = again
		out.Workflow.ActiveVersionID = wf.ActiveVersionID
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

type routeInput struct {
	Pattern  string `json:"pattern"`
	ZoneName string `json:"zoneName"`
}

type deployConfigInput struct {
	Route         *routeInput `json:"route"`
	PublicTrigger *bool       `json:"publicTrigger"`
	// Retention is {success?, error?}: durations of at most 30 days.
	Retention *edgeflow.Retention `json:"retention"`
	// Concurrency is the most runs in progress at once per connection (0: no limit).
	Concurrency *int `json:"concurrency"`
	// RateLimit is {limit, period, key?}: at most limit starts per period.
	RateLimit *edgeflow.RateLimit `json:"rateLimit"`
}

type workflowUpdateRequest struct {
	Name         *string                    `json:"name"`
	Description  *string                    `json:"description"`
	EnvVars      *[]edgeflow.WorkflowEnvVar `json:"envVars"`
	TriggerCode  *string                    `json:"triggerCode"`
	Dependencies *map[string]string         `json:"dependencies"`
	DeployConfig *deployConfigInput         `json:"deployConfig"`
}

// Limits of workflow fields.
const (
	maxTriggerCode  = 256 << 10
	maxEnvVars      = 200
	maxDependencies = 200
	maxEnvValue     = 32 << 10
)

// handleWorkflowUpdate changes any of name, description, envVars,
// triggerCode, dependencies and deployConfig (kind is refused as an unknown
// field). envVars replaces the whole list; a secret whose value is sent back
// as "***" keeps its stored value; secret values are sealed.
func (s *Server) handleWorkflowUpdate(w http.ResponseWriter, r *http.Request) error {
	var req workflowUpdateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	wf, err := s.FindWorkflow(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	var p problems
	if req.Name != nil {
		*req.Name = strings.TrimSpace(*req.Name)
		p.field("/name", edgeflow.NameProblem(*req.Name))
	}
	if req.Description != nil {
		p.field("/description", edgeflow.DescriptionProblem(*req.Description))
	}
	p.check(req.TriggerCode == nil || len(*req.TriggerCode) <= maxTriggerCode, "/triggerCode", "triggerCode must be at most 256 KiB")
	if req.TriggerCode != nil {
		if err := codegen.CheckImports(*req.TriggerCode); err != nil {
			p.add("/triggerCode", err.Error())
		}
	}
	if req.EnvVars != nil {
		checkWorkflowEnvVars(&p, *req.EnvVars)
	}
	if req.Dependencies != nil {
		deps := *req.Dependencies
		p.check(len(deps) <= maxDependencies, "/dependencies", fmt.Sprintf("at most %d dependencies", maxDependencies))
		p = append(p, deploysvc.DependencyProblems(deps)...)
	}
	if req.DeployConfig != nil && req.DeployConfig.Route != nil {
		rt := req.DeployConfig.Route
		p.check(rt.Pattern != "" && len(rt.Pattern) <= 1000 && !strings.ContainsAny(rt.Pattern, " \n\r"), "/deployConfig/route/pattern", "route pattern is required, e.g. example.com/api/*")
		p.check(rt.ZoneName != "" && len(rt.ZoneName) <= 253 && !strings.ContainsAny(rt.ZoneName, " /") && edgeflow.NameCharProblem(rt.ZoneName) == "", "/deployConfig/route/zoneName", "zoneName is required, e.g. example.com")
	}
	if req.DeployConfig != nil && req.DeployConfig.PublicTrigger != nil && *req.DeployConfig.PublicTrigger {
		p.check(wf.Kind != edgeflow.KindScript, "/deployConfig/publicTrigger", "a function's url is public already; publicTrigger is for workflows")
	}
	if req.DeployConfig != nil && req.DeployConfig.Retention != nil {
		rt := req.DeployConfig.Retention
		for _, f := range []struct{ path, v string }{{"/deployConfig/retention/success", rt.Success}, {"/deployConfig/retention/error", rt.Error}} {
			if _, err := deploysvc.RetentionDuration(f.v); err != nil {
				p.add(f.path, "retention "+err.Error())
			}
		}
	}
	if req.DeployConfig != nil {
		p = append(p, deploysvc.FlowControlProblems(req.DeployConfig.Concurrency, req.DeployConfig.RateLimit)...)
		if req.DeployConfig.Concurrency != nil && *req.DeployConfig.Concurrency > 0 || req.DeployConfig.RateLimit != nil {
			p.check(wf.Kind != edgeflow.KindScript, "/deployConfig", "concurrency and rateLimit are for workflows; a function has no runs")
		}
	}
	if err := p.err(); err != nil {
		return err
	}
	if req.TriggerCode != nil {
		if err := codeSyntaxError(wf.OrganizationID, nil, *req.TriggerCode); err != nil {
			return err
		}
	}
	if req.Name != nil {
		wf.Name = *req.Name
	}
	if req.Description != nil {
		wf.Description = *req.Description
	}
	if req.TriggerCode != nil {
		wf.TriggerCode = *req.TriggerCode
	}
	if req.Dependencies != nil {
		wf.Dependencies = *req.Dependencies
	}
	if req.DeployConfig != nil {
		wf.DeployConfig = &edgeflow.DeployConfig{}
		if rt := req.DeployConfig.Route; rt != nil {
			wf.DeployConfig.Route = &edgeflow.Route{Pattern: rt.Pattern, ZoneName: rt.ZoneName}
		}
		if pt := req.DeployConfig.PublicTrigger; pt != nil {
			wf.DeployConfig.PublicTrigger = *pt
		}
		if rt := req.DeployConfig.Retention; rt != nil && *rt != (edgeflow.Retention{}) {
			wf.DeployConfig.Retention = rt
		}
		if c := req.DeployConfig.Concurrency; c != nil {
			wf.DeployConfig.Concurrency = *c
		}
		wf.DeployConfig.RateLimit = req.DeployConfig.RateLimit
	}
	if req.EnvVars != nil {
		vars, err := s.sealWorkflowEnvVars(wf, *req.EnvVars)
		if err != nil {
			return err
		}
		wf.EnvVars = vars
	}
	if err := s.Store.UpdateWorkflow(r.Context(), wf); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, workflowView(*wf))
	return nil
}

func checkWorkflowEnvVars(p *problems, vars []edgeflow.WorkflowEnvVar) {
	p.check(len(vars) <= maxEnvVars, "/envVars", fmt.Sprintf("at most %d variables", maxEnvVars))
	seen := map[string]bool{}
	for i, v := range vars {
		path := fmt.Sprintf("/envVars/%d", i)
		switch {
		case edgeflow.EnvVarNameProblem(v.Name) != "":
			p.add(path+"/name", edgeflow.EnvVarNameProblem(v.Name))
		case seen[v.Name]:
			p.add(path+"/name", "duplicate variable "+v.Name)
		}
		seen[v.Name] = true
		p.check(len(v.Value) <= maxEnvValue, path+"/value", "value must be at most 32 KiB")
		checkEnvValues(p, path+"/values", v.Values)
	}
}

// sealWorkflowEnvVars seals secret values; "***" for a secret that was
// already secret keeps the stored ciphertext.
func (s *Server) sealWorkflowEnvVars(wf *edgeflow.Workflow, in []edgeflow.WorkflowEnvVar) ([]edgeflow.WorkflowEnvVar, error) {
	old := map[string]edgeflow.WorkflowEnvVar{}
	for _, v := range wf.EnvVars {
		old[v.Name] = v
	}
	out := make([]edgeflow.WorkflowEnvVar, 0, len(in))
	var p problems
	for i, v := range in {
		if v.IsSecret {
			if v.Value == Masked {
				prev, ok := old[v.Name]
				if !ok || !prev.IsSecret {
					p.add(fmt.Sprintf("/envVars/%d/value", i), `"***" keeps a stored secret, but `+v.Name+" has none; send the value")
					continue
				}
				v.Value = prev.Value
			} else {
				v.Value = s.Sealer.SealString(v.Value, secret.WorkflowEnvVarAD(wf.ID, v.Name))
			}
			prev := old[v.Name]
			sealed, bad := sealEnvValues(v.Values, prev.Values, prev.IsSecret, func(plain string) string {
				return s.Sealer.SealString(plain, secret.WorkflowEnvVarAD(wf.ID, v.Name))
			})
			if bad != "" {
				p.add(fmt.Sprintf("/envVars/%d/values/%s", i, escapePointer(bad)), `"***" keeps a stored secret, but `+v.Name+
					" has none for "+bad+"; send the value")
				continue
			}
			v.Values = sealed
		}
		out = append(out, v)
	}
	return out, p.err()
}

// escapePointer escapes a JSON pointer segment.
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

type workflowMoveRequest struct {
	TargetProjectID string `json:"targetProjectId"`
}

// handleWorkflowMove moves a workflow, with its versions, deployments and
// runs, to another project of the same organization. An API key moves a
// workflow of its own project to any project of its organization (after
// which the workflow is out of the key's reach); a project of another
// organization is not_found (docs/decisions.md 110).
func (s *Server) handleWorkflowMove(w http.ResponseWriter, r *http.Request) error {
	var req workflowMoveRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	wf, err := s.FindWorkflow(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	var p problems
	p.check(req.TargetProjectID != "", "/targetProjectId", "targetProjectId is required")
	if err := p.err(); err != nil {
		return err
	}
	target, err := s.findProject(r, req.TargetProjectID)
	if err != nil {
		return err
	}
	if target.ID != wf.ProjectID {
		if err := s.checkMoveKeepsConnections(r.Context(), wf, target.ID); err != nil {
			return err
		}
		if err := s.Store.MoveWorkflow(r.Context(), wf.ProjectID, wf.ID, target.ID); err != nil {
			return err
		}
	}
	moved, err := s.Store.FindWorkflowByID(r.Context(), target.ID, wf.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, workflowView(*moved))
	return nil
}

// handleWorkflowDelete deletes the workflow with all its versions and
// deployments, and its runs unless ?runs=keep (decision 244), with their
// provider instances (decision 494).
func (s *Server) handleWorkflowDelete(w http.ResponseWriter, r *http.Request) error {
	keep := false
	switch r.URL.Query().Get("runs") {
	case "", "delete":
	case "keep":
		keep = true
	default:
		return edgeflow.Invalid("?runs", "runs must be keep or delete")
	}
	dep, tw, err := s.workflowCallOn(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	wf := tw.Workflow()
	active, err := s.activeDeployments(r, wf)
	if err != nil {
		return err
	}
	// A delete takes the workflow down (or leaves it unmanaged) in every
	// environment it is deployed in: a protected one refuses it below admin.
	for _, d := range active {
		_, env, err := dep.ResolveEnvironment(r.Context(), tw.Tenant(), d.ConnectionID, "")
		if err != nil {
			return err
		}
		if err := checkProtected(r, env, "takedown"); err != nil {
			return err
		}
	}
	force := r.URL.Query().Get("force") == "true"
	if !force {
		// Deleting each deployment's Workflow deletes its instances too.
		if err := s.takedownAll(r, dep, tw, active); err != nil {
			return err
		}
	}
	// A forced delete leaves the Workflows on the provider: the deleted
	// runs' instances are deleted there in the background (decision 494).
	var instances []edgeflow.RunInstance
	if force && !keep {
		if instances, err = dep.WorkflowInstances(r.Context(), tw); err != nil {
			return err
		}
	}
	if keep {
		err = s.Store.DeleteWorkflowKeepingRuns(r.Context(), wf.ProjectID, wf.ID)
	} else {
		err = s.Store.DeleteWorkflow(r.Context(), wf.ProjectID, wf.ID)
	}
	if err != nil {
		return err
	}
	dep.DeleteInstancesLater(instances)
	writeNoContent(w)
	return nil
}

// activeDeployments lists the workflow's active deployments.
func (s *Server) activeDeployments(r *http.Request, wf edgeflow.Workflow) ([]edgeflow.Deployment, error) {
	var active []edgeflow.Deployment
	opts := edgeflow.ListOptions{Limit: 100}
	for {
		page, err := s.Store.ListDeployments(r.Context(), edgeflow.DeploymentFilter{ProjectID: wf.ProjectID, WorkflowID: wf.ID}, opts)
		if err != nil {
			return nil, err
		}
		for _, d := range page.Items {
			if d.Status == edgeflow.DeploymentActive {
				active = append(active, d)
			}
		}
		if page.NextCursor == "" {
			return active, nil
		}
		opts.Cursor = page.NextCursor
	}
}

// takedownAll takes down the active deployments of a workflow before it is
// deleted, so that no worker keeps serving a workflow edgeflow no longer
// knows. A provider failure stops the delete (nothing of the workflow is
// lost); ?force=true deletes the records without reaching the provider.
func (s *Server) takedownAll(r *http.Request, dep *deploysvc.Service, tw *deploysvc.TenantWorkflow, active []edgeflow.Deployment) error {
	for _, d := range active {
		if _, err := dep.Takedown(r.Context(), tw, d.ConnectionID); err != nil {
			if edgeflow.IsConflict(err) {
				continue // taken down meanwhile
			}
			var e *edgeflow.Error
			if errors.As(err, &e) {
				return &edgeflow.Error{Code: e.Code, Details: e.Details, Err: err,
					Message: "take down the deployment on connection " + d.ConnectionID + " before deleting: " + e.Message +
						" (retry, or delete with ?force=true to keep the worker running unmanaged)"}
			}
			return err
		}
	}
	return nil
}
