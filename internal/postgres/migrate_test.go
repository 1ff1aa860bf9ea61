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
