package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Unreachable reports whether err means that the database file cannot be
// used right now rather than that one request was refused: the write lock
// not granted within the busy timeout, an I/O error, a full disk, a file
// that cannot be opened, or a store that was closed. The API answers these
// 503 unavailable (edgeflow.FaultClassifier).
func (s *Store) Unreachable(err error) bool { return Unreachable(err) }

// Unreachable is Store.Unreachable without a store.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_CANTOPEN,
			sqlite3.SQLITE_FULL, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT:
			return true
		}
		return false
	}
	if errors.Is(err, sql.ErrConnDone) {
		return true
	}
	// database/sql does not export the errors of a closed *sql.DB and of
	// its closed statements (a store after Close).
	msg := err.Error()
	return strings.Contains(msg, "sql: database is closed") || strings.Contains(msg, "sql: statement is closed")
}

// SealedSamples returns one record of each kind holding a value sealed with
// the secret key (edgeflow.Store).
func (s *Store) SealedSamples(ctx context.Context) (edgeflow.SealedSamples, error) {
	var out edgeflow.SealedSamples
	c, err := scanConnection(s.r.QueryRowContext(ctx, `SELECT `+connectionCols+` FROM connections
		WHERE length(sealed_credentials) > 0 LIMIT 1`))
	if err == nil {
		out.Connection = &c
	} else if !errors.Is(err, sql.ErrNoRows) {
		return out, dbErr(err, "connection", "", "")
	}
	v, err := scanEnvVar(s.r.QueryRowContext(ctx, `SELECT `+envVarCols+` FROM env_vars WHERE is_secret = 1 LIMIT 1`))
	if err == nil {
		out.EnvVar = &v
	} else if !errors.Is(err, sql.ErrNoRows) {
		return out, dbErr(err, "environment variable", "", "")
	}
	w, err := scanWorkflow(s.r.QueryRowContext(ctx, `SELECT `+workflowCols+` FROM workflows
		WHERE env_vars LIKE '%"isSecret":true%' LIMIT 1`))
	if err == nil {
		out.Workflow = &w
	} else if !errors.Is(err, sql.ErrNoRows) {
		return out, dbErr(err, "workflow", "", "")
	}
	d, err := scanDeployment(s.r.QueryRowContext(ctx, `SELECT `+deploymentCols+` FROM deployments
		WHERE worker_token <> '' OR trigger_secret <> '' LIMIT 1`))
	if err == nil {
		out.Deployment = &d
	} else if !errors.Is(err, sql.ErrNoRows) {
		return out, dbErr(err, "deployment", "", "")
	}
	return out, nil
}
