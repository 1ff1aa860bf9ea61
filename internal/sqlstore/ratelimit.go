package sqlstore

import (
	"context"
	"time"
)

// hitRetention is how long a rate limit window is kept after it started;
// windows up to this long are supported.
const hitRetention = time.Hour

// Hit counts one request against key in the fixed window starting at
// windowStart and returns the count so far in that window. Windows that
// started more than an hour before windowStart are pruned (at most once a
// minute).
func (s *Store) Hit(ctx context.Context, key string, windowStart time.Time) (int, error) {
	ws := norm(windowStart)
	var n int
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		if err := tx.QueryRow(ctx, `INSERT INTO rate_hits (key, window_start, count) VALUES (?, ?, 1)
			ON CONFLICT (key, window_start) DO UPDATE SET count = rate_hits.count + 1 RETURNING count`, key, s.ts(ws)).Scan(&n); err != nil {
			return s.dbErr(err, "rate limit counter", "", "")
		}
		last := s.lastPrune.Load()
		if ws.UnixMicro()-last >= time.Minute.Microseconds() && s.lastPrune.CompareAndSwap(last, ws.UnixMicro()) {
			if _, err := tx.Exec(ctx, `DELETE FROM rate_hits WHERE window_start < ?`,
				s.ts(ws.Add(-hitRetention))); err != nil {
				return s.dbErr(err, "rate limit counter", "", "")
			}
		}
		return nil
	})
	return n, err
}
