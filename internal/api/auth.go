package api

import (
	"context"
	"crypto/rand"
	"net/http"
	"strings"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

type signUpRequest struct {
	Email            string `json:"email"`
	Password         string `json:"password"`
	Name             string `json:"name"`
	OrganizationName string `json:"organizationName"`
	// SetupToken is the token of the setup link (the first user).
	SetupToken string `json:"setupToken"`
	// InvitationToken joins the invitation's organization instead of
	// creating one.
	InvitationToken string `json:"invitationToken"`
}

func checkCredentials(p *problems, email, password string) {
	p.field("/email", edgeflow.EmailProblem(email))
	if msg := auth.PasswordProblem(password, email); msg != "" {
		p.add("/password", msg)
	}
}

// handleSignUp creates a user with their first organization and a default
// project, and signs them in.
// signUpOptions is what a sign-up page needs to know before its form: how
// this server signs people up, and whether it has no user yet (its first
// account is then made with the setup link `edgeflow serve` printed).
type signUpOptions struct {
	// Mode is the server's sign-up mode: "open", "invite" or "closed".
	Mode string `json:"mode"`
	// FirstUser is true while no user exists.
	FirstUser bool `json:"firstUser"`
}

func (s *Server) handleSignUpOptions(w http.ResponseWriter, r *http.Request) error {
	n, err := s.Store.CountUsers(r.Context())
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, signUpOptions{Mode: s.SignUp, FirstUser: n == 0})
	return nil
}

func (s *Server) handleSignUp(w http.ResponseWriter, r *http.Request) error {
	var req signUpRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	req.Email = strings.TrimSpace(req.Email)
	var p problems
	checkCredentials(&p, req.Email, req.Password)
	p.field("/name", edgeflow.NameLengthProblem("name", req.Name))
	p.field("/organizationName", edgeflow.NameLengthProblem("organizationName", req.OrganizationName))
	p.field("/name", edgeflow.NameCharProblem(req.Name))
	p.field("/organizationName", edgeflow.NameCharProblem(req.OrganizationName))
	p.check(req.SetupToken == "" || req.InvitationToken == "", "/invitationToken", "send either setupToken or invitationToken, not both")
	p.check(req.InvitationToken == "" || req.OrganizationName == "", "/organizationName", "a user joining by invitation gets no organization of its own: leave organizationName out")
	if err := p.err(); err != nil {
		return err
	}
	ctx := r.Context()
	var inv *edgeflow.Invitation
	switch {
	case req.SetupToken != "":
		if err := s.Store.UseSetupToken(ctx, auth.HashToken(req.SetupToken), s.now()); err != nil {
			if edgeflow.IsNotFound(err) {
				return errForbidden("the setup token is invalid, expired or used: it works once, and only while no user exists")
			}
			return err
		}
	case req.InvitationToken != "":
		if s.SignUp == SignUpClosed {
			return errForbidden("sign-up is closed: invitations are accepted only by existing users (sign in, then POST /api/invitations/accept)")
		}
		var err error
		if inv, err = s.findInvitation(r, req.InvitationToken, req.Email); err != nil {
			return err
		}
	case s.SignUp == SignUpClosed:
		return errForbidden("sign-up is closed on this server: an administrator creates accounts")
	case s.SignUp == SignUpInvite:
		if n, err := s.Store.CountUsers(ctx); err == nil && n == 0 {
			return errForbidden("sign-up needs an invitation; no user exists yet: the first user signs up with the setup link that `edgeflow serve` printed (or `edgeflow admin setup-link`)")
		}
		return errForbidden("sign-up needs an invitation: ask an admin of an organization to invite your email address, then sign up with the invitation's token")
	}
	hash, err := auth.HashPassword(req.Password, s.BcryptCost)
	if err != nil {
		return err
	}
	u := &edgeflow.User{Email: req.Email, Name: req.Name, PasswordHash: hash}
	if err := s.Store.CreateUser(ctx, u); err != nil {
		if edgeflow.IsConflict(err) {
			return edgeflow.Errorf(edgeflow.EConflict, "an account with this email already exists")
		}
		return err
	}
	if inv != nil {
		if _, err := s.Store.AcceptInvitation(ctx, inv.ID, u.ID, s.now()); err != nil {
			return err
		}
		projectID, err := s.firstProject(r, inv.OrganizationID)
		if err != nil {
			return err
		}
		return s.startSession(w, r, u, inv.OrganizationID, projectID, http.StatusCreated)
	}
	orgName := req.OrganizationName
	if orgName == "" {
		owner := req.Name
		if owner == "" {
			owner, _, _ = strings.Cut(req.Email, "@")
		}
		orgName = owner + "'s organization"
	}
	org, project, err := CreateOrganizationWithProject(ctx, s.Store, u.ID, orgName, "Default")
	if err != nil {
		return err
	}
	return s.startSession(w, r, u, org.ID, project.ID, http.StatusCreated)
}

