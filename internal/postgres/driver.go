package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/sqlstore"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// driver runs the shared store (internal/sqlstore) on PostgreSQL through the
// pool; pgx prepares and caches each statement per connection.
type driver struct{ s *Store }

var _ sqlstore.Driver = driver{}

func (driver) Name() string { return "postgres" }

// Time: times are TIMESTAMPTZ.
func (driver) Time(t time.Time) any { return t }

// Bool: booleans are BOOLEAN.
func (driver) Bool(b bool) any { return b }

// RowLocks: transactions run at READ COMMITTED and lock the rows they
// depend on (FOR UPDATE, FOR SHARE, SKIP LOCKED).
func (driver) RowLocks() bool { return true }

// EventLock: a transaction-scoped advisory lock (its key is fixed, the
// ASCII of "evnt"), so that events commit in the order of their seq.
func (driver) EventLock() string { return `SELECT pg_advisory_xact_lock(1702260340)` }

// PacksText: version texts are TEXT as they are.
func (driver) PacksText() bool { return false }

// RunSearch matches the generated tsvector column runs.search (migration
// 0013) with the words of q, all required, in the simple configuration
// (no stemming, no stop words).
func (driver) RunSearch(q string) (string, any) {
	return `search @@ plainto_tsquery('simple', ?)`, q
}

func (driver) Classify(err error) sqlstore.ErrorKind {
	if err == nil {
		return sqlstore.ErrOther
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return sqlstore.ErrNoRows
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "23505": // unique_violation
			return sqlstore.ErrUnique
		case "23503": // foreign_key_violation
			return sqlstore.ErrForeignKey
		}
	}
	return sqlstore.ErrOther
}

func (d driver) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := d.s.pool.Query(ctx, d.s.bind(query), args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (d driver) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return d.s.pool.QueryRow(ctx, d.s.bind(query), args...)
}

func (d driver) Write(ctx context.Context, _ sqlstore.Scope, fn func(tx sqlstore.Querier) error) error {
	return d.s.write(ctx, func(tx pgx.Tx) error { return fn(pgTx{tx: tx, s: d.s}) })
}

// Prepare does nothing: pgx prepares each statement on first use on a
// connection.
func (driver) Prepare(context.Context, ...string) error { return nil }

// Submitted does nothing: nothing is cached.
func (driver) Submitted(string, string, error) {}

// pgTx is a write transaction.
type pgTx struct {
	tx pgx.Tx
	s  *Store
}

func (t pgTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	tag, err := t.tx.Exec(ctx, t.s.bind(query), args...)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

func (t pgTx) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := t.tx.Query(ctx, t.s.bind(query), args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (t pgTx) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return t.tx.QueryRow(ctx, t.s.bind(query), args...)
}

// bind returns query with its '?' placeholders numbered as PostgreSQL wants
// them ($1, $2, ...), from a cache: the shared store's query texts are
// built from a fixed set of pieces.
func (s *Store) bind(query string) string {
	if q, ok := s.bound.Load(query); ok {
		return q.(string)
	}
	q := rebind(query)
	s.bound.Store(query, q)
	return q
}

// rebind numbers the '?' placeholders of query, leaving those inside quoted
// strings and identifiers alone.
func rebind(query string) string {
	if strings.IndexByte(query, '?') < 0 {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 16)
	n := 0
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
