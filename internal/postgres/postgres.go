// Package postgres implements edgeflow.Store on PostgreSQL through pgx
// (pgxpool), for running several API replicas on one database.
//
// Migrations are embedded and applied on Open in one transaction under a
// transaction-level advisory lock, so replicas starting together apply them
// once. Times are TIMESTAMPTZ (microsecond precision) and are returned in UTC;
// JSON documents are TEXT, kept byte for byte.
//
// The store's queries and logic are internal/sqlstore's, shared with the
// SQLite store; this package runs them through its driver (driver.go).
package postgres

import (
	"context"
	"embed"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the advisory lock key held while migrating.
const migrationLock int64 = 0x6564676566_6c6f77 // "edgeflow"

// DefaultConnectTimeout bounds each new connection when the database URL
// sets no connect_timeout: past it the request fails as unavailable (503).
const DefaultConnectTimeout = 5 * time.Second

// Options configures a Store.
type Options struct {
	// Logger receives operational messages; nil discards them.
	Logger *slog.Logger
	// Now is the clock used for CreatedAt/UpdatedAt; nil means time.Now.
	Now func() time.Time
	// MaxConns caps the pool (0 keeps pgxpool's default or the URL's
	// pool_max_conns).
	MaxConns int32
	// MigrateTo, when above 0, applies the migrations numbered up to it
	// only (edgeflow admin restore of an older archive; internal/backup).
	MigrateTo int
}

// shared is the engine-independent store logic; its methods are the
// Store's.
type shared = sqlstore.Store

// Store is an edgeflow.Store on PostgreSQL. It is safe for concurrent use.
type Store struct {
	*shared
	pool *pgxpool.Pool
	log  *slog.Logger
	now  func() time.Time

	bound sync.Map // query text with '?' -> query text with $n (driver.go)

	migrateTo int // Options.MigrateTo
}

var _ edgeflow.Store = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or key=value DSN;
// a search_path parameter selects the schema) and applies the pending
// migrations.
func Open(ctx context.Context, url string, opts Options) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: parse database URL: %w", err)
	}
	if opts.MaxConns > 0 {
		cfg.MaxConns = opts.MaxConns
	}
	cfg.ConnConfig.RuntimeParams["timezone"] = "UTC"
	if cfg.ConnConfig.ConnectTimeout == 0 {
		// Without a bound, a connection to an address that drops packets
		// waits for the kernel's TCP timeout (minutes) and so does the
		// request; a URL's connect_timeout wins.
		cfg.ConnConfig.ConnectTimeout = DefaultConnectTimeout
	}
	s := &Store{log: opts.Logger, now: opts.Now, migrateTo: opts.MigrateTo}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.shared = sqlstore.New(driver{s}, s.now, s.log)
	s.pool, err = pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	if err := s.migrate(ctx); err != nil {
		s.pool.Close()
		return nil, err
	}
	return s, nil
}

// migrate applies the embedded migrations not yet recorded in
// schema_migrations, in one transaction holding an advisory lock.
func (s *Store) migrate(ctx context.Context) error {
	return s.write(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return fmt.Errorf("postgres: migration lock: %w", err)
		}
		m := sqlstore.Migrations{FS: migrations, AppliedAtType: "TIMESTAMPTZ", UpTo: s.migrateTo, Exec: func(ctx context.Context, body string) error {
			_, err := tx.Exec(ctx, body, pgx.QueryExecModeSimpleProtocol)
			return err
		}}
		return m.Apply(ctx, pgTx{tx: tx, s: s}, driver{s}, s.now(), s.log)
	})
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

// Close closes the pool.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// write runs fn in one transaction (READ COMMITTED; the statements of each
// method lock the rows they depend on).
func (s *Store) write(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: begin: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback(context.WithoutCancel(ctx))
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		if (driver{s}).Classify(err) == sqlstore.ErrUnique {
			return &edgeflow.Error{Code: edgeflow.EConflict, Message: "record already exists", Err: err}
		}
		return fmt.Errorf("postgres: commit: %w", err)
	}
	return nil
}
