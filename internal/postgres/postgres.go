// Package postgres implements edgeflow.Store on PostgreSQL through pgx
// (pgxpool), for running several API replicas on one database.
//
// Migrations are embedded and applied on Open in one transaction under a
// transaction-level advisory lock, so replicas starting together apply them
// once. Times are TIMESTAMPTZ (microsecond precision) and are returned in UTC;
// JSON documents are TEXT, kept byte for byte.
package postgres

import (
	"context"
	"embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
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
}

// Store is an edgeflow.Store on PostgreSQL. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
	log  *slog.Logger
	now  func() time.Time

	touched   sync.Map // API key id -> last recorded use (unix micros)
	lastPrune atomic.Int64
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
	s := &Store{log: opts.Logger, now: opts.Now}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
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
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	return s.write(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
			return fmt.Errorf("postgres: migration lock: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL)`); err != nil {
			return fmt.Errorf("postgres: migrations table: %w", err)
		}
		applied := map[int]bool{}
		rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
		if err != nil {
			return fmt.Errorf("postgres: read migrations: %w", err)
		}
		for rows.Next() {
			var v int
			if err := rows.Scan(&v); err != nil {
				rows.Close()
				return err
			}
			applied[v] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, name := range names {
			base := strings.TrimPrefix(name, "migrations/")
			num, _, ok := strings.Cut(base, "_")
			v, err := strconv.Atoi(num)
			if !ok || err != nil {
				return fmt.Errorf("postgres: migration %s: name must start with a number and '_'", base)
			}
			if applied[v] {
				continue
			}
			body, err := migrations.ReadFile(name)
			if err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, string(body), pgx.QueryExecModeSimpleProtocol); err != nil {
				return fmt.Errorf("postgres: migration %s: %w", base, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)`,
				v, base, s.timestamp()); err != nil {
				return fmt.Errorf("postgres: record migration %s: %w", base, err)
			}
			s.log.Info("applied migration", "engine", "postgres", "migration", base)
		}
		return nil
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
		return dbErr(fmt.Errorf("postgres: commit: %w", err), "record", "", "")
	}
	return nil
}

// query runs a read query; pgx caches the prepared statement per connection.
func (s *Store) query(ctx context.Context, query string, args ...any) (pgx.Rows, error) {
	rows, err := s.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("postgres: query: %w", err)
	}
	return rows, nil
}

func (s *Store) queryRow(ctx context.Context, query string, args ...any) pgx.Row {
	return s.pool.QueryRow(ctx, query, args...)
}

// timestamp returns the clock's time in UTC at microsecond precision.
func (s *Store) timestamp() time.Time {
	return s.now().UTC().Truncate(time.Microsecond)
}

// norm returns t in UTC at the precision the database keeps.
func norm(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func normPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	n := norm(*t)
	return &n
}

// ts is a time argument at the stored precision.
func ts(t time.Time) time.Time { return norm(t) }

// nullTS is a nullable time argument at the stored precision.
func nullTS(t *time.Time) any {
	if t == nil {
		return nil
	}
	return norm(*t)
}

// rowScanner is pgx.Row or pgx.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// timeCol scans a TIMESTAMPTZ column into a time.Time in UTC.
type timeCol struct{ t *time.Time }

func (c timeCol) Scan(v any) error {
	t, ok := v.(time.Time)
	if !ok {
		return fmt.Errorf("postgres: time column holds %T", v)
	}
	*c.t = t.UTC()
	return nil
}

// nullTimeCol scans a nullable TIMESTAMPTZ column into a *time.Time in UTC.
type nullTimeCol struct{ t **time.Time }

func (c nullTimeCol) Scan(v any) error {
	if v == nil {
		*c.t = nil
		return nil
	}
	t, ok := v.(time.Time)
	if !ok {
		return fmt.Errorf("postgres: time column holds %T", v)
	}
	t = t.UTC()
	*c.t = &t
	return nil
}

// rawCol scans a nullable TEXT column into a json.RawMessage (nil for NULL).
type rawCol struct{ p *json.RawMessage }

func (c rawCol) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*c.p = nil
	case string:
		*c.p = json.RawMessage(v)
	case []byte:
		*c.p = append(json.RawMessage(nil), v...)
	default:
		return fmt.Errorf("postgres: JSON column holds %T", v)
	}
	return nil
}

// jsonCol scans a TEXT column holding JSON into the value p points to.
type jsonCol struct{ p any }

func (c jsonCol) Scan(v any) error {
	var b []byte
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		if v == "null" {
			return nil
		}
		switch p := c.p.(type) {
		case *[]edgeflow.WorkflowEnvVar:
			if v == "[]" {
				*p = []edgeflow.WorkflowEnvVar{}
				return nil
			}
		case *map[string]string:
			if v == "{}" {
				*p = map[string]string{}
				return nil
			}
		}
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("postgres: JSON column holds %T", v)
	}
	return json.Unmarshal(b, c.p)
}

// boolCol scans a BOOLEAN column.
type boolCol struct{ p *bool }

func (c boolCol) Scan(v any) error {
	b, ok := v.(bool)
	if !ok {
		return fmt.Errorf("postgres: boolean column holds %T", v)
	}
	*c.p = b
	return nil
}

func rawArg(m json.RawMessage) any {
	if len(m) == 0 {
		return nil
	}
	return string(m)
}

func jsonArg(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("postgres: encode JSON: %w", err)
	}
	return string(b), nil
}

// dbErr turns a driver error into a domain error: unique violations become
// EConflict with conflictMsg, foreign key violations ENotFound of parent, no
// rows ENotFound of what.
func dbErr(err error, what, conflictMsg, parent string) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return edgeflow.NotFound(what)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			if conflictMsg == "" {
				conflictMsg = what + " already exists"
			}
			return &edgeflow.Error{Code: edgeflow.EConflict, Message: conflictMsg, Err: err}
		case "23503": // foreign_key_violation
			if parent != "" {
				return &edgeflow.Error{Code: edgeflow.ENotFound, Message: parent + " not found", Err: err}
			}
		}
	}
	var de *edgeflow.Error
	if errors.As(err, &de) {
		return err
	}
	return fmt.Errorf("postgres: %s: %w", what, err)
}

// affected returns ENotFound of what when the command changed no row.
func affected(tag pgconn.CommandTag, err error, what string) error {
	if err != nil {
		return dbErr(err, what, "", "")
	}
	if tag.RowsAffected() == 0 {
		return edgeflow.NotFound(what)
	}
	return nil
}

// pageLimit applies the ListOptions limit rules: 0 (or less) means 50, above
// 100 means 100.
func pageLimit(n int) int {
	switch {
	case n <= 0:
		return 50
	case n > 100:
		return 100
	}
	return n
}

const cursorSep = "\x1f"

// encodeCursor makes the opaque cursor of a row from its sort key and id.
func encodeCursor(key, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(key + cursorSep + id))
}

func badCursor() error { return edgeflow.Invalid("/cursor", "invalid cursor") }

// decodeCursor returns the sort key and id of a cursor.
func decodeCursor(c string) (key, id string, err error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return "", "", badCursor()
	}
	key, id, ok := strings.Cut(string(b), cursorSep)
	if !ok || id == "" || strings.ContainsRune(key+id, 0) {
		return "", "", badCursor()
	}
	return key, id, nil
}

// keyset describes how a list is ordered: by key column then id, ascending or
// descending; timeKey/intKey tell the key column's type (text otherwise).
type keyset struct {
	key     string
	desc    bool
	intKey  bool
	timeKey bool
}

// listPage runs sel (a SELECT ... WHERE ... without ORDER BY) with keyset
// pagination. scan returns the item, its sort key rendered as a string and
// its id.
func listPage[T any](ctx context.Context, s *Store, sel string, args []any, ks keyset, opts edgeflow.ListOptions,
	scan func(rowScanner) (T, string, string, error)) (edgeflow.Page[T], error) {
	limit := pageLimit(opts.Limit)
	dir, cmp := "ASC", ">"
	if ks.desc {
		dir, cmp = "DESC", "<"
	}
	q := sel
	if opts.Cursor != "" {
		key, id, err := decodeCursor(opts.Cursor)
		if err != nil {
			return edgeflow.Page[T]{}, err
		}
		var k any = key
		if ks.intKey || ks.timeKey {
			n, err := strconv.ParseInt(key, 10, 64)
			if err != nil {
				return edgeflow.Page[T]{}, badCursor()
			}
			k = n
			if ks.timeKey {
				k = time.UnixMicro(n).UTC()
			}
		}
		args = append(args, k, id)
		q += fmt.Sprintf(" AND (%s, id) %s ($%d, $%d)", ks.key, cmp, len(args)-1, len(args))
	}
	args = append(args, limit+1)
	q += fmt.Sprintf(" ORDER BY %s %s, id %s LIMIT $%d", ks.key, dir, dir, len(args))
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return edgeflow.Page[T]{}, err
	}
	defer rows.Close()
	items := make([]T, 0, min(limit, 64))
	var lastKey, lastID string
	more := false
	for rows.Next() {
		if len(items) == limit {
			more = true
			break
		}
		it, key, id, err := scan(rows)
		if err != nil {
			return edgeflow.Page[T]{}, fmt.Errorf("postgres: scan: %w", err)
		}
		items = append(items, it)
		lastKey, lastID = key, id
	}
	if err := rows.Err(); err != nil {
		return edgeflow.Page[T]{}, fmt.Errorf("postgres: list: %w", err)
	}
	p := edgeflow.Page[T]{Items: items}
	if more {
		p.NextCursor = encodeCursor(lastKey, lastID)
	}
	return p, nil
}

func timeKey(t time.Time) string { return strconv.FormatInt(t.UnixMicro(), 10) }
