package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// FindSignInFailures implements edgeflow.Store.
func (s *Store) FindSignInFailures(ctx context.Context, key string) (edgeflow.SignInFailures, error) {
	var f edgeflow.SignInFailures
	err := s.queryRow(ctx, `SELECT count, last_failed_at FROM sign_in_failures WHERE key = ?`, key).
		Scan(&f.Count, timeCol{&f.LastFailedAt})
	if errors.Is(err, sql.ErrNoRows) {
		return edgeflow.SignInFailures{}, nil
	}
	return f, dbErr(err, "sign-in failures", "", "")
}

// RecordSignInFailure implements edgeflow.Store.
func (s *Store) RecordSignInFailure(ctx context.Context, key string, at, forgetBefore time.Time) (edgeflow.SignInFailures, error) {
	f := edgeflow.SignInFailures{LastFailedAt: norm(at)}
	err := s.writeScoped(ctx, scopeNone, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM sign_in_failures WHERE last_failed_at < ?`, micros(forgetBefore)); err != nil {
			return dbErr(err, "sign-in failures", "", "")
		}
		err := tx.QueryRowContext(ctx, `INSERT INTO sign_in_failures (key, count, last_failed_at) VALUES (?, 1, ?)
			ON CONFLICT (key) DO UPDATE SET count = count + 1, last_failed_at = excluded.last_failed_at
			RETURNING count`, key, micros(f.LastFailedAt)).Scan(&f.Count)
		return dbErr(err, "sign-in failures", "", "")
	})
	return f, err
}

// ClearSignInFailures implements edgeflow.Store.
func (s *Store) ClearSignInFailures(ctx context.Context, key string) error {
	return s.writeScoped(ctx, scopeNone, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM sign_in_failures WHERE key = ?`, key)
		return dbErr(err, "sign-in failures", "", "")
	})
}
