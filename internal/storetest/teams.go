package storetest

import (
	"bytes"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testSetupTokens(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	now := time.Now()
	n, err := s.CountUsers(ctx)
	must(t, err)
	if n != 0 {
		t.Fatalf("CountUsers of an empty store = %d", n)
	}
	a, b, old := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32), bytes.Repeat([]byte{3}, 32)
	must(t, s.CreateSetupToken(ctx, a, now.Add(time.Hour)))
	must(t, s.CreateSetupToken(ctx, b, now.Add(time.Hour)))
	must(t, s.CreateSetupToken(ctx, old, now.Add(-time.Second)))
	wantCode(t, "expired setup token", s.UseSetupToken(ctx, old, now), edgeflow.ENotFound)
	wantCode(t, "unknown setup token", s.UseSetupToken(ctx, bytes.Repeat([]byte{9}, 32), now), edgeflow.ENotFound)
	must(t, s.UseSetupToken(ctx, a, now))
	wantCode(t, "used setup token", s.UseSetupToken(ctx, a, now), edgeflow.ENotFound)
	wantCode(t, "other token after use", s.UseSetupToken(ctx, b, now), edgeflow.ENotFound)
	must(t, s.CreateSetupToken(ctx, a, now.Add(time.Hour)))
	newTenant(t, s)
	wantCode(t, "setup token once a user exists", s.UseSetupToken(ctx, a, now), edgeflow.ENotFound)
	wantCode(t, "create setup token once a user exists", s.CreateSetupToken(ctx, b, now.Add(time.Hour)), edgeflow.EConflict)
	if n, _ := s.CountUsers(ctx); n != 1 {
		t.Fatalf("CountUsers = %d, want 1", n)
	}
}

