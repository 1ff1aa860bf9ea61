package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/storetest"
)

// TestMigrationUniqueRunInstance: a database that recorded an instance twice
// (two replicas, before migration 2) keeps the earliest run and gets the
// unique index.
func TestMigrationUniqueRunInstance(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := seedWorkflow(t, s)
	first := &edgeflow.Run{WorkflowID: w.ID, InstanceID: "cron-1"}
	must(t, s.CreateRun(ctx, first))
	must(t, s.Close())

	// Back to the schema before migration 2, with a duplicate recorded.
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`DROP INDEX runs_workflow_instance`,
		`CREATE INDEX runs_workflow_instance ON runs (workflow_id, instance_id)`,
		`DELETE FROM schema_migrations WHERE version = 2`,
		`INSERT INTO runs SELECT 'run_duplicate', workflow_id, project_id, version_id, connection_id, deployment_id,
			workflow_name, instance_id, status, status_detail, params, output, error, steps, created_at + 1,
			started_at, ended_at, updated_at, next_refresh_at, refresh_failures, state_version, refresh_claimed_until,
			restart_of, from_step, replayed, input_tokens, output_tokens, trace_context, replay_of, params_changed, environment, step_words FROM runs`,
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
	got, err := s.FindRunByInstanceID(ctx, w.ID, "cron-1")
	must(t, err)
	if got.ID != first.ID {
		t.Errorf("kept run %s, want the earliest %s", got.ID, first.ID)
	}
	if _, err := s.FindRunByID(ctx, w.ID, "run_duplicate"); !edgeflow.IsNotFound(err) {
		t.Errorf("duplicate run: err = %v, want not found", err)
	}
	if err := s.CreateRun(ctx, &edgeflow.Run{WorkflowID: w.ID, InstanceID: "cron-1"}); !edgeflow.IsConflict(err) {
		t.Errorf("recording the instance again: err = %v, want a conflict", err)
	}
}

// TestMigrationRunUsage: migration 18 sums the usage of stored runs from
// their step lists.
func TestMigrationRunUsage(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	storetest.MigrationRunUsage(t, func(t *testing.T) edgeflow.Store {
		s, err := sqlite.Open(t.Context(), path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, func(t *testing.T, broken string) {
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		for _, q := range []string{
			`DROP INDEX runs_project_usage`,
			`ALTER TABLE runs DROP COLUMN input_tokens`,
			`ALTER TABLE runs DROP COLUMN output_tokens`,
			`DELETE FROM schema_migrations WHERE version = 18`,
			`UPDATE runs SET steps = '[{"name": "agent triage turn 1", ' WHERE id = '` + broken + `'`,
		} {
			if _, err := raw.ExecContext(t.Context(), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	})
}

// TestMigrationEnvironments: migration 22 gives every existing project its
// production environment.
func TestMigrationEnvironments(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	storetest.MigrationEnvironments(t, func(t *testing.T) edgeflow.Store {
		s, err := sqlite.Open(t.Context(), path, sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, func(t *testing.T) {
		raw, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		for _, q := range undoMigration22 {
			if _, err := raw.ExecContext(t.Context(), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	})
}

// undoMigration22 takes a database back to before migration 22.
var undoMigration22 = []string{
	`DROP TABLE environments`,
	`ALTER TABLE deployments DROP COLUMN environment`,
	`ALTER TABLE runs DROP COLUMN environment`,
	`ALTER TABLE env_vars DROP COLUMN env_values`,
	`ALTER TABLE env_vars DROP COLUMN env_only`,
	`DELETE FROM schema_migrations WHERE version = 22`,
}
