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

// ClaimSignInAttempt implements edgeflow.Store. The key's row is made to
// exist and then read locked, in one write transaction: a concurrent claim
// of the same key waits for this one to commit and then reads its count
// (PostgreSQL's row lock; SQLite's write transactions are serial anyway).
// A row a claim creates has count 0 until the claim counts itself.
func (s *Store) ClaimSignInAttempt(ctx context.Context, key string, at time.Time, policy edgeflow.SignInBackOff) (edgeflow.SignInFailures, time.Duration, error) {
	at = norm(at)
	var f edgeflow.SignInFailures
	var wait time.Duration
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		f, wait = edgeflow.SignInFailures{}, 0
		if _, err := tx.Exec(ctx, `DELETE FROM sign_in_failures WHERE last_failed_at < ?`, s.ts(at.Add(-policy.ForgetAfter))); err != nil {
			return s.dbErr(err, "sign-in failures", "", "")
		}
		if _, err := tx.Exec(ctx, `INSERT INTO sign_in_failures (key, count, last_failed_at) VALUES (?, 0, ?)
			ON CONFLICT (key) DO NOTHING`, key, s.ts(at)); err != nil {
			return s.dbErr(err, "sign-in failures", "", "")
		}
		err := tx.QueryRow(ctx, `SELECT count, last_failed_at FROM sign_in_failures WHERE key = ?`+s.lock("FOR UPDATE"), key).
			Scan(&f.Count, timeCol{&f.LastFailedAt})
		if err != nil {
			return s.dbErr(err, "sign-in failures", "", "")
		}
		if f.Count > 0 && f.Count >= policy.FreeFailures {
			if until := f.LastFailedAt.Add(policy.Delay(f.Count)); at.Before(until) {
				wait = until.Sub(at)
				return nil
			}
		}
		f = edgeflow.SignInFailures{Count: f.Count + 1, LastFailedAt: at}
		_, err = tx.Exec(ctx, `UPDATE sign_in_failures SET count = ?, last_failed_at = ? WHERE key = ?`, f.Count, s.ts(at), key)
		return s.dbErr(err, "sign-in failures", "", "")
	})
	return f, wait, err
}

// ClearSignInFailures implements edgeflow.Store.
func (s *Store) ClearSignInFailures(ctx context.Context, key string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `DELETE FROM sign_in_failures WHERE key = ?`, key)
		return s.dbErr(err, "sign-in failures", "", "")
	})
}
