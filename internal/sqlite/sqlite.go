// Package sqlite implements edgeflow.Store on an embedded SQLite database
// (modernc.org/sqlite, no cgo).
//
// The database runs in WAL mode with foreign keys on. Writes go through one
// connection (a *sql.DB limited to one open connection) and every write
// transaction starts with BEGIN IMMEDIATE, so writers queue on the busy
// timeout instead of failing on lock upgrades, also when another process (such
// as `edgeflow admin bootstrap`) writes to the same file. Reads use a separate
// pool of read-only connections. Times are stored as integer microseconds
// since the Unix epoch, in UTC.
//
// The store's queries and logic are internal/sqlstore's, shared with the
// PostgreSQL store; this package runs them through its driver (driver.go) and
// keeps a read cache in front of some reads (cache.go, cached.go).
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlstore"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

//go:embed migrations/*.sql
var migrations embed.FS

// busyTimeout is how long a statement waits for a lock held by another
// connection or process before failing.
const busyTimeout = 10 * time.Second

// Options configures a Store.
type Options struct {
	// Logger receives operational messages; nil discards them.
	Logger *slog.Logger
	// Now is the clock used for CreatedAt/UpdatedAt; nil means time.Now.
	Now func() time.Time

	// NoReadCache turns the read cache off (cache.go): every read queries
	// the database. The cache is on by default; turn it off to rule it out
	// when diagnosing, or where the database file's WAL-index lives on a
	// file system that does not share memory maps between processes.
	NoReadCache bool

	noShmWatch bool // tests: detect other connections' commits with PRAGMA data_version only
}

// shared is the engine-independent store logic; its methods are the
// Store's.
type shared = sqlstore.Store

// Store is an edgeflow.Store on a SQLite file. It is safe for concurrent use.
type Store struct {
	*shared
	w   *sql.DB // the one writer connection
	r   *sql.DB // read-only pool
	log *slog.Logger
	now func() time.Time

	stmts  sync.Map // query text -> *sql.Stmt prepared on r
	wstmts sync.Map // query text -> *sql.Stmt prepared on w, or nil when it cannot be
	nwstmt atomic.Int32
	ckpt   checkpointer
	cache  readCache  // workflow list pages and API keys (cache.go)
	queue  writeQueue // writes waiting for the writer connection (groupcommit.go)
}

var _ edgeflow.Store = (*Store)(nil)

// Open opens (creating if needed) the SQLite database at path and applies the
// pending migrations in one transaction. Two processes opening the same file
// at once are safe: the migration transaction holds the write lock.
func Open(ctx context.Context, path string, opts Options) (*Store, error) {
	if path == "" {
		return nil, errors.New("sqlite: empty database path")
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("sqlite: database path %q must not contain '?' or '#'", path)
	}
	s := &Store{log: opts.Logger, now: opts.Now}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	s.shared = sqlstore.New(driver{s}, s.now, s.log)
	common := fmt.Sprintf("_pragma=busy_timeout(%d)&_pragma=foreign_keys(1)", busyTimeout.Milliseconds())
	w, err := sql.Open("sqlite", path+"?"+common+"&_txlock=immediate&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"+
		"&_pragma=wal_autocheckpoint(0)")
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	s.w = w
	if err := s.migrate(ctx); err != nil {
		w.Close()
		return nil, err
	}
	readDSN := path + "?" + common + "&_pragma=query_only(1)"
	r, err := sql.Open("sqlite", readDSN)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	n := max(4, runtime.GOMAXPROCS(0)*2)
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	r.SetConnMaxIdleTime(0)
	s.r = r
	if err := r.PingContext(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if opts.NoReadCache {
		s.log.Info("read cache off", "engine", "sqlite")
	} else if err := s.cache.openWatch(ctx, readDSN); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if !opts.noShmWatch && !opts.NoReadCache {
		if w, err := openShmWatch(path); err == nil {
			s.cache.watchShm(w)
		} else {
			s.log.Info("read cache checks PRAGMA data_version", "engine", "sqlite", "reason", err.Error())
		}
	}
	if err := s.ckpt.start(ctx, path+"?_pragma=busy_timeout(100)", s.log); err != nil {
		s.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return s, nil
}

// migrate applies the embedded migrations not yet recorded in
// schema_migrations, all in one IMMEDIATE transaction.
func (s *Store) migrate(ctx context.Context) error {
	return s.write(ctx, func(tx *sql.Tx) error {
		m := sqlstore.Migrations{FS: migrations, AppliedAtType: "INTEGER", Exec: func(ctx context.Context, body string) error {
			_, err := tx.ExecContext(ctx, body)
			return err
		}}
		return m.Apply(ctx, &sqlTx{tx: tx, s: s}, driver{s}, s.now(), s.log)
	})
}

// Ping checks that both the writer and the reader pool answer.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.r.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ping: %w", err)
	}
	return nil
}

