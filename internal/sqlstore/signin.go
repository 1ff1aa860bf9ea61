package sqlstore

import (
	"context"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// FindSignInFailures implements edgeflow.Store.
func (s *Store) FindSignInFailures(ctx context.Context, key string) (edgeflow.SignInFailures, error) {
	var f edgeflow.SignInFailures
	err := s.queryRow(ctx, `SELECT count, last_failed_at FROM sign_in_failures WHERE key = ?`, key).
		Scan(&f.Count, timeCol{&f.LastFailedAt})
	if s.noRows(err) {
		return edgeflow.SignInFailures{}, nil
	}
	return f, s.dbErr(err, "sign-in failures", "", "")
}

// RecordSignInFailure implements edgeflow.Store.
func (s *Store) RecordSignInFailure(ctx context.Context, key string, at, forgetBefore time.Time) (edgeflow.SignInFailures, error) {
	f := edgeflow.SignInFailures{LastFailedAt: norm(at)}
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		if _, err := tx.Exec(ctx, `DELETE FROM sign_in_failures WHERE last_failed_at < ?`, s.ts(forgetBefore)); err != nil {
			return s.dbErr(err, "sign-in failures", "", "")
		}
		err := tx.QueryRow(ctx, `INSERT INTO sign_in_failures (key, count, last_failed_at) VALUES (?, 1, ?)
			ON CONFLICT (key) DO UPDATE SET count = sign_in_failures.count + 1, last_failed_at = excluded.last_failed_at
			RETURNING count`, key, s.ts(f.LastFailedAt)).Scan(&f.Count)
		return s.dbErr(err, "sign-in failures", "", "")
	})
	return f, err
}

// ClearSignInFailures implements edgeflow.Store.
func (s *Store) ClearSignInFailures(ctx context.Context, key string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `DELETE FROM sign_in_failures WHERE key = ?`, key)
		return s.dbErr(err, "sign-in failures", "", "")
	})
}
