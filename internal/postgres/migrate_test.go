package postgres_test

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/storetest"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestMigrationRunUsage: migration 18 sums the usage of stored runs from
// their step lists; a list that does not parse is skipped, not fatal.
func TestMigrationRunUsage(t *testing.T) {
	t.Parallel()
	testURL(t)
	u := testenv.PostgresSchema(t)
	storetest.MigrationRunUsage(t, func(t *testing.T) edgeflow.Store {
		s, err := postgres.Open(t.Context(), u, postgres.Options{MaxConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, func(t *testing.T, broken string) {
		conn, err := pgx.Connect(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(t.Context())
		for _, q := range []string{
			`ALTER TABLE runs DROP COLUMN input_tokens, DROP COLUMN output_tokens`,
			`DELETE FROM schema_migrations WHERE version = 18`,
			`UPDATE runs SET steps = '[{"name": "agent triage turn 1", ' WHERE id = '` + broken + `'`,
		} {
			if _, err := conn.Exec(t.Context(), q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
	})
}

// TestMigrationEnvironments: migration 22 gives every existing project its
// production environment.
func TestMigrationEnvironments(t *testing.T) {
	t.Parallel()
	testURL(t)
	u := testenv.PostgresSchema(t)
	storetest.MigrationEnvironments(t, func(t *testing.T) edgeflow.Store {
		s, err := postgres.Open(t.Context(), u, postgres.Options{MaxConns: 4})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}, func(t *testing.T) {
		conn, err := pgx.Connect(t.Context(), u)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(t.Context())
		for _, q := range undoMigration22 {
			if _, err := conn.Exec(t.Context(), q); err != nil {
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
	`ALTER TABLE env_vars DROP COLUMN env_values, DROP COLUMN env_only`,
	`DELETE FROM schema_migrations WHERE version = 22`,
}