// CreateOrganizationWithProject creates an organization owned by userID
// (slug derived from the name plus a random suffix) and its first project.
// Used by sign-up and by `edgeflow admin bootstrap`.
func CreateOrganizationWithProject(ctx context.Context, store edgeflow.Store, userID, orgName, projectName string) (*edgeflow.Organization, *edgeflow.Project, error) {
	var org *edgeflow.Organization
	for range 5 {
		org = &edgeflow.Organization{Name: orgName, Slug: edgeflow.Slugify(orgName, 40) + "-" + randomSuffix()}
		err := store.CreateOrganization(ctx, org, userID)
		if err == nil {
			break
		}
		if !edgeflow.IsConflict(err) {
			return nil, nil, err
		}
		org = nil
	}
	if org == nil {
		return nil, nil, edgeflow.Errorf(edgeflow.EConflict, "could not find a free organization slug")
	}
	project := &edgeflow.Project{OrganizationID: org.ID, Name: projectName, Slug: edgeflow.Slugify(projectName, edgeflow.MaxSlugLength)}
	if err := store.CreateProject(ctx, project); err != nil {
		return nil, nil, err
	}
	return org, project, nil
}

func randomSuffix() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
	var b [6]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}

type signInRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// handleSignIn checks email and password and starts a session. A wrong
// password and an unknown email get the same 401 after the same bcrypt work;
// after SignInFreeFailures failures for one email, known or not, attempts
// get 429 with Retry-After (signin_backoff.go).
func (s *Server) handleSignIn(w http.ResponseWriter, r *http.Request) error {
	var req signInRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	p.check(req.Email != "", "/email", "email is required")
	p.check(req.Password != "", "/password", "password is required")
	if err := p.err(); err != nil {
		return err
	}
	ctx := r.Context()
	key := signInKey(req.Email)
	if err := s.claimSignIn(ctx, w, key); err != nil {
		return err
	}
	u, err := s.Store.FindUserByEmail(ctx, strings.TrimSpace(req.Email))
	switch {
	case err == nil:
		err = auth.CheckPassword(u.PasswordHash, req.Password)
	case edgeflow.IsNotFound(err):
		err = s.dummy.Check(req.Password) // the same bcrypt work as a wrong password
	default:
		return err
	}
	if err != nil {
		return errUnauthorized("wrong email or password") // counted by claimSignIn
	}
	if err := s.Store.ClearSignInFailures(ctx, key); err != nil {
		return err
	}
	orgs, err := s.Store.ListOrganizationsForUser(ctx, u.ID)
	if err != nil {
		return err
	}
	var orgID, projectID string
	if len(orgs) > 0 {
		orgID = orgs[0].ID
		page, err := s.Store.ListProjects(ctx, orgID, edgeflow.ListOptions{Limit: 1})
		if err != nil {
			return err
		}
		if len(page.Items) > 0 {
			projectID = page.Items[0].ID
		}
	}
	return s.startSession(w, r, u, orgID, projectID, http.StatusOK)
}

func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u *edgeflow.User, orgID, projectID string, status int) error {
	token, hash := auth.NewSessionToken()
	now := s.now()
	sess := &edgeflow.Session{
		UserID: u.ID, TokenHash: hash, CSRFToken: auth.NewCSRFToken(),
		ActiveOrganizationID: orgID, ActiveProjectID: projectID, ExpiresAt: now.Add(s.SessionTTL),
		UserAgent: userAgentOf(r), IP: s.clientIP(r),
	}
	if err := s.Store.CreateSession(r.Context(), sess); err != nil {
		return err
	}
	setAuditActor(r, u.ID, orgID, projectID)
	setAuditTarget(r, sess.ID)
	http.SetCookie(w, &http.Cookie{
		Name: SessionCookie, Value: token, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: s.secureCookie(r), Expires: sess.ExpiresAt, MaxAge: int(s.SessionTTL.Seconds()),
	})
	body, err := s.sessionBody(r.Context(), u, sess, orgID, projectID)
	if err != nil {
		return err
	}
	writeJSON(w, status, body)
	return nil
}

