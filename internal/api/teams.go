package api

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Organizations, members and roles, invitations (docs/security.md,
// "Teams"; docs/decisions.md 180-186).

// InvitationTTL is how long an invitation can be accepted.
const InvitationTTL = 7 * 24 * time.Hour

// Sign-up modes (Config.SignUp).
const (
	SignUpInvite = "invite"
	SignUpOpen   = "open"
	SignUpClosed = "closed"
)

// ValidSignUpMode reports whether m is a sign-up mode.
func ValidSignUpMode(m string) bool {
	return m == SignUpInvite || m == SignUpOpen || m == SignUpClosed
}

// handleOrganizationList lists the signed-in user's organizations with
// their role.
func (s *Server) handleOrganizationList(w http.ResponseWriter, r *http.Request) error {
	orgs, err := s.Store.ListOrganizationsForUser(r.Context(), PrincipalFrom(r).UserID)
	if err != nil {
		return err
	}
	if orgs == nil {
		orgs = []edgeflow.OrganizationMembership{}
	}
	writeJSON(w, http.StatusOK, edgeflow.OrganizationList{Data: orgs})
	return nil
}

type organizationRequest struct {
	Name string `json:"name"`
}

type organizationCreated struct {
	edgeflow.OrganizationMembership
	Project edgeflow.Project `json:"project"`
}

// handleOrganizationCreate creates an organization the caller owns, with a
// first project.
func (s *Server) handleOrganizationCreate(w http.ResponseWriter, r *http.Request) error {
	var req organizationRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	req.Name = strings.TrimSpace(req.Name)
	var p problems
	p.field("/name", edgeflow.NameProblem(req.Name))
	if err := p.err(); err != nil {
		return err
	}
	org, project, err := CreateOrganizationWithProject(r.Context(), s.Store, PrincipalFrom(r).UserID, req.Name, "Default")
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, organizationCreated{
		OrganizationMembership: edgeflow.OrganizationMembership{Organization: *org, Role: edgeflow.RoleOwner}, Project: *project})
	return nil
}

// organizationUpdateRequest renames an organization and/or sets its run
// retention (docs/runs.md); at least one of the two.
type organizationUpdateRequest struct {
	Name *string `json:"name"`
	// RunRetentionDays is how long finished runs are kept, 1 to 3650 days.
	RunRetentionDays *int `json:"runRetentionDays"`
}

type organizationUpdated struct {
	edgeflow.OrganizationMembership
	RunRetentionDays int `json:"runRetentionDays"`
}

// handleOrganizationUpdate renames the organization or changes its
// settings; admins and owners (the route's role).
func (s *Server) handleOrganizationUpdate(w http.ResponseWriter, r *http.Request) error {
	var req organizationUpdateRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	p.check(req.Name != nil || req.RunRetentionDays != nil, "", "give name, runRetentionDays or both")
	if req.Name != nil {
		*req.Name = strings.TrimSpace(*req.Name)
		p.field("/name", edgeflow.NameProblem(*req.Name))
	}
	if d := req.RunRetentionDays; d != nil {
		p.check(*d >= 1 && *d <= 3650, "/runRetentionDays", "runRetentionDays must be between 1 and 3650")
	}
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	ctx := r.Context()
	o, err := s.Store.FindOrganizationByID(ctx, pr.OrganizationID)
	if err != nil {
		return err
	}
	if req.Name != nil {
		o.Name = *req.Name
		if err := s.Store.UpdateOrganization(ctx, o); err != nil {
			return err
		}
	}
	if req.RunRetentionDays != nil {
		if err := s.Store.SetRunRetention(ctx, o.ID, *req.RunRetentionDays); err != nil {
			return err
		}
	}
	days, err := s.Store.FindRunRetention(ctx, o.ID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, organizationUpdated{OrganizationMembership: edgeflow.OrganizationMembership{Organization: *o, Role: pr.Role}, RunRetentionDays: days})
	return nil
}

// handleOrganizationDelete deletes the organization with everything in it;
// refused while deployments are active.
func (s *Server) handleOrganizationDelete(w http.ResponseWriter, r *http.Request) error {
	if err := s.Store.DeleteOrganization(r.Context(), PrincipalFrom(r).OrganizationID); err != nil {
		return err
	}
	writeNoContent(w)
	return nil
}

// handleMemberList lists the organization's members with their role.
func (s *Server) handleMemberList(w http.ResponseWriter, r *http.Request) error {
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListMembers(r.Context(), PrincipalFrom(r).OrganizationID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(m edgeflow.Member) edgeflow.Member { return m }))
	return nil
}

type memberRoleRequest struct {
	Role string `json:"role"`
}

// assignableRole checks a role given to a member or an invitation: the
// owner role only moves by transfer-ownership.
func assignableRole(p *problems, path, role string) edgeflow.Role {
	switch r := edgeflow.Role(role); r {
	case edgeflow.RoleAdmin, edgeflow.RoleMember, edgeflow.RoleViewer:
		return r
	case edgeflow.RoleOwner:
		p.add(path, "the owner role is given only by POST /api/organizations/{id}/transfer-ownership")
	case "":
		p.add(path, "role is required")
	default:
		p.add(path, `role must be "admin", "member" or "viewer"`)
	}
	return ""
}

