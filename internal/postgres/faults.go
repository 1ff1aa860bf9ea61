package postgres

import (
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
)

// Unreachable reports whether err means that PostgreSQL cannot be reached
// rather than that it refused one statement: a connection that could not be
// made (refused, timed out, authentication failed) or was lost, a closed
// pool, a server shutting down or not accepting connections, too many
// connections. The API answers these 503 unavailable
// (edgeflow.FaultClassifier).
func (s *Store) Unreachable(err error) bool { return Unreachable(err) }

// Unreachable is Store.Unreachable without a store.
func Unreachable(err error) bool {
	if err == nil {
		return false
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) {
		return true
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch {
		case strings.HasPrefix(pe.Code, "08"): // connection_exception
			return true
		case pe.Code == "57P01", pe.Code == "57P02", pe.Code == "57P03": // admin_shutdown, crash_shutdown, cannot_connect_now
			return true
		case pe.Code == "53300": // too_many_connections
			return true
		}
		return false
	}
	if pgconn.Timeout(err) || errors.Is(err, puddle.ErrClosedPool) || errors.Is(err, pgconn.ErrConnClosed) {
		return true
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		return true
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return true
	}
	// pgxpool reports a closed pool with its own text in some paths.
	return strings.Contains(err.Error(), "closed pool")
}