func (s *Server) sessionBody(ctx context.Context, u *edgeflow.User, sess *edgeflow.Session, orgID, projectID string) (*edgeflow.SignedIn, error) {
	if u == nil {
		var err error
		if u, err = s.Store.FindUserByID(ctx, sess.UserID); err != nil {
			return nil, err
		}
	}
	orgs, err := s.Store.ListOrganizationsForUser(ctx, u.ID)
	if err != nil {
		return nil, err
	}
	if orgs == nil {
		orgs = []edgeflow.OrganizationMembership{}
	}
	return &edgeflow.SignedIn{
		User:          edgeflow.SignedInUser{ID: u.ID, Email: u.Email, Name: u.Name, CreatedAt: u.CreatedAt},
		Organizations: orgs, ActiveOrganizationID: orgID, ActiveProjectID: projectID,
		CSRFToken: sess.CSRFToken, ExpiresAt: sess.ExpiresAt,
	}, nil
}

// handleSignOut revokes the session and clears the cookie.
func (s *Server) handleSignOut(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	if err := s.Store.RevokeSession(r.Context(), p.Session.ID, s.now()); err != nil {
		return err
	}
	s.clearSessionCookie(w, r)
	writeNoContent(w)
	return nil
}

// clearSessionCookie tells the browser to drop the session cookie.
func (s *Server) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: s.secureCookie(r), MaxAge: -1})
}

// handleSession returns the signed-in user, their organizations, the
// selected organization and project, and the CSRF token.
func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	body, err := s.sessionBody(r.Context(), nil, p.Session, p.OrganizationID, p.ProjectID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}

type sessionActiveRequest struct {
	OrganizationID string `json:"organizationId"`
	ProjectID      string `json:"projectId"`
}

// handleSessionActive stores the session's active organization and project
// (the organization's first project when projectId is not given).
func (s *Server) handleSessionActive(w http.ResponseWriter, r *http.Request) error {
	var req sessionActiveRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	p.check(req.OrganizationID != "", "/organizationId", "organizationId is required")
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	ctx := r.Context()
	if _, err := s.Store.FindMembership(ctx, req.OrganizationID, pr.UserID); err != nil {
		if edgeflow.IsNotFound(err) {
			return edgeflow.NotFound("organization")
		}
		return err
	}
	projectID := req.ProjectID
	if projectID != "" {
		if _, err := s.Store.FindProjectByID(ctx, req.OrganizationID, projectID); err != nil {
			return err
		}
	} else {
		page, err := s.Store.ListProjects(ctx, req.OrganizationID, edgeflow.ListOptions{Limit: 1})
		if err != nil {
			return err
		}
		if len(page.Items) > 0 {
			projectID = page.Items[0].ID
		}
	}
	setAuditTarget(r, pr.Session.ID)
	if err := s.Store.SetSessionActive(ctx, pr.Session.ID, req.OrganizationID, projectID); err != nil {
		return err
	}
	body, err := s.sessionBody(ctx, nil, pr.Session, req.OrganizationID, projectID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}

// handleWhoami names the caller — the user, the key when a key calls — and
// the organization and project the request acted in.
func (s *Server) handleWhoami(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	ctx := r.Context()
	u, err := s.Store.FindUserByID(ctx, p.UserID)
	if err != nil {
		return err
	}
	body := edgeflow.Whoami{User: edgeflow.WhoamiUser{ID: u.ID, Email: u.Email, Name: u.Name}}
	if k := p.APIKey; k != nil {
		scope := "project"
		if k.ProjectID == "" {
			scope = "organization"
		}
		body.APIKey = &edgeflow.WhoamiKey{ID: k.ID, Name: k.Name, Prefix: k.Prefix, Scope: scope, Scopes: k.Scopes, ExpiresAt: k.ExpiresAt}
	}
	if p.OrganizationID != "" {
		o, err := s.Store.FindOrganizationByID(ctx, p.OrganizationID)
		if err != nil {
			return err
		}
		body.Organization = &edgeflow.WhoamiOrganization{ID: o.ID, Name: o.Name, Slug: o.Slug, Role: p.Role}
	}
	if p.ProjectID != "" {
		pr, err := s.Store.FindProjectByID(ctx, p.OrganizationID, p.ProjectID)
		if err != nil {
			return err
		}
		body.Project = &edgeflow.WhoamiProject{ID: pr.ID, Name: pr.Name, Slug: pr.Slug}
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}
