package api

import (
	"net/http"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Organization settings: the run retention (docs/runs.md).

type organizationSettingsRequest struct {
	// RunRetentionDays is how long finished runs are kept, 1 to 3650 days.
	RunRetentionDays *int `json:"runRetentionDays"`
}

type organizationSettings struct {
	ID               string `json:"id"`
	RunRetentionDays int    `json:"runRetentionDays"`
}

// handleOrganizationUpdate changes the active organization's settings; its
// owners and admins only.
func (s *Server) handleOrganizationUpdate(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	id := r.PathValue("organizationId")
	if id != p.OrganizationID {
		return edgeflow.NotFound("organization")
	}
	if p.Role != edgeflow.RoleOwner && p.Role != edgeflow.RoleAdmin {
		return errForbidden("only the organization's owners and admins change its settings")
	}
	var req organizationSettingsRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if req.RunRetentionDays == nil {
		return edgeflow.Invalid("/runRetentionDays", "runRetentionDays is required")
	}
	if d := *req.RunRetentionDays; d < 1 || d > 3650 {
		return edgeflow.Invalid("/runRetentionDays", "runRetentionDays must be between 1 and 3650")
	}
	if err := s.Store.SetRunRetention(r.Context(), id, *req.RunRetentionDays); err != nil {
		return err
	}
	days, err := s.Store.FindRunRetention(r.Context(), id)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, organizationSettings{ID: id, RunRetentionDays: days})
	return nil
}
