package storetest

import (
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testSessionManagement covers what a user does with their own sessions:
// list them, see where they came from and when they were last used, revoke
// one, and change the password (which revokes all the others).
func testSessionManagement(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	other := newTenant(t, s)
	now := time.Now().UTC()
	mk := func(userID, hash string, expires time.Duration) *edgeflow.Session {
		ses := &edgeflow.Session{UserID: userID, TokenHash: []byte(hash + suffix()), CSRFToken: "c",
			ExpiresAt: now.Add(expires), UserAgent: "agent " + hash, IP: "192.0.2.7"}
		must(t, s.CreateSession(ctx, ses))
		return ses
	}
	a := mk(tn.user.ID, "a", time.Hour)
	b := mk(tn.user.ID, "b", time.Hour)
	c := mk(tn.user.ID, "c", time.Hour)
	expired := mk(tn.user.ID, "x", -time.Second)
	theirs := mk(other.user.ID, "o", time.Hour)

	got, err := s.FindSessionByTokenHash(ctx, a.TokenHash, now)
	must(t, err)
	diff(t, "session with user agent and address", got, a)

	// Newest first, expired and other users' sessions left out, paginated.
	list := walk(t, func(o edgeflow.ListOptions) (edgeflow.Page[edgeflow.Session], error) {
		return s.ListSessionsForUser(ctx, tn.user.ID, now, o)
	}, 2, func(x edgeflow.Session) string { return x.ID })
	want := ids(byTime(true, func(x *edgeflow.Session) (time.Time, string) { return x.CreatedAt, x.ID }, a, b, c),
		func(x *edgeflow.Session) string { return x.ID })
	diff(t, "ListSessionsForUser", list, want)

	seen := now.Add(time.Minute)
	must(t, s.TouchSession(ctx, b.ID, seen))
	page, err := s.ListSessionsForUser(ctx, tn.user.ID, now, edgeflow.ListOptions{Limit: 10})
	must(t, err)
	for _, x := range page.Items {
		if x.ID == b.ID && (x.LastSeenAt == nil || !x.LastSeenAt.Equal(seen.Truncate(time.Microsecond))) {
			t.Errorf("TouchSession: lastSeenAt = %v, want %v", x.LastSeenAt, seen)
		}
		if x.ID == a.ID && x.LastSeenAt != nil {
			t.Errorf("untouched session has lastSeenAt %v", x.LastSeenAt)
		}
	}
	wantCode(t, "TouchSession unknown", s.TouchSession(ctx, "ses_missing", now), edgeflow.ENotFound)

	// Revoking another user's session is "not found" and changes nothing.
	wantCode(t, "RevokeUserSession of another user's", s.RevokeUserSession(ctx, tn.user.ID, theirs.ID, now), edgeflow.ENotFound)
	_, err = s.FindSessionByTokenHash(ctx, theirs.TokenHash, now)
	must(t, err)
	wantCode(t, "RevokeUserSession of an expired one", s.RevokeUserSession(ctx, tn.user.ID, expired.ID, now), edgeflow.ENotFound)
	must(t, s.RevokeUserSession(ctx, tn.user.ID, c.ID, now))
	_, err = s.FindSessionByTokenHash(ctx, c.TokenHash, now)
	wantCode(t, "revoked session", err, edgeflow.ENotFound)
	wantCode(t, "RevokeUserSession twice", s.RevokeUserSession(ctx, tn.user.ID, c.ID, now), edgeflow.ENotFound)

	// A new password revokes every other session of the user, not the kept
	// one and not another user's.
	must(t, s.SetPassword(ctx, tn.user.ID, []byte("new-hash"), a.ID, now))
	u, err := s.FindUserByID(ctx, tn.user.ID)
	must(t, err)
	if string(u.PasswordHash) != "new-hash" {
		t.Errorf("SetPassword: hash %q", u.PasswordHash)
	}
	_, err = s.FindSessionByTokenHash(ctx, a.TokenHash, now)
	must(t, err)
	_, err = s.FindSessionByTokenHash(ctx, b.TokenHash, now)
	wantCode(t, "other session after SetPassword", err, edgeflow.ENotFound)
	_, err = s.FindSessionByTokenHash(ctx, theirs.TokenHash, now)
	must(t, err)

	// Without a session to keep (an administrator's reset), all go.
	must(t, s.SetPassword(ctx, tn.user.ID, []byte("reset-hash"), "", now))
	_, err = s.FindSessionByTokenHash(ctx, a.TokenHash, now)
	wantCode(t, "kept session after a reset", err, edgeflow.ENotFound)
	wantCode(t, "SetPassword unknown user", s.SetPassword(ctx, "usr_missing", []byte("h"), "", now), edgeflow.ENotFound)
}

func testSessions(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	now := time.Now().UTC()
	live := &edgeflow.Session{UserID: tn.user.ID, TokenHash: []byte("live-hash"), CSRFToken: "csrf",
		ActiveOrganizationID: tn.org.ID, ActiveProjectID: tn.project.ID, ExpiresAt: now.Add(time.Hour)}
	must(t, s.CreateSession(ctx, live))
	expired := &edgeflow.Session{UserID: tn.user.ID, TokenHash: []byte("old-hash"), ExpiresAt: now.Add(-time.Second)}
	must(t, s.CreateSession(ctx, expired))

	got, err := s.FindSessionByTokenHash(ctx, []byte("live-hash"), now)
	must(t, err)
	diff(t, "FindSessionByTokenHash", got, live)
	_, err = s.FindSessionByTokenHash(ctx, []byte("old-hash"), now)
	wantCode(t, "expired session", err, edgeflow.ENotFound)
	_, err = s.FindSessionByTokenHash(ctx, []byte("live-hash"), now.Add(2*time.Hour))
	wantCode(t, "session after expiry", err, edgeflow.ENotFound)
	_, err = s.FindSessionByTokenHash(ctx, []byte("unknown"), now)
	wantCode(t, "unknown session", err, edgeflow.ENotFound)

	p2 := newProject(t, s, tn.org.ID)
	must(t, s.SetSessionActive(ctx, live.ID, tn.org.ID, p2.ID))
	got, err = s.FindSessionByTokenHash(ctx, []byte("live-hash"), now)
	must(t, err)
	if got.ActiveProjectID != p2.ID || got.ActiveOrganizationID != tn.org.ID {
		t.Errorf("SetSessionActive: got org %q project %q", got.ActiveOrganizationID, got.ActiveProjectID)
	}
	wantCode(t, "SetSessionActive unknown", s.SetSessionActive(ctx, "ses_missing", "", ""), edgeflow.ENotFound)

	must(t, s.RevokeSession(ctx, live.ID, now))
	_, err = s.FindSessionByTokenHash(ctx, []byte("live-hash"), now)
	wantCode(t, "revoked session", err, edgeflow.ENotFound)
	wantCode(t, "RevokeSession unknown", s.RevokeSession(ctx, "ses_missing", now), edgeflow.ENotFound)
	wantCode(t, "duplicate token hash", s.CreateSession(ctx, &edgeflow.Session{UserID: tn.user.ID,
		TokenHash: []byte("live-hash"), ExpiresAt: now}), edgeflow.EConflict)

	// Purging removes the expired and the revoked session, not a live one.
	// Other cases run in parallel on the same store, so count at least.
	fresh := &edgeflow.Session{UserID: tn.user.ID, TokenHash: []byte("fresh-hash"), ExpiresAt: now.Add(time.Hour)}
	must(t, s.CreateSession(ctx, fresh))
	n, err := s.PurgeSessions(ctx, now)
	must(t, err)
	if n < 2 {
		t.Errorf("PurgeSessions deleted %d sessions, want at least the expired and the revoked one", n)
	}
	got, err = s.FindSessionByTokenHash(ctx, []byte("fresh-hash"), now)
	must(t, err)
	diff(t, "live session after PurgeSessions", got, fresh)
	wantCode(t, "RevokeSession of a purged session", s.RevokeSession(ctx, live.ID, now), edgeflow.ENotFound)
}
