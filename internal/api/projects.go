package api

import (
	"net/http"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// handleProjectList lists the organization's projects, oldest first, for a
// session and an API key alike (docs/api.md; docs/decisions.md 110).
func (s *Server) handleProjectList(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	orgID, err := p.Organization()
	if err != nil {
		return err
	}
	page, err := s.Store.ListProjects(r.Context(), orgID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(p edgeflow.Project) edgeflow.Project { return p }))
	return nil
}

type projectCreateRequest struct {
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
}

// handleProjectCreate creates a project in the organization (docs/api.md: scope
// write, for a session or an API key; a key that creates one still reaches
// workflows only in its own project). The slug defaults to one made from the
// name; a slug taken in the organization is 409.
func (s *Server) handleProjectCreate(w http.ResponseWriter, r *http.Request) error {
	var req projectCreateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	req.Name = strings.TrimSpace(req.Name)
	var p problems
	p.field("/name", edgeflow.NameProblem(req.Name))
	p.field("/description", edgeflow.DescriptionProblem(req.Description))
	if req.Slug == "" && req.Name != "" {
		req.Slug = edgeflow.Slugify(req.Name, edgeflow.MaxSlugLength)
	}
	if req.Slug != "" {
		p.field("/slug", edgeflow.SlugProblem(req.Slug))
	}
	if err := p.err(); err != nil {
		return err
	}
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return err
	}
	proj := &edgeflow.Project{OrganizationID: orgID, Name: req.Name, Slug: req.Slug, Description: req.Description}
	if err := s.Store.CreateProject(r.Context(), proj); err != nil {
		if edgeflow.IsConflict(err) {
			return edgeflow.Errorf(edgeflow.EConflict, "a project with slug %q already exists in this organization", req.Slug)
		}
		return err
	}
	writeJSON(w, http.StatusCreated, proj)
	return nil
}

type projectUpdateRequest struct {
	Name        *string `json:"name"`
	Description *string `json:"description"`
}

// findProject returns a project of the caller's organization, for a session
// and an API key alike: projects are the organization's records, and a key's
// organization is its tenant boundary (docs/decisions.md 110). Another
// organization's project is not_found.
func (s *Server) findProject(r *http.Request, id string) (*edgeflow.Project, error) {
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return nil, err
	}
	return s.Store.FindProjectByID(r.Context(), orgID, id)
}

// handleProjectUpdate changes name and description; the slug never changes.
func (s *Server) handleProjectUpdate(w http.ResponseWriter, r *http.Request) error {
	var req projectUpdateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	proj, err := s.findProject(r, r.PathValue("id"))
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
	if err := p.err(); err != nil {
		return err
	}
	if req.Name != nil {
		proj.Name = *req.Name
	}
	if req.Description != nil {
		proj.Description = *req.Description
	}
	if err := s.Store.UpdateProject(r.Context(), proj); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, proj)
	return nil
}

// handleProjectDelete deletes an empty project of the organization (409
// while it holds workflows). An API key deletes any project of its
// organization except its own, which would take the key with it
// (docs/decisions.md 111).
func (s *Server) handleProjectDelete(w http.ResponseWriter, r *http.Request) error {
	proj, err := s.findProject(r, r.PathValue("id"))
	if err != nil {
		return err
	}
	if k := PrincipalFrom(r).APIKey; k != nil && k.ProjectID == proj.ID {
		return edgeflow.Errorf(edgeflow.EConflict,
			"this API key belongs to project %q, and deleting a project deletes its API keys; delete it with a session or with a key of another project", proj.Slug)
	}
	if err := s.Store.DeleteProject(r.Context(), proj.OrganizationID, proj.ID); err != nil {
		return err
	}
	writeNoContent(w)
	return nil
}
