package sqlstore

import (
	"context"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// ClaimRunsForRefresh marks up to limit (100 when limit <= 0) due runs that
// no refresher holds as held until until and returns them oldest due first.
// Concurrent callers, of this process or another, get different runs:
// rows another transaction is claiming are skipped (FOR UPDATE SKIP LOCKED)
// where the engine locks rows; elsewhere write transactions take turns.
func (s *Store) ClaimRunsForRefresh(ctx context.Context, now, until time.Time, limit int) ([]edgeflow.Run, error) {
	if limit <= 0 {
		limit = 100
	}
	var out []edgeflow.Run
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		out = []edgeflow.Run{}
		rows, err := tx.Query(ctx, `UPDATE runs SET refresh_claimed_until = ? WHERE id IN (
			SELECT id FROM runs
			WHERE next_refresh_at IS NOT NULL AND next_refresh_at <= ? AND status NOT IN ('complete', 'errored', 'terminated')
				AND (refresh_claimed_until IS NULL OR refresh_claimed_until <= ?)
			ORDER BY next_refresh_at, id LIMIT ?`+s.lock("FOR UPDATE SKIP LOCKED")+`)
			RETURNING `+runCols, s.ts(until), s.ts(now), s.ts(now), limit)
		if err != nil {
			return s.dbErr(err, "run", "", "")
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRun(rows)
			if err != nil {
				return s.dbErr(err, "run", "", "")
			}
			out = append(out, r)
		}
		return s.dbErr(rows.Err(), "run", "", "")
	})
	if err != nil {
		return nil, err
	}
	edgeflow.SortRunsByDue(out)
	return out, nil
}