// handleMemberUpdate changes a member's role.
func (s *Server) handleMemberUpdate(w http.ResponseWriter, r *http.Request) error {
	var req memberRoleRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	role := assignableRole(&p, "/role", req.Role)
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	ctx := r.Context()
	userID := r.PathValue("userId")
	target, err := s.Store.FindMembership(ctx, pr.OrganizationID, userID)
	if err != nil {
		return memberNotFound(err)
	}
	if target.Role == edgeflow.RoleOwner && pr.Role != edgeflow.RoleOwner {
		return errForbidden("only the owner changes the owner's role (by transferring ownership)")
	}
	if err := s.Store.SetMemberRole(ctx, pr.OrganizationID, userID, role); err != nil {
		return memberNotFound(err)
	}
	return s.writeMember(w, r, userID, http.StatusOK)
}

func memberNotFound(err error) error {
	if edgeflow.IsNotFound(err) {
		return edgeflow.NotFound("member")
	}
	return err
}

// writeMember answers the member userID of the caller's organization.
func (s *Server) writeMember(w http.ResponseWriter, r *http.Request, userID string, status int) error {
	ctx := r.Context()
	pr := PrincipalFrom(r)
	m, err := s.Store.FindMembership(ctx, pr.OrganizationID, userID)
	if err != nil {
		return memberNotFound(err)
	}
	u, err := s.Store.FindUserByID(ctx, userID)
	if err != nil {
		return err
	}
	writeJSON(w, status, edgeflow.Member{UserID: u.ID, Email: u.Email, Name: u.Name, Role: m.Role, CreatedAt: m.CreatedAt})
	return nil
}

// handleMemberRemove removes a member; a member removing itself leaves.
func (s *Server) handleMemberRemove(w http.ResponseWriter, r *http.Request) error {
	pr := PrincipalFrom(r)
	ctx := r.Context()
	userID := r.PathValue("userId")
	target, err := s.Store.FindMembership(ctx, pr.OrganizationID, userID)
	if err != nil {
		return memberNotFound(err)
	}
	if userID != pr.UserID {
		if !pr.RoleAtLeast(edgeflow.RoleAdmin) {
			return errForbidden("removing another member needs the admin role (you are %s); you may remove yourself to leave", pr.Role)
		}
		if target.Role == edgeflow.RoleOwner && pr.Role != edgeflow.RoleOwner {
			return errForbidden("an admin cannot remove the owner")
		}
	}
	if err := s.Store.RemoveMember(ctx, pr.OrganizationID, userID, s.now()); err != nil {
		return memberNotFound(err)
	}
	writeNoContent(w)
	return nil
}

type transferRequest struct {
	UserID string `json:"userId"`
}

// handleTransferOwnership makes another member the owner; the former owner
// becomes an admin.
func (s *Server) handleTransferOwnership(w http.ResponseWriter, r *http.Request) error {
	var req transferRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	p.check(req.UserID != "", "/userId", "userId is required")
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	if req.UserID == pr.UserID {
		return edgeflow.Invalid("/userId", "you are the owner already; name another member")
	}
	if err := s.Store.TransferOwnership(r.Context(), pr.OrganizationID, pr.UserID, req.UserID); err != nil {
		if edgeflow.IsNotFound(err) {
			return edgeflow.Invalid("/userId", "no such member of this organization")
		}
		return err
	}
	return s.writeMember(w, r, req.UserID, http.StatusOK)
}

// invitationBody is an invitation as the API shows it.
type invitationBody struct {
	edgeflow.Invitation
	Status string `json:"status"`
}

type invitationCreated struct {
	invitationBody
	Token     string `json:"token"`
	AcceptURL string `json:"acceptUrl"`
}

type invitationRequest struct {
	Email string `json:"email"`
	Role  string `json:"role"`
}

// handleInvitationCreate invites an email address; the token is shown once.
func (s *Server) handleInvitationCreate(w http.ResponseWriter, r *http.Request) error {
	var req invitationRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	req.Email = strings.TrimSpace(req.Email)
	var p problems
	p.field("/email", edgeflow.EmailProblem(req.Email))
	role := assignableRole(&p, "/role", req.Role)
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	ctx := r.Context()
	if role == edgeflow.RoleAdmin && !pr.RoleAtLeast(edgeflow.RoleAdmin) {
		return errForbidden("inviting an admin needs the admin role")
	}
	if u, err := s.Store.FindUserByEmail(ctx, req.Email); err == nil {
		if _, err := s.Store.FindMembership(ctx, pr.OrganizationID, u.ID); err == nil {
			return edgeflow.Errorf(edgeflow.EConflict, "%s is a member of this organization already", req.Email)
		}
	}
	token, _ := auth.NewSessionToken()
	token = InvitationTokenPrefix + token
	hash := auth.HashToken(token)
	inv := &edgeflow.Invitation{OrganizationID: pr.OrganizationID, Email: req.Email, Role: role, TokenHash: hash,
		InvitedBy: pr.UserID, ExpiresAt: s.now().Add(InvitationTTL)}
	if err := s.Store.CreateInvitation(ctx, inv); err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, invitationCreated{invitationBody: invitationBody{*inv, inv.Status(s.now())},
		Token: token, AcceptURL: s.baseURL(r) + "/invite?token=" + url.QueryEscape(token)})
	return nil
}

