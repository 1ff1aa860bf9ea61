package api

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// SessionCookie is the name of the session cookie.
const SessionCookie = "edgeflow_session"

// CSRFHeader carries the session's CSRF token on cookie-authenticated writes.
const CSRFHeader = "X-CSRF-Token"

// touchInterval coalesces API key last-used updates.
const touchInterval = time.Minute

// Principal is the authenticated caller of a request and the tenant it acts
// in. Exactly one of Session and APIKey is set.
type Principal struct {
	UserID         string
	OrganizationID string // "" only for a session user without organizations
	// ProjectID is the selected project: the key's project, or for a session
	// ?projectId=, the active project, or the organization's first project.
	// "" when the organization has no project.
	ProjectID string
	// Role is the user's role in the organization (sessions only).
	Role    edgeflow.Role
	Scopes  []edgeflow.Scope
	Session *edgeflow.Session
	APIKey  *edgeflow.APIKey
}

// PrincipalFrom returns the caller of r, or nil on a public route.
func PrincipalFrom(r *http.Request) *Principal {
	p, _ := r.Context().Value(ctxPrincipal).(*Principal)
	return p
}

// IsSession reports whether the caller signed in with a session cookie.
func (p *Principal) IsSession() bool { return p.Session != nil }

// HasScope reports whether the caller may act with scope; sessions hold every scope.
func (p *Principal) HasScope(s edgeflow.Scope) bool {
	return p.Session != nil || slices.Contains(p.Scopes, s)
}

// Project returns the selected project id, or a validation error naming the
// ways to select one.
func (p *Principal) Project() (string, error) {
	if p.ProjectID == "" {
		return "", edgeflow.Invalid("?projectId", "no project selected: pass ?projectId= or choose one with PUT /api/session/active")
	}
	return p.ProjectID, nil
}

// Organization returns the selected organization id or not_found.
func (p *Principal) Organization() (string, error) {
	if p.OrganizationID == "" {
		return "", edgeflow.NotFound("organization")
	}
	return p.OrganizationID, nil
}

// authenticate reads the caller from the Authorization header (an API key)
// or the session cookie, and resolves the tenant with the
// ?organizationId= / ?projectId= overrides. Bad credentials are 401; an
// organization or project the caller cannot see is 404.
func (s *Server) authenticate(r *http.Request) (*Principal, error) {
	q := r.URL.Query()
	orgOverride, projectOverride := q.Get("organizationId"), q.Get("projectId")
	if h := r.Header.Get("Authorization"); h != "" {
		token, ok := strings.CutPrefix(h, "Bearer ")
		if !ok {
			return nil, errUnauthorized("Authorization must be \"Bearer <API key>\"")
		}
		return s.authenticateKey(r, strings.TrimSpace(token), orgOverride, projectOverride)
	}
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return nil, errUnauthorized("authentication required: send Authorization: Bearer <API key> or sign in")
	}
	return s.authenticateSession(r, c.Value, orgOverride, projectOverride)
}

func (s *Server) authenticateKey(r *http.Request, token, orgOverride, projectOverride string) (*Principal, error) {
	if !auth.LooksLikeAPIKey(token) {
		return nil, errUnauthorized("invalid API key")
	}
	k, err := s.Store.FindAPIKeyByHash(r.Context(), auth.HashToken(token))
	if edgeflow.IsNotFound(err) {
		return nil, errUnauthorized("invalid API key")
	}
	if err != nil {
		return nil, err
	}
	now := s.now()
	switch {
	case k.RevokedAt != nil:
		return nil, errUnauthorized("API key revoked")
	case k.ExpiresAt != nil && !now.Before(*k.ExpiresAt):
		return nil, errUnauthorized("API key expired")
	}
	if orgOverride != "" && orgOverride != k.OrganizationID {
		return nil, edgeflow.NotFound("organization")
	}
	if projectOverride != "" && projectOverride != k.ProjectID {
		return nil, edgeflow.NotFound("project")
	}
	s.touchKey(r, k.ID, now)
	return &Principal{UserID: k.UserID, OrganizationID: k.OrganizationID, ProjectID: k.ProjectID, Scopes: k.Scopes, APIKey: k}, nil
}