func testMembers(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	c := newTenant(t, s)
	must(t, s.AddMember(ctx, &edgeflow.Membership{OrganizationID: a.org.ID, UserID: b.user.ID, Role: edgeflow.RoleAdmin}))
	must(t, s.AddMember(ctx, &edgeflow.Membership{OrganizationID: a.org.ID, UserID: c.user.ID, Role: edgeflow.RoleViewer}))
	page, err := s.ListMembers(ctx, a.org.ID, edgeflow.ListOptions{Limit: 2})
	must(t, err)
	if len(page.Items) != 2 || page.Items[0].UserID != a.user.ID || page.Items[0].Role != edgeflow.RoleOwner ||
		page.Items[0].Email != a.user.Email || page.NextCursor == "" {
		t.Fatalf("ListMembers first page: %+v", page)
	}
	next, err := s.ListMembers(ctx, a.org.ID, edgeflow.ListOptions{Limit: 2, Cursor: page.NextCursor})
	must(t, err)
	if len(next.Items) != 1 || next.Items[0].UserID != c.user.ID || next.NextCursor != "" {
		t.Fatalf("ListMembers second page: %+v", next)
	}

	wantCode(t, "demote the last owner", s.SetMemberRole(ctx, a.org.ID, a.user.ID, edgeflow.RoleAdmin), edgeflow.EConflict)
	wantCode(t, "remove the last owner", s.RemoveMember(ctx, a.org.ID, a.user.ID, time.Now()), edgeflow.EConflict)
	wantCode(t, "role of a non-member", s.SetMemberRole(ctx, b.org.ID, c.user.ID, edgeflow.RoleAdmin), edgeflow.ENotFound)
	must(t, s.SetMemberRole(ctx, a.org.ID, c.user.ID, edgeflow.RoleMember))
	m, err := s.FindMembership(ctx, a.org.ID, c.user.ID)
	must(t, err)
	if m.Role != edgeflow.RoleMember {
		t.Fatalf("role after SetMemberRole: %s", m.Role)
	}

	wantCode(t, "transfer by a non-owner", s.TransferOwnership(ctx, a.org.ID, b.user.ID, c.user.ID), edgeflow.EForbidden)
	wantCode(t, "transfer to a non-member", s.TransferOwnership(ctx, b.org.ID, b.user.ID, c.user.ID), edgeflow.ENotFound)
	must(t, s.TransferOwnership(ctx, a.org.ID, a.user.ID, b.user.ID))
	for user, want := range map[string]edgeflow.Role{a.user.ID: edgeflow.RoleAdmin, b.user.ID: edgeflow.RoleOwner} {
		m, err := s.FindMembership(ctx, a.org.ID, user)
		must(t, err)
		if m.Role != want {
			t.Errorf("after transfer %s is %s, want %s", user, m.Role, want)
		}
	}

	// Removing a member revokes their keys of the organization, not others'.
	key := &edgeflow.APIKey{OrganizationID: a.org.ID, ProjectID: a.project.ID, UserID: c.user.ID, Name: "k", Prefix: "ask_abcd",
		Hash: []byte("hash-" + suffix()), Scopes: []edgeflow.Scope{edgeflow.ScopeRead}}
	must(t, s.CreateAPIKey(ctx, key))
	own := &edgeflow.APIKey{OrganizationID: c.org.ID, ProjectID: c.project.ID, UserID: c.user.ID, Name: "k", Prefix: "ask_abcd",
		Hash: []byte("hash-" + suffix()), Scopes: []edgeflow.Scope{edgeflow.ScopeRead}}
	must(t, s.CreateAPIKey(ctx, own))
	must(t, s.RemoveMember(ctx, a.org.ID, c.user.ID, time.Now()))
	_, err = s.FindMembership(ctx, a.org.ID, c.user.ID)
	wantCode(t, "removed member", err, edgeflow.ENotFound)
	got, err := s.FindAPIKeyByHash(ctx, key.Hash)
	must(t, err)
	if got.RevokedAt == nil {
		t.Error("the removed member's key is not revoked")
	}
	got, err = s.FindAPIKeyByHash(ctx, own.Hash)
	must(t, err)
	if got.RevokedAt != nil {
		t.Error("the member's key of its own organization was revoked")
	}
	wantCode(t, "remove a non-member", s.RemoveMember(ctx, a.org.ID, c.user.ID, time.Now()), edgeflow.ENotFound)
	keys, err := s.ListAPIKeysOfUser(ctx, c.org.ID, c.user.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(keys.Items) != 1 || keys.Items[0].ID != own.ID {
		t.Fatalf("ListAPIKeysOfUser: %+v", keys.Items)
	}
	k, err := s.FindAPIKeyByID(ctx, c.org.ID, own.ID)
	must(t, err)
	if k.Hash == nil || k.ID != own.ID {
		t.Fatalf("FindAPIKeyByID: %+v", k)
	}
	_, err = s.FindAPIKeyByID(ctx, a.org.ID, own.ID)
	wantCode(t, "FindAPIKeyByID of another organization", err, edgeflow.ENotFound)

	// An organization key has no project.
	orgKey := &edgeflow.APIKey{OrganizationID: a.org.ID, UserID: b.user.ID, Name: "org", Prefix: "ask_abcd",
		Hash: []byte("hash-" + suffix()), Scopes: []edgeflow.Scope{edgeflow.ScopeRead}}
	must(t, s.CreateAPIKey(ctx, orgKey))
	got, err = s.FindAPIKeyByHash(ctx, orgKey.Hash)
	must(t, err)
	if got.ProjectID != "" || got.OrganizationID != a.org.ID {
		t.Fatalf("organization key read back: %+v", got)
	}
}

func testOrganizationLifeCycle(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	o := &edgeflow.Organization{ID: a.org.ID, Name: "Renamed"}
	must(t, s.UpdateOrganization(ctx, o))
	if o.Name != "Renamed" || o.Slug != a.org.Slug || !o.CreatedAt.Equal(a.org.CreatedAt) {
		t.Fatalf("UpdateOrganization: %+v", o)
	}
	wantCode(t, "rename unknown", s.UpdateOrganization(ctx, &edgeflow.Organization{ID: "org_missing", Name: "x"}), edgeflow.ENotFound)

	wf := newWorkflow(t, s, a.project.ID, "wf")
	v := newVersion(t, s, wf.ID)
	d := &edgeflow.Deployment{WorkflowID: wf.ID, VersionID: v.ID, ConnectionID: "con_x", URL: "http://x", ScriptName: "s"}
	must(t, s.RecordDeployment(ctx, d))
	err := s.DeleteOrganization(ctx, a.org.ID)
	wantCode(t, "delete with an active deployment", err, edgeflow.EConflict)
	if e, ok := err.(*edgeflow.Error); !ok || e.Details == nil {
		t.Fatalf("the conflict lists no deployments: %v", err)
	}
	_, err = s.RemoveDeployment(ctx, wf.ID, "con_x", time.Now())
	must(t, err)
	must(t, s.DeleteOrganization(ctx, a.org.ID))
	_, err = s.FindOrganizationByID(ctx, a.org.ID)
	wantCode(t, "deleted organization", err, edgeflow.ENotFound)
	_, err = s.FindWorkflowByID(ctx, a.project.ID, wf.ID)
	wantCode(t, "workflow of a deleted organization", err, edgeflow.ENotFound)
	wantCode(t, "delete unknown", s.DeleteOrganization(ctx, a.org.ID), edgeflow.ENotFound)
	_, err = s.FindOrganizationByID(ctx, b.org.ID)
	must(t, err)
}

func testInvitations(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	now := time.Now()
	inv := &edgeflow.Invitation{OrganizationID: a.org.ID, Email: "Someone@Example.com", Role: edgeflow.RoleMember,
		TokenHash: []byte("tok-" + suffix()), InvitedBy: a.user.ID, ExpiresAt: now.Add(time.Hour)}
	must(t, s.CreateInvitation(ctx, inv))
	got, err := s.FindInvitationByTokenHash(ctx, inv.TokenHash)
	must(t, err)
	diff(t, "FindInvitationByTokenHash", got, inv)
	_, err = s.FindInvitationByTokenHash(ctx, []byte("nope"))
	wantCode(t, "unknown invitation", err, edgeflow.ENotFound)
	second := &edgeflow.Invitation{OrganizationID: a.org.ID, Email: "x@example.com", Role: edgeflow.RoleViewer,
		TokenHash: []byte("tok-" + suffix()), InvitedBy: a.user.ID, ExpiresAt: now.Add(time.Hour)}
	must(t, s.CreateInvitation(ctx, second))
	page, err := s.ListInvitations(ctx, a.org.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 2 || page.Items[0].ID != second.ID {
		t.Fatalf("ListInvitations newest first: %+v", page.Items)
	}
	page, err = s.ListInvitations(ctx, b.org.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Fatalf("another organization's invitations: %+v", page.Items)
	}

	m, err := s.AcceptInvitation(ctx, inv.ID, b.user.ID, now)
	must(t, err)
	if m.Role != edgeflow.RoleMember || m.OrganizationID != a.org.ID {
		t.Fatalf("AcceptInvitation: %+v", m)
	}
	_, err = s.AcceptInvitation(ctx, inv.ID, b.user.ID, now)
	wantCode(t, "accept twice", err, edgeflow.EConflict)
	got, err = s.FindInvitationByTokenHash(ctx, inv.TokenHash)
	must(t, err)
	if got.Status(now) != "accepted" || got.AcceptedBy != b.user.ID {
		t.Fatalf("accepted invitation: %+v", got)
	}
	wantCode(t, "revoke accepted", s.RevokeInvitation(ctx, a.org.ID, inv.ID, now), edgeflow.EConflict)
	wantCode(t, "revoke of another organization", s.RevokeInvitation(ctx, b.org.ID, second.ID, now), edgeflow.ENotFound)
	must(t, s.RevokeInvitation(ctx, a.org.ID, second.ID, now))
	_, err = s.AcceptInvitation(ctx, second.ID, b.user.ID, now)
	wantCode(t, "accept revoked", err, edgeflow.EConflict)

	expired := &edgeflow.Invitation{OrganizationID: b.org.ID, Email: "y@example.com", Role: edgeflow.RoleViewer,
		TokenHash: []byte("tok-" + suffix()), InvitedBy: b.user.ID, ExpiresAt: now.Add(time.Hour)}
	must(t, s.CreateInvitation(ctx, expired))
	_, err = s.AcceptInvitation(ctx, expired.ID, a.user.ID, now.Add(2*time.Hour))
	wantCode(t, "accept expired", err, edgeflow.EConflict)
	member := &edgeflow.Invitation{OrganizationID: b.org.ID, Email: "z@example.com", Role: edgeflow.RoleViewer,
		TokenHash: []byte("tok-" + suffix()), InvitedBy: b.user.ID, ExpiresAt: now.Add(time.Hour)}
	must(t, s.CreateInvitation(ctx, member))
	_, err = s.AcceptInvitation(ctx, member.ID, b.user.ID, now)
	wantCode(t, "accept by a member", err, edgeflow.EConflict)
}
