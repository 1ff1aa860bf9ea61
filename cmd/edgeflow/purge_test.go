package main

import (
	"context"
	"database/sql"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// purgeRecorder is the real store, recording the time of each
// PurgeSessions pass.
type purgeRecorder struct {
	edgeflow.Store
	mu     sync.Mutex
	passes []time.Time
}

func (p *purgeRecorder) PurgeSessions(ctx context.Context, now time.Time) (int, error) {
	p.mu.Lock()
	p.passes = append(p.passes, now)
	p.mu.Unlock()
	return p.Store.PurgeSessions(ctx, now)
}

// TestPurgeSessions: the serve loop deletes expired and revoked sessions at
// its first pass and then every interval, at the loop's clock, and stops
// with its context. It runs in a synctest bubble, whose clock the loop reads
// and whose hours pass at once.
func TestPurgeSessions(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
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
		start := time.Now()
		for _, s := range []*edgeflow.Session{
			{UserID: u.ID, TokenHash: []byte("live"), ExpiresAt: start.Add(3 * time.Hour)},
			{UserID: u.ID, TokenHash: []byte("expiring"), ExpiresAt: start.Add(90 * time.Minute)},
			{UserID: u.ID, TokenHash: []byte("expired"), ExpiresAt: start.Add(-time.Minute)},
		} {
			if err := st.CreateSession(ctx, s); err != nil {
				t.Fatal(err)
			}
		}
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		stored := func() int {
			t.Helper()
			var n int
			if err := raw.QueryRowContext(ctx, `SELECT count(*) FROM sessions`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		rec := &purgeRecorder{Store: st}
		loopCtx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			purgeSessions(loopCtx, rec, slog.New(slog.DiscardHandler), time.Hour, time.Now)
		}()

		synctest.Wait() // the first pass is over; the loop waits for its ticker
		if n := stored(); n != 2 {
			t.Fatalf("after the first pass %d sessions are stored, want 2 (the expired one purged)", n)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if n := stored(); n != 2 {
			t.Fatalf("after the pass of the first hour %d sessions are stored, want 2 (the expiring one still live)", n)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if n := stored(); n != 1 {
			t.Fatalf("after the pass of the second hour %d sessions are stored, want 1", n)
		}
		if _, err := st.FindSessionByTokenHash(ctx, []byte("live"), time.Now()); err != nil {
			t.Fatalf("live session: %v", err)
		}
		rec.mu.Lock()
		passes := rec.passes
		rec.mu.Unlock()
		if want := []time.Time{start, start.Add(time.Hour), start.Add(2 * time.Hour)}; !slices.EqualFunc(passes, want, time.Time.Equal) {
			t.Errorf("passes at %v, want %v", passes, want)
		}
		stop()
		<-done // purgeSessions returns with its context; a loop that did not would leave the bubble blocked
	})
}

// TestAdminPruneRuns: `edgeflow admin prune-runs` deletes the finished runs
// past their organization's retention and keeps the others.
func TestAdminPruneRuns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	// The records are made a minute ago, so that the finished run is past
	// its retention of 0 days when prune-runs reads the clock.
	past := func() time.Time { return time.Now().Add(-time.Minute) }
	st, err := sqlite.Open(ctx, filepath.Join(dir, sqliteFileName), sqlite.Options{Now: past})
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