// InvitationTokenPrefix starts every invitation token.
const InvitationTokenPrefix = "inv_"

// handleInvitationList lists the organization's invitations, newest first.
func (s *Server) handleInvitationList(w http.ResponseWriter, r *http.Request) error {
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := s.Store.ListInvitations(r.Context(), PrincipalFrom(r).OrganizationID, opts)
	if err != nil {
		return listError(err)
	}
	now := s.now()
	writeJSON(w, http.StatusOK, newPage(r, page, func(i edgeflow.Invitation) invitationBody { return invitationBody{i, i.Status(now)} }))
	return nil
}

// handleInvitationRevoke revokes a pending invitation.
func (s *Server) handleInvitationRevoke(w http.ResponseWriter, r *http.Request) error {
	if err := s.Store.RevokeInvitation(r.Context(), PrincipalFrom(r).OrganizationID, r.PathValue("invitationId"), s.now()); err != nil {
		return err
	}
	writeNoContent(w)
	return nil
}

type invitationAcceptRequest struct {
	Token string `json:"token"`
}

// findInvitation returns the pending invitation of token for email: 404
// for an unknown token, 409 for one that is used, revoked or expired, 403
// for another email.
func (s *Server) findInvitation(r *http.Request, token, email string) (*edgeflow.Invitation, error) {
	inv, err := s.Store.FindInvitationByTokenHash(r.Context(), auth.HashToken(token))
	if edgeflow.IsNotFound(err) {
		return nil, edgeflow.NotFound("invitation")
	}
	if err != nil {
		return nil, err
	}
	if st := inv.Status(s.now()); st != "pending" {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "the invitation is %s; ask an admin of the organization for a new one", st)
	}
	if !strings.EqualFold(inv.Email, email) {
		return nil, errForbidden("the invitation was sent to another email address")
	}
	return inv, nil
}

// handleInvitationAccept makes the signed-in user a member of the
// invitation's organization and makes that organization active.
func (s *Server) handleInvitationAccept(w http.ResponseWriter, r *http.Request) error {
	var req invitationAcceptRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	var p problems
	p.check(req.Token != "", "/token", "token is required")
	if err := p.err(); err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	ctx := r.Context()
	u, err := s.Store.FindUserByID(ctx, pr.UserID)
	if err != nil {
		return err
	}
	inv, err := s.findInvitation(r, req.Token, u.Email)
	if err != nil {
		return err
	}
	if _, err := s.Store.AcceptInvitation(ctx, inv.ID, u.ID, s.now()); err != nil {
		return err
	}
	projectID, err := s.firstProject(r, inv.OrganizationID)
	if err != nil {
		return err
	}
	if err := s.Store.SetSessionActive(ctx, pr.Session.ID, inv.OrganizationID, projectID); err != nil {
		return err
	}
	body, err := s.sessionBody(ctx, u, pr.Session, inv.OrganizationID, projectID)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}

// firstProject returns the organization's first project ("" when none).
func (s *Server) firstProject(r *http.Request, orgID string) (string, error) {
	page, err := s.Store.ListProjects(r.Context(), orgID, edgeflow.ListOptions{Limit: 1})
	if err != nil || len(page.Items) == 0 {
		return "", err
	}
	return page.Items[0].ID, nil
}

// baseURL is the public URL links are built on: Config.PublicURL, or the
// request's scheme and host.
func (s *Server) baseURL(r *http.Request) string {
	if s.PublicURL != "" {
		return strings.TrimRight(s.PublicURL, "/")
	}
	scheme := "http"
	if r.TLS != nil || s.SecureCookies {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// SetupTokenTTL is how long a setup link works (while no user exists).
const SetupTokenTTL = 7 * 24 * time.Hour

// SetupTokenPrefix starts every setup token.
const SetupTokenPrefix = "setup_"

// NewSetupLink stores a new one-time setup token and returns the link the
// first user signs up with: base + "/setup?token=...". It refuses
// (conflict) once a user exists.
func NewSetupLink(ctx context.Context, store edgeflow.Store, base string, now time.Time) (string, error) {
	token, _ := auth.NewSessionToken()
	token = SetupTokenPrefix + token
	if err := store.CreateSetupToken(ctx, auth.HashToken(token), now.Add(SetupTokenTTL)); err != nil {
		return "", err
	}
	return strings.TrimRight(base, "/") + "/setup?token=" + url.QueryEscape(token), nil
}