// touchKey records the key's use at most once per touchInterval per process.
func (s *Server) touchKey(r *http.Request, id string, now time.Time) {
	if s.touchDue(id, now) {
		if err := s.Store.TouchAPIKey(r.Context(), id, now); err != nil {
			s.Logger.Warn("record API key use", "requestId", requestIDFrom(r), "apiKey", id, "error", err.Error())
		}
	}
}

// touchDue reports whether the use of the key or session id at now is to
// be recorded: the first one, then one per touchInterval, per process.
func (s *Server) touchDue(id string, now time.Time) bool {
	s.touchMu.Lock()
	last, seen := s.lastTouch[id]
	due := !seen || now.Sub(last) >= touchInterval
	if due {
		s.lastTouch[id] = now
		if len(s.lastTouch) > 10000 {
			clear(s.lastTouch)
			s.lastTouch[id] = now
		}
	}
	s.touchMu.Unlock()
	return due
}

func (s *Server) authenticateSession(r *http.Request, token, orgOverride, projectOverride string) (*Principal, error) {
	ctx := r.Context()
	sess, err := s.Store.FindSessionByTokenHash(ctx, auth.HashToken(token), s.now())
	if edgeflow.IsNotFound(err) {
		return nil, errUnauthorized("session expired or signed out; sign in again")
	}
	if err != nil {
		return nil, err
	}
	s.touchSession(r, sess.ID, s.now())
	p := &Principal{UserID: sess.UserID, Session: sess,
		Scopes: []edgeflow.Scope{edgeflow.ScopeRead, edgeflow.ScopeWrite, edgeflow.ScopeDeploy}}

	orgID := orgOverride
	if orgID == "" {
		orgID = sess.ActiveOrganizationID
	}
	if orgID != "" {
		m, err := s.Store.FindMembership(ctx, orgID, sess.UserID)
		switch {
		case edgeflow.IsNotFound(err) && orgOverride == "":
			orgID = "" // left the active organization: fall back below
		case err != nil:
			return nil, err
		default:
			p.Role = m.Role
		}
	}
	if orgID == "" {
		orgs, err := s.Store.ListOrganizationsForUser(ctx, sess.UserID)
		if err != nil {
			return nil, err
		}
		if len(orgs) > 0 {
			orgID, p.Role = orgs[0].ID, orgs[0].Role
		}
	}
	p.OrganizationID = orgID
	if orgID == "" {
		if projectOverride != "" {
			return nil, edgeflow.NotFound("project")
		}
		return p, nil
	}

	switch {
	case projectOverride != "":
		if _, err := s.Store.FindProjectByID(ctx, orgID, projectOverride); err != nil {
			return nil, err
		}
		p.ProjectID = projectOverride
	case sess.ActiveProjectID != "" && orgID == sess.ActiveOrganizationID:
		if _, err := s.Store.FindProjectByID(ctx, orgID, sess.ActiveProjectID); err == nil {
			p.ProjectID = sess.ActiveProjectID
		} else if !edgeflow.IsNotFound(err) {
			return nil, err
		}
	}
	if p.ProjectID == "" {
		page, err := s.Store.ListProjects(ctx, orgID, edgeflow.ListOptions{Limit: 1})
		if err != nil {
			return nil, err
		}
		if len(page.Items) > 0 {
			p.ProjectID = page.Items[0].ID
		}
	}
	return p, nil
}

// checkCSRF compares the X-CSRF-Token header with the session's token.
func checkCSRF(r *http.Request, sess *edgeflow.Session) bool {
	return auth.EqualTokens(r.Header.Get(CSRFHeader), sess.CSRFToken)
}
