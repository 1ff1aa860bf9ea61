package main

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// TestPurgeSessions: the serve loop deletes expired and revoked sessions at
// its first pass and stops with its context.
func TestPurgeSessions(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u := &edgeflow.User{Email: "s@example.com"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, s := range []*edgeflow.Session{
		{UserID: u.ID, TokenHash: []byte("live"), ExpiresAt: now.Add(time.Hour)},
		{UserID: u.ID, TokenHash: []byte("expired"), ExpiresAt: now.Add(-time.Minute)},
	} {
		if err := st.CreateSession(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	loopCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		purgeSessions(loopCtx, st, slog.New(slog.DiscardHandler), time.Hour)
	}()
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var n int
		if err := raw.QueryRowContext(ctx, `SELECT count(*) FROM sessions`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d sessions stored; the expired one was not purged", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := st.FindSessionByTokenHash(ctx, []byte("live"), now); err != nil {
		t.Fatalf("live session: %v", err)
	}
	stop()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("purgeSessions did not stop with its context")
	}
}
