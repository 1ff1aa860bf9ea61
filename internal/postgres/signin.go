package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/jackc/pgx/v5"
)

// FindSignInFailures implements edgeflow.Store.
func (s *Store) FindSignInFailures(ctx context.Context, key string) (edgeflow.SignInFailures, error) {
	var f edgeflow.SignInFailures
	err := s.queryRow(ctx, `SELECT count, last_failed_at FROM sign_in_failures WHERE key = $1`, key).
		Scan(&f.Count, &f.LastFailedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return edgeflow.SignInFailures{}, nil
	}
	f.LastFailedAt = f.LastFailedAt.UTC()
	return f, dbErr(err, "sign-in failures", "", "")
}

// RecordSignInFailure implements edgeflow.Store.
func (s *Store) RecordSignInFailure(ctx context.Context, key string, at, forgetBefore time.Time) (edgeflow.SignInFailures, error) {
	f := edgeflow.SignInFailures{LastFailedAt: ts(at)}
	err := s.write(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM sign_in_failures WHERE last_failed_at < $1`, ts(forgetBefore)); err != nil {
			return dbErr(err, "sign-in failures", "", "")
		}
		err := tx.QueryRow(ctx, `INSERT INTO sign_in_failures (key, count, last_failed_at) VALUES ($1, 1, $2)
			ON CONFLICT (key) DO UPDATE SET count = sign_in_failures.count + 1, last_failed_at = excluded.last_failed_at
			RETURNING count`, key, f.LastFailedAt).Scan(&f.Count)
		return dbErr(err, "sign-in failures", "", "")
	})
	return f, err
}

// ClearSignInFailures implements edgeflow.Store.
func (s *Store) ClearSignInFailures(ctx context.Context, key string) error {
	return s.write(ctx, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM sign_in_failures WHERE key = $1`, key)
		return dbErr(err, "sign-in failures", "", "")
	})
}
