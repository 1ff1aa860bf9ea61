package sqlite

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/sqlstore"
	"github.com/edgeflow/edgeflow/internal/storetest"
)

// BenchmarkRunSearch: pages of run searches on storetest.BenchRunCount runs
// (EDGEFLOW_BENCH_RUNS; bench/run-search.sh).
func BenchmarkRunSearch(b *testing.B) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(b.TempDir(), "edgeflow.db"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	storetest.BenchRunSearch(b, s, func(b *testing.B, projectID, workflowA, workflowB string, n int, start time.Time) {
		const batch = 50_000
		for lo := 0; lo < n; lo += batch {
			hi := min(lo+batch, n)
			_, err := s.w.ExecContext(ctx, `WITH RECURSIVE seq(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM seq WHERE i + 1 < ?)
				INSERT INTO runs (id, workflow_id, project_id, version_id, status, params, output, error, steps, step_words,
					created_at, updated_at)
				SELECT printf('run_bench%015d', i), CASE WHEN i % 10 = 0 THEN ? ELSE ? END, ?, 'ver_bench' || (i % 20),
					CASE i % 50 WHEN 0 THEN 'errored' WHEN 1 THEN 'running' ELSE 'complete' END,
					'{"orderId":"A-' || i || '","customer":"customer ' || (i % 1000) || '"}', '{"total":' || (i % 500) || '}',
					CASE WHEN i % 50 = 0 THEN 'card declined by issuer ' || (i % 7) ELSE '' END,
					'[{"name":"ship","type":"step","success":true,"output":{"tracking":"T-' || i || '","carrier":"carrier ' ||
						(i % 13) || '"}},{"name":"token","type":"step","success":true,"config":{"sensitive":"output"},' ||
						'"output":"[REDACTED]"},{"name":"approval","type":"waitForEvent","finished":true,"output":' ||
						'{"type":"approval","payload":{"approvedBy":"manager ' || (i % 50) || '"}}}]',
					'tracking T-' || i || ' carrier carrier ' || (i % 13) || ' type approval payload approvedBy manager ' || (i % 50),
					? + i * 1000, ? + i * 1000
				FROM seq`, lo, hi, workflowB, workflowA, projectID, start.UnixMicro(), start.UnixMicro())
			if err != nil {
				b.Fatal(err)
			}
		}
		// The step words stored in bulk are those the store writes.
		var steps, words string
		if err := s.w.QueryRowContext(ctx, `SELECT steps, step_words FROM runs WHERE id = 'run_bench000000000000007'`).
			Scan(&steps, &words); err != nil {
			b.Fatal(err)
		}
		if want := sqlstore.StepWords(json.RawMessage(steps)); words != want {
			b.Fatalf("bulk step_words = %q, the store writes %q", words, want)
		}
		if _, err := s.w.ExecContext(ctx, `ANALYZE`); err != nil {
			b.Fatal(err)
		}
	})
}