// Close releases the prepared statements, the read cache and both
// connection pools.
func (s *Store) Close() error {
	errs := []error{s.ckpt.stop()}
	for _, m := range []*sync.Map{&s.stmts, &s.wstmts} {
		m.Range(func(k, v any) bool {
			if st, ok := v.(*sql.Stmt); ok {
				st.Close()
			}
			return true
		})
	}
	errs = append(errs, s.cache.close())
	if s.r != nil {
		errs = append(errs, s.r.Close())
	}
	if s.w != nil {
		errs = append(errs, s.w.Close())
	}
	errs = append(errs, s.cache.releaseShm())
	return errors.Join(errs...)
}

// write runs fn in one IMMEDIATE transaction on the writer connection. Every
// write ends the read cache's generation once it is over, committed or not,
// so no Store method that changes rows can leave a stale cache entry behind.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	return s.writeScoped(ctx, scopeAll, fn)
}

// begin starts a write transaction (BEGIN IMMEDIATE). SQLite waits for the
// write lock up to the busy timeout, but answers SQLITE_BUSY at once in a
// few states it cannot wait in, such as another connection recovering the
// WAL index or turning a new file into WAL mode (several processes opening
// one new database); those are retried here, within the same timeout.
func (s *Store) begin(ctx context.Context) (*sql.Tx, error) {
	deadline := time.Now().Add(busyTimeout)
	for delay := time.Millisecond; ; delay = min(2*delay, 50*time.Millisecond) {
		tx, err := s.w.BeginTx(ctx, nil)
		if err == nil || !isBusy(err) || time.Now().After(deadline) {
			return tx, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(delay):
		}
	}
}

// isBusy reports whether err is SQLITE_BUSY (any extended code).
func isBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// wstmt returns query prepared on the writer connection, preparing it once;
// use it in a write transaction through tx.StmtContext, which reuses the
// connection's prepared statement. Call it outside the transaction: the
// writer pool has a single connection.
func (s *Store) wstmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.wstmts.Load(query); ok && st != nil {
		return st.(*sql.Stmt), nil
	}
	st, err := s.w.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("sqlite: prepare: %w", err)
	}
	if prev, loaded := s.wstmts.LoadOrStore(query, st); loaded {
		if prev != nil {
			st.Close()
			return prev.(*sql.Stmt), nil
		}
		s.wstmts.Store(query, st) // once refused, prepared ahead now
	}
	return st, nil
}

// maxWstmts bounds the statements kept prepared on the writer connection:
// the store's write statements are a few dozen texts; one built with a
// varying shape (an IN list) is not kept past the bound.
const maxWstmts = 256

// wantWstmt reports whether query may be kept prepared on the writer
// connection: one statement (no ';', which migrations and scripts hold)
// while there is room.
func (s *Store) wantWstmt(query string) bool {
	return s.nwstmt.Load() < maxWstmts && !strings.Contains(query, ";")
}

// wstmtLater prepares on the writer connection a statement a write
// transaction ran unprepared, so that the next ones run it prepared; one
// that does not prepare is remembered as such. Call it outside the
// transaction.
func (s *Store) wstmtLater(ctx context.Context, query string) {
	if _, ok := s.wstmts.Load(query); ok || !s.wantWstmt(query) {
		return
	}
	st, err := s.w.PrepareContext(ctx, query)
	if err != nil {
		if ctx.Err() == nil {
			s.wstmts.LoadOrStore(query, nil)
		}
		return
	}
	if _, loaded := s.wstmts.LoadOrStore(query, st); loaded {
		st.Close()
		return
	}
	s.nwstmt.Add(1)
}

// stmt returns query prepared on the reader pool, preparing it once.
func (s *Store) stmt(ctx context.Context, query string) (*sql.Stmt, error) {
	if st, ok := s.stmts.Load(query); ok {
		return st.(*sql.Stmt), nil
	}
	st, err := s.r.PrepareContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("sqlite: prepare: %w", err)
	}
	if prev, loaded := s.stmts.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt), nil
	}
	return st, nil
}

// query runs a read query through the statement cache.
func (s *Store) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	st, err := s.stmt(ctx, query)
	if err != nil {
		// QueryContext on a fresh statement reports the same error.
		return s.r.QueryContext(ctx, query, args...)
	}
	return st.QueryContext(ctx, args...)
}

// queryRow runs a single-row read query through the statement cache.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	st, err := s.stmt(ctx, query)
	if err != nil {
		// QueryRowContext on a fresh statement reports the same error via Scan.
		return s.r.QueryRowContext(ctx, query, args...)
	}
	return st.QueryRowContext(ctx, args...)
}
