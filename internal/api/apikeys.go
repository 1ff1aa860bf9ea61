package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// apiKeyCreated is the answer of POST /api-keys: the key record and, once,
// the full key.
type apiKeyCreated struct {
	apiKeyView
	Key string `json:"key"`
}

// apiKeyView is a key as the API shows it: projectId null and scope
// "organization" for an organization key.
type apiKeyView struct {
	edgeflow.APIKey
	ProjectID *string `json:"projectId"`
	Scope     string  `json:"scope"`
}

func viewAPIKey(k edgeflow.APIKey) apiKeyView {
	if k.Scopes == nil {
		k.Scopes = []edgeflow.Scope{}
	}
	v := apiKeyView{APIKey: k, Scope: recordScope(k.ProjectID)}
	if k.ProjectID != "" {
		v.ProjectID = &k.ProjectID
	}
	return v
}

// handleAPIKeyList lists the organization's API keys (never their values).
func (s *Server) handleAPIKeyList(w http.ResponseWriter, r *http.Request) error {
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	// Admins see every key of the organization; others their own.
	pr := PrincipalFrom(r)
	var page edgeflow.Page[edgeflow.APIKey]
	if pr.RoleAtLeast(edgeflow.RoleAdmin) {
		page, err = s.Store.ListAPIKeys(r.Context(), orgID, opts)
	} else {
		page, err = s.Store.ListAPIKeysOfUser(r.Context(), orgID, pr.UserID, opts)
	}
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, viewAPIKey))
	return nil
}

type apiKeyCreateRequest struct {
	Name      string   `json:"name"`
	ProjectID string   `json:"projectId"`
	Scopes    []string `json:"scopes"`
	ExpiresAt *string  `json:"expiresAt"`
}

// handleAPIKeyCreate creates a key for a project of the organization and
// returns its full value once.
func (s *Server) handleAPIKeyCreate(w http.ResponseWriter, r *http.Request) error {
	var req apiKeyCreateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	req.Name = strings.TrimSpace(req.Name)
	var p problems
	p.field("/name", edgeflow.NameProblem(req.Name))
	scopes, msg := edgeflow.ParseScopes(req.Scopes)
	p.check(msg == "", "/scopes", msg)
	var expires *time.Time
	if req.ExpiresAt != nil {
		t, err := time.Parse(time.RFC3339Nano, *req.ExpiresAt)
		switch {
		case err != nil:
			p.add("/expiresAt", "expiresAt must be an ISO 8601 timestamp such as 2030-01-02T15:04:05Z")
		case !t.After(s.now()):
			p.add("/expiresAt", "expiresAt must be in the future")
		default:
			t = t.UTC()
			expires = &t
		}
	}
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	orgID, err := pr.Organization()
	if err != nil {
		return err
	}
	if req.ProjectID == "" {
		// An organization key acts in every project (docs/decisions.md 184).
		if !pr.RoleAtLeast(edgeflow.RoleAdmin) {
			return errForbidden("an organization API key (no projectId) needs the admin role (you are %s); name a project", pr.Role)
		}
	} else if _, err := s.Store.FindProjectByID(r.Context(), orgID, req.ProjectID); err != nil {
		if edgeflow.IsNotFound(err) {
			return edgeflow.Invalid("/projectId", "no such project in this organization")
		}
		return err
	}
	if got := scopesWithin(scopes, pr.Role); len(got) < len(scopes) {
		return errForbidden("a key never exceeds its creator's role: a %s's keys may hold only %v", pr.Role, RoleScopes(pr.Role))
	}
	key, prefix, hash := auth.NewAPIKey()
	k := &edgeflow.APIKey{OrganizationID: orgID, ProjectID: req.ProjectID, UserID: pr.UserID, Name: req.Name,
		Prefix: prefix, Hash: hash, Scopes: scopes, ExpiresAt: expires}
	if err := s.Store.CreateAPIKey(r.Context(), k); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, apiKeyCreated{apiKeyView: viewAPIKey(*k), Key: key})
	return nil
}

// handleAPIKeyRevoke revokes a key; it stops working at once. Revoking
// another user's key needs the admin role.
func (s *Server) handleAPIKeyRevoke(w http.ResponseWriter, r *http.Request) error {
	pr := PrincipalFrom(r)
	orgID, err := pr.Organization()
	if err != nil {
		return err
	}
	k, err := s.Store.FindAPIKeyByID(r.Context(), orgID, r.PathValue("id"))
	if err != nil {
		return err
	}
	if k.UserID != pr.UserID && !pr.RoleAtLeast(edgeflow.RoleAdmin) {
		return errForbidden("revoking another user's API key needs the admin role (you are %s)", pr.Role)
	}
	if err := s.Store.RevokeAPIKey(r.Context(), orgID, k.ID, s.now()); err != nil {
		return err
	}
	writeNoContent(w)
	return nil
}
