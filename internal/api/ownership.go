package api

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Ownership of organization records by projects (docs/decisions.md 80).
//
// Connections and global variables are organization-wide (project "") or
// owned by one project of the organization. Every caller sees the
// organization-wide records and those of its project (the key's, or the
// session's selected one); a record of another project is not_found. Only a
// session changes or deletes an organization-wide record: a project API key
// that tries is forbidden, so that a key handed to one project cannot swap
// credentials or values that every other project deploys with.

// Record scopes, as the API names them.
const (
	ScopeOrganization = "organization"
	ScopeProject      = "project"
)

// recordScope names the scope of a record owned by projectID.
func recordScope(projectID string) string {
	if projectID == "" {
		return ScopeOrganization
	}
	return ScopeProject
}

// sees reports whether the caller sees a record owned by projectID.
func (p *Principal) sees(projectID string) bool {
	return projectID == "" || projectID == p.ProjectID
}

// canChange returns nil when the caller may change or delete a record it
// sees that is owned by projectID, or forbidden for an API key and an
// organization-wide record. what names the record ("connection").
func (p *Principal) canChange(what, projectID string) error {
	if projectID == "" && !p.OrganizationWide() {
		return errForbidden("this %s is organization-wide: a project API key may change only its own project's records; change it from a signed-in session or with an organization API key, or use a %s of the key's project", what, what)
	}
	if projectID == "" && !p.RoleAtLeast(edgeflow.RoleAdmin) {
		return errForbidden("this %s is organization-wide: changing it needs the admin role (you are %s)", what, p.Role)
	}
	return nil
}

// ownerForCreate returns the project that owns a record the caller creates
// with the requested scope ("" for the default): a key's records are its
// project's; a session's are organization-wide unless it asks for
// "project". A key asking for "organization" is forbidden.
func (p *Principal) ownerForCreate(what, scope string) (string, error) {
	switch {
	case scope == ScopeOrganization && !p.OrganizationWide():
		return "", errForbidden("a project API key creates only records of its project: an organization-wide %s needs a signed-in session or an organization API key (leave scope out or use \"project\")", what)
	case scope == ScopeProject || !p.OrganizationWide():
		return p.Project()
	case !p.RoleAtLeast(edgeflow.RoleAdmin):
		if scope == ScopeOrganization {
			return "", errForbidden("an organization-wide %s needs the admin role (you are %s); use scope \"project\"", what, p.Role)
		}
		return p.Project() // a member's records default to the project
	}
	return "", nil
}

// checkMoveKeepsConnections refuses (409) to move wf to targetProjectID
// while an active deployment of it uses a connection owned by another
// project: the moved workflow could no longer be triggered there.
func (s *Server) checkMoveKeepsConnections(ctx context.Context, wf *edgeflow.Workflow, targetProjectID string) error {
	opts := edgeflow.ListOptions{Limit: 100}
	for {
		page, err := s.Store.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: wf.ProjectID, WorkflowID: wf.ID}, opts)
		if err != nil {
			return err
		}
		for _, d := range page.Items {
			if d.Status != edgeflow.DeploymentActive {
				continue
			}
			c, err := s.Store.FindConnectionByID(ctx, wf.OrganizationID, d.ConnectionID)
			if edgeflow.IsNotFound(err) {
				continue
			}
			if err != nil {
				return err
			}
			if c.ProjectID != "" && c.ProjectID != targetProjectID {
				return edgeflow.Errorf(edgeflow.EConflict, "the workflow is deployed on connection %s, which belongs to its current project; take it down there first", c.ID)
			}
		}
		if page.NextCursor == "" {
			return nil
		}
		opts.Cursor = page.NextCursor
	}
}
