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

// TestAdminPruneRuns: `edgeflow admin prune-runs` deletes the finished runs
// past their organization's retention and keeps the others.
func TestAdminPruneRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, filepath.Join(dir, sqliteFileName), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := &edgeflow.User{Email: "p@example.com"}
	o := &edgeflow.Organization{Name: "o", Slug: "o"}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(st.CreateUser(ctx, u))
	must(st.CreateOrganization(ctx, o, u.ID))
	p := &edgeflow.Project{OrganizationID: o.ID, Name: "p", Slug: "p"}
	must(st.CreateProject(ctx, p))
	w := &edgeflow.Workflow{OrganizationID: o.ID, ProjectID: p.ID, Name: "w", Kind: edgeflow.KindWorkflow}
	must(st.CreateWorkflow(ctx, w))
	done := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunComplete}
	running := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunRunning}
	must(st.CreateRun(ctx, done))
	must(st.CreateRun(ctx, running))
	must(st.SetRunRetention(ctx, o.ID, 0)) // every finished run is past it
	must(st.Close())
	time.Sleep(2 * time.Millisecond)

	code, out, errOut := runCLI("admin", "prune-runs", "--data-dir", dir)
	if code != 0 || out != "deleted 1 runs past their retention\n" {
		t.Fatalf("prune-runs = %d, %q, %q", code, out, errOut)
	}
	st, err = sqlite.Open(ctx, filepath.Join(dir, sqliteFileName), sqlite.Options{})
	must(err)
	defer st.Close()
	if _, err := st.FindRunByID(ctx, w.ID, done.ID); !edgeflow.IsNotFound(err) {
		t.Errorf("the finished run is still there: %v", err)
	}
	if _, err := st.FindRunByID(ctx, w.ID, running.ID); err != nil {
		t.Errorf("the running run was deleted: %v", err)
	}
}
