package sqlite

import (
	"database/sql"
	"errors"
	"strings"

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
