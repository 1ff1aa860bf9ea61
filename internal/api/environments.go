package api

import (
	"net/http"
	"strings"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Environments of a project (docs/environments.md): GET, POST, PATCH and
// DELETE /api/projects/{id}/environments. Reading them needs the viewer
// role, changing them admin (as connections do): an environment says where
// a project's deploys go and who may deploy there.

// environmentProject returns the project of the path the caller may work
// on: one of its organization's (another organization's is not_found), and
// for an API key bound to a project, that project only.
func (s *Server) environmentProject(r *http.Request) (*edgeflow.Project, error) {
	id := r.PathValue("id")
	if k := PrincipalFrom(r).APIKey; k != nil && k.ProjectID != "" && k.ProjectID != id {
		return nil, edgeflow.NotFound("project")
	}
	return s.findProject(r, id)
}

// handleEnvironmentList lists the project's environments by name.
func (s *Server) handleEnvironmentList(w http.ResponseWriter, r *http.Request) error {
	proj, err := s.environmentProject(r)
	if err != nil {
		return err
	}
	// The list is short (at most MaxEnvironments): one page, but the
	// paging parameters every list takes are still checked.
	if _, err := parsePage(r); err != nil {
		return err
	}
	envs, err := s.Store.ListEnvironments(r.Context(), proj.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, edgeflow.ListPage[edgeflow.Environment]{Data: envs})
	return nil
}

type environmentCreateRequest struct {
	Name string `json:"name"`
	// ConnectionID binds the environment to a connection the project may
	// use ("" or absent: bound to none until set).
	ConnectionID string `json:"connectionId"`
	Protected    bool   `json:"protected"`
}

// checkEnvironmentConnection refuses a connection the project may not use
// (not_found, naming /connectionId).
func (s *Server) checkEnvironmentConnection(r *http.Request, proj *edgeflow.Project, id string) error {
	if id == "" {
		return nil
	}
	c, err := s.Store.FindConnectionByID(r.Context(), proj.OrganizationID, id)
	if err == nil && c.ProjectID != "" && c.ProjectID != proj.ID {
		err = edgeflow.NotFound("connection")
	}
	if edgeflow.IsNotFound(err) {
		return &edgeflow.Error{Code: edgeflow.ENotFound, Message: "connection not found",
			Details: []edgeflow.FieldError{{Path: "/connectionId", Message: "no connection of this id that the project may use"}}}
	}
	return err
}

// connectionIDProblem refuses a connectionId with surrounding space (it
// names no connection, and "" is how to bind none).
func connectionIDProblem(id string) string {
	if id != strings.TrimSpace(id) {
		return `connectionId must not have surrounding space ("" binds the environment to none)`
	}
	return ""
}

// environmentConflict is the answer to a name or connection taken.
func environmentConflict(err error, name string) error {
	if edgeflow.IsConflict(err) {
		if e, ok := err.(*edgeflow.Error); ok && strings.Contains(e.Message, "the most") {
			return err
		}
		return edgeflow.Errorf(edgeflow.EConflict,
			"the project has an environment named %s already, or the connection is bound to another of its environments", name)
	}
	return err
}

// handleEnvironmentCreate creates an environment of the project.
func (s *Server) handleEnvironmentCreate(w http.ResponseWriter, r *http.Request) error {
	var req environmentCreateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	proj, err := s.environmentProject(r)
	if err != nil {
		return err
	}
	var p problems
	p.field("/name", edgeflow.EnvironmentNameProblem(req.Name))
	p.field("/connectionId", connectionIDProblem(req.ConnectionID))
	if err := p.err(); err != nil {
		return err
	}
	if err := s.checkEnvironmentConnection(r, proj, req.ConnectionID); err != nil {
		return err
	}
	e := &edgeflow.Environment{ProjectID: proj.ID, Name: req.Name, ConnectionID: req.ConnectionID, Protected: req.Protected}
	if err := s.Store.CreateEnvironment(r.Context(), e); err != nil {
		return environmentConflict(err, req.Name)
	}
	setAuditTarget(r, proj.ID+"/"+e.Name)
	writeJSON(w, http.StatusCreated, e)
	return nil
}

type environmentUpdateRequest struct {
	// ConnectionID binds the environment to another connection; "" binds
	// it to none.
	ConnectionID *string `json:"connectionId"`
	Protected    *bool   `json:"protected"`
}

// handleEnvironmentUpdate changes an environment's connection or its
// protection.
func (s *Server) handleEnvironmentUpdate(w http.ResponseWriter, r *http.Request) error {
	var req environmentUpdateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	proj, err := s.environmentProject(r)
	if err != nil {
		return err
	}
	e, err := s.Store.FindEnvironment(r.Context(), proj.ID, r.PathValue("name"))
	if err != nil {
		return err
	}
	if req.ConnectionID != nil {
		if msg := connectionIDProblem(*req.ConnectionID); msg != "" {
			return edgeflow.Invalid("/connectionId", msg)
		}
		if err := s.checkEnvironmentConnection(r, proj, *req.ConnectionID); err != nil {
			return err
		}
		e.ConnectionID = *req.ConnectionID
	}
	if req.Protected != nil {
		e.Protected = *req.Protected
	}
	if err := s.Store.UpdateEnvironment(r.Context(), e); err != nil {
		return environmentConflict(err, e.Name)
	}
	writeJSON(w, http.StatusOK, e)
	return nil
}

// handleEnvironmentDelete deletes an environment other than production;
// the deployments made there stay, as history and serving (take them down
// first to stop them).
func (s *Server) handleEnvironmentDelete(w http.ResponseWriter, r *http.Request) error {
	proj, err := s.environmentProject(r)
	if err != nil {
		return err
	}
	name := r.PathValue("name")
	if name == edgeflow.DefaultEnvironment {
		return edgeflow.Errorf(edgeflow.EConflict, "production is every project's environment and cannot be deleted; bind it to no connection instead")
	}
	if err := s.Store.DeleteEnvironment(r.Context(), proj.ID, name); err != nil {
		return err
	}
	writeNoContent(w)
	return nil
}

// checkProtected refuses (403) a deploy, promotion or rollback to a
// protected environment by a caller below admin.
func checkProtected(r *http.Request, e *edgeflow.Environment, what string) error {
	if e == nil || !e.Protected {
		return nil
	}
	if p := PrincipalFrom(r); !p.RoleAtLeast(edgeflow.RoleAdmin) {
		return errForbidden("environment %s is protected: a %s there needs the admin or owner role (you are %s)", e.Name, what, p.Role)
	}
	return nil
}

type promoteRequest struct {
	// From and To name environments of the project.
	From string `json:"from"`
	To   string `json:"to"`
	// InFlight is what happens to the runs in flight in To
	// (deployRequest.InFlight; default "pin").
	InFlight string `json:"inFlight"`
}

// promoteResult is the answer of a promotion: the deployment made in the
// target environment and how its variables differ from the source's.
type promoteResult struct {
	Deployment edgeflow.Deployment `json:"deployment"`
	EnvDiff    deploysvc.EnvDiff   `json:"envDiff"`
}

// handlePromote deploys to environment to exactly the version active in
// environment from (docs/environments.md, "Promotion").
func (s *Server) handlePromote(w http.ResponseWriter, r *http.Request) error {
	dep, tw, err := s.workflowCall(r)
	if err != nil {
		return err
	}
	var req promoteRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	p.check(strings.TrimSpace(req.From) != "", "/from", "from is required: the environment whose active version is promoted")
	p.check(strings.TrimSpace(req.To) != "", "/to", "to is required: the environment the version goes to")
	p.check(req.From == "" || req.From != req.To, "/to", "to must differ from from")
	if err := p.err(); err != nil {
		return err
	}
	t := tw.Tenant()
	_, from, err := dep.ResolveEnvironment(r.Context(), t, "", req.From)
	if err != nil {
		return pathed(err, "/from")
	}
	_, to, err := dep.ResolveEnvironment(r.Context(), t, "", req.To)
	if err != nil {
		return pathed(err, "/to")
	}
	// A refusal is audited with where the release was going; a release
	// that proceeds gets its version too (checkPlanProtected).
	setAuditDetails(r, releaseAudit{Environment: to.Name, ConnectionID: to.ConnectionID, FromEnvironment: from.Name,
		ClientIP: s.clientIP(r), Protected: to.Protected})
	if err := checkProtected(r, to, "promotion"); err != nil {
		return err
	}
	promo, err := dep.CheckPromotion(r.Context(), tw, from, to)
	if err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	plan, err := dep.PrepareDeploy(r.Context(), deploysvc.DeployRequest{OrganizationID: t.OrganizationID, ProjectID: t.ProjectID,
		WorkflowID: tw.Workflow().ID, Environment: to.Name, VersionID: promo.VersionID, UserID: pr.UserID, InFlight: req.InFlight})
	if err != nil {
		return err
	}
	if err := s.checkPlanProtected(r, plan, "promotion", from.Name); err != nil {
		return err
	}
	d, err := dep.Deploy(r.Context(), plan, nil)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, promoteResult{Deployment: *d, EnvDiff: promo.Diff})
	return nil
}

// pathed moves the field path of an environment error from /environment
// to path (the request field that named it).
func pathed(err error, path string) error {
	e, ok := err.(*edgeflow.Error)
	if !ok {
		return err
	}
	cp := *e
	if fe, ok := cp.Details.([]edgeflow.FieldError); ok {
		out := make([]edgeflow.FieldError, len(fe))
		for i, f := range fe {
			f.Path = path
			out[i] = f
		}
		cp.Details = out
	}
	return &cp
}
