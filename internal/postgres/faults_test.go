package postgres_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/puddle/v2"
)

// TestUnreachableClassifies: connection failures, lost connections, a
// closed pool and the server's shutdown codes are unreachable; statement
// errors (constraints, syntax), no rows and cancellation are not.
func TestUnreachableClassifies(t *testing.T) {
	t.Parallel()
	wrap := func(err error) error { return fmt.Errorf("postgres: find user: %w", err) }
	for err, want := range map[error]bool{
		nil:                                  false,
		wrap(pgx.ErrNoRows):                  false,
		wrap(&pgconn.PgError{Code: "23505"}): false, // unique_violation
		wrap(&pgconn.PgError{Code: "42601"}): false, // syntax_error
		wrap(context.Canceled):               false,
		edgeflow.NotFound("user"):            false,
		wrap(&pgconn.PgError{Code: "57P01"}): true, // admin_shutdown
		wrap(&pgconn.PgError{Code: "57P03"}): true, // cannot_connect_now
		wrap(&pgconn.PgError{Code: "08006"}): true, // connection_failure
		wrap(&pgconn.PgError{Code: "53300"}): true, // too_many_connections
		wrap(puddle.ErrClosedPool):           true,
		wrap(pgconn.ErrConnClosed):           true,
		wrap(io.ErrUnexpectedEOF):            true,
		wrap(syscall.ECONNRESET):             true,
		wrap(&net.OpError{Op: "read", Net: "tcp", Err: syscall.ECONNRESET}): true,
	} {
		if got := postgres.Unreachable(err); got != want {
			t.Errorf("Unreachable(%v) = %v, want %v", err, got, want)
		}
	}
}

// TestUnreachableRealErrors: opening a database whose port refuses, and
// using a store whose pool is closed, fail with unreachable errors.
func TestUnreachableRealErrors(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, err = postgres.Open(context.Background(), "postgres://edgeflow@"+addr+"/postgres?sslmode=disable", postgres.Options{})
	if err == nil || !postgres.Unreachable(err) {
		t.Fatalf("open of a refusing address: %v, want unreachable", err)
	}

	s, err := postgres.Open(context.Background(), testenv.PostgresSchema(t), postgres.Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	_, err = s.FindUserByID(context.Background(), "usr_x")
	if err == nil || !s.Unreachable(err) {
		t.Fatalf("query on a closed pool: %v, want unreachable", err)
	}
}
