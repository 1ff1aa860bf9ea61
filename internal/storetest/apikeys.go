package storetest

import (
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testAPIKeys(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	exp := time.Now().Add(24 * time.Hour).UTC().Truncate(time.Microsecond)
	k1 := &edgeflow.APIKey{OrganizationID: a.org.ID, ProjectID: a.project.ID, UserID: a.user.ID, Name: "ci",
		Prefix: "ask_abcd", Hash: []byte("hash-1"), Scopes: []edgeflow.Scope{edgeflow.ScopeRead, edgeflow.ScopeWrite}, ExpiresAt: &exp}
	must(t, s.CreateAPIKey(ctx, k1))
	k2 := &edgeflow.APIKey{OrganizationID: a.org.ID, ProjectID: a.project.ID, UserID: a.user.ID, Name: "deploy",
		Prefix: "ask_efgh", Hash: []byte("hash-2"), Scopes: []edgeflow.Scope{edgeflow.ScopeDeploy}}
	must(t, s.CreateAPIKey(ctx, k2))
	wantCode(t, "duplicate hash", s.CreateAPIKey(ctx, &edgeflow.APIKey{OrganizationID: a.org.ID, ProjectID: a.project.ID,
		UserID: a.user.ID, Prefix: "x", Hash: []byte("hash-1"), Scopes: []edgeflow.Scope{edgeflow.ScopeRead}}), edgeflow.EConflict)

	got, err := s.FindAPIKeyByHash(ctx, []byte("hash-1"))
	must(t, err)
	diff(t, "FindAPIKeyByHash", got, k1)
	_, err = s.FindAPIKeyByHash(ctx, []byte("nope"))
	wantCode(t, "unknown key", err, edgeflow.ENotFound)

	page, err := s.ListAPIKeys(ctx, a.org.ID, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "ListAPIKeys (newest first)", page.Items, byTime(true, apiKeyKey, *k1, *k2))
	page, err = s.ListAPIKeys(ctx, b.org.ID, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Errorf("other org lists keys: %v", page.Items)
	}

	used := time.Now().UTC()
	must(t, s.TouchAPIKey(ctx, k1.ID, used))
	got, err = s.FindAPIKeyByHash(ctx, []byte("hash-1"))
	must(t, err)
	if got.LastUsedAt == nil || !got.LastUsedAt.Equal(used.Truncate(time.Microsecond)) {
		t.Errorf("LastUsedAt %v, want %v", got.LastUsedAt, used)
	}

	wantCode(t, "revoke other org", s.RevokeAPIKey(ctx, b.org.ID, k1.ID, used), edgeflow.ENotFound)
	must(t, s.RevokeAPIKey(ctx, a.org.ID, k1.ID, used))
	got, err = s.FindAPIKeyByHash(ctx, []byte("hash-1"))
	must(t, err)
	if got.RevokedAt == nil || !got.RevokedAt.Equal(used.Truncate(time.Microsecond)) {
		t.Errorf("RevokedAt %v, want %v", got.RevokedAt, used)
	}
	must(t, s.RevokeAPIKey(ctx, a.org.ID, k1.ID, used.Add(time.Hour)))
	got, err = s.FindAPIKeyByHash(ctx, []byte("hash-1"))
	must(t, err)
	if !got.RevokedAt.Equal(used.Truncate(time.Microsecond)) {
		t.Errorf("second revocation moved RevokedAt to %v", got.RevokedAt)
	}
}
