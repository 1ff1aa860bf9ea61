package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// TestRunsRowidOrder: runs created while the clock stands still (or goes
// back) get creation times after the newest stored run's, so rowid order
// stays creation order (migration 0016); a word search then pages newest
// first, also past a page whose last run was deleted before the next page
// was asked for.
func TestRunsRowidOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	clock := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	s, err := sqlite.Open(ctx, path, sqlite.Options{Now: func() time.Time { return clock }})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := seedWorkflow(t, s)
	var made []*edgeflow.Run
	for i := range 6 {
		if i == 3 {
			clock = clock.Add(-time.Hour) // the clock steps back
		}
		r := &edgeflow.Run{WorkflowID: w.ID, Params: json.RawMessage(`{"tag":"bulk"}`)}
		must(t, s.CreateRun(ctx, r))
		if len(made) > 0 && !r.CreatedAt.After(made[len(made)-1].CreatedAt) {
			t.Errorf("run %d created at %s, not after the previous run (%s)", i, r.CreatedAt, made[len(made)-1].CreatedAt)
		}
		made = append(made, r)
	}
	f := edgeflow.RunFilter{ProjectID: w.ProjectID, Query: "bulk"}
	first, err := s.ListRuns(ctx, f, edgeflow.ListOptions{Limit: 2})
	must(t, err)
	if len(first.Items) != 2 || first.Items[0].ID != made[5].ID || first.Items[1].ID != made[4].ID || first.NextCursor == "" {
		t.Fatalf("first page = %v, cursor %q", runIDs(first.Items), first.NextCursor)
	}
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	if _, err := raw.ExecContext(ctx, `DELETE FROM runs WHERE id = ?`, made[4].ID); err != nil {
		t.Fatal(err)
	}
	next, err := s.ListRuns(ctx, f, edgeflow.ListOptions{Limit: 2, Cursor: first.NextCursor})
	must(t, err)
	if got := runIDs(next.Items); len(got) != 2 || got[0] != made[3].ID || got[1] != made[2].ID {
		t.Errorf("page after a deleted cursor run = %v, want [%s %s]", got, made[3].ID, made[2].ID)
	}
	last, err := s.ListRuns(ctx, f, edgeflow.ListOptions{Limit: 2, Cursor: next.NextCursor})
	must(t, err)
	if got := runIDs(last.Items); len(got) != 2 || got[0] != made[1].ID || got[1] != made[0].ID || last.NextCursor != "" {
		t.Errorf("last page = %v, cursor %q", got, last.NextCursor)
	}
}

func runIDs(runs []edgeflow.Run) []string {
	var out []string
	for _, r := range runs {
		out = append(out, r.ID)
	}
	return out
}

// TestMigrationRunsInCreationOrder: migration 0016 copies runs in creation
// order (a run stored out of order, as before it, gets its place) and builds
// the word index again, so every run stays findable, newest first.
func TestMigrationRunsInCreationOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := seedWorkflow(t, s)
	var made []*edgeflow.Run
	for range 3 {
		r := &edgeflow.Run{WorkflowID: w.ID, Params: json.RawMessage(`{"tag":"order"}`)}
		must(t, s.CreateRun(ctx, r))
		made = append(made, r)
	}
	// Logs kept with a run (migration 15) survive the rebuild of runs.
	logs := edgeflow.RunLogs{Lines: []edgeflow.LogLine{{Timestamp: time.Unix(1700000000, 0).UTC(), Level: "log", Message: "kept"}}, Dropped: 2}
	must(t, s.PutRunLogs(ctx, made[0].ID, logs))
	must(t, s.Close())

	// Back to before migration 16, with a run stored last but created first.
	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		// Migration 16 rebuilds runs with the columns it knew: the later
		// ones come again after it.
		`DELETE FROM schema_migrations WHERE version >= 16`,
		`DROP TABLE deleted_workflows`,
		// Migrations 18 to 20 add columns to the runs that 16 rebuilds:
		// they are undone too, and applied again after 16, as are 21
		// to 23.
		`DROP TABLE bulk_jobs`,
		`ALTER TABLE audit_log DROP COLUMN details`,
		`ALTER TABLE connections DROP COLUMN plan`,
		`ALTER TABLE connections DROP COLUMN plan_limits`,
		`DROP TABLE environments`,
		`ALTER TABLE deployments DROP COLUMN environment`,
		`ALTER TABLE env_vars DROP COLUMN env_values`,
		`ALTER TABLE env_vars DROP COLUMN env_only`,
		// Migration 24's table is independent of runs: dropped so that
		// it applies again.
		`DROP TABLE pinned_outputs`,
		`DROP TABLE sent_events`,
		`INSERT INTO runs (id, workflow_id, project_id, status, params, created_at, updated_at)
			SELECT 'run_early', workflow_id, project_id, 'complete', '{"tag":"order"}', created_at - 1000000, updated_at
			FROM runs LIMIT 1`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	must(t, raw.Close())

	s, err = sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := []string{made[2].ID, made[1].ID, made[0].ID, "run_early"}
	var got []string
	opts := edgeflow.ListOptions{Limit: 1}
	for {
		page, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: w.ProjectID, Query: "order"}, opts)
		must(t, err)
		got = append(got, runIDs(page.Items)...)
		if page.NextCursor == "" {
			break
		}
		opts.Cursor = page.NextCursor
	}
	if len(got) != len(want) {
		t.Fatalf("after migration 16: %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("after migration 16: %v, want %v", got, want)
		}
	}
	kept, err := s.FindRunLogs(ctx, made[0].ID)
	must(t, err)
	if len(kept.Lines) != 1 || kept.Lines[0].Message != "kept" || kept.Dropped != 2 {
		t.Errorf("run logs after migration 16: %+v", kept)
	}
	late := &edgeflow.Run{WorkflowID: w.ID, Params: json.RawMessage(`{"tag":"order"}`)}
	must(t, s.CreateRun(ctx, late))
	page, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: w.ProjectID, Query: "order"}, edgeflow.ListOptions{Limit: 1})
	must(t, err)
	if ids := runIDs(page.Items); len(ids) != 1 || ids[0] != late.ID {
		t.Errorf("newest after migration = %v, want %s", ids, late.ID)
	}
}
