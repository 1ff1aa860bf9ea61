package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/edgeflow/edgeflow/internal/sqlstore"
	sqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// driver runs the shared store (internal/sqlstore) on SQLite: reads through
// the reader pool's statement cache, writes in IMMEDIATE transactions on the
// one writer connection, each ending the read cache's generation of what its
// scope can change.
type driver struct{ s *Store }

var _ sqlstore.Driver = driver{}

func (driver) Name() string { return "sqlite" }

// Time: times are INTEGER microseconds since the Unix epoch.
func (driver) Time(t time.Time) any { return t.UnixMicro() }

// Bool: booleans are INTEGER 0 or 1.
func (driver) Bool(b bool) any {
	if b {
		return 1
	}
	return 0
}

// RowLocks: none; every write transaction holds the database's write lock
// from its start (BEGIN IMMEDIATE).
func (driver) RowLocks() bool { return false }

// EventLock: none needed; write transactions take turns (BEGIN IMMEDIATE).
func (driver) EventLock() string { return "" }

// PacksText: a version's IR and code are stored compressed from a size on
// (docs/decisions.md 54).
func (driver) PacksText() bool { return true }

// RunSearch matches the FTS5 index runs_search (migration 0013), whose rowid
// is the run's rowid: every word of q, each as a quoted string (FTS5 query
// syntax in q stays plain text). The store uses it only where it cannot
// walk the index in rowid order (RunSearchMatch).
func (d driver) RunSearch(q string) (string, any) {
	match, ok := d.RunSearchMatch(q)
	if !ok {
		return `? IS NULL`, "" // no word: nothing matches
	}
	return `rowid IN (SELECT rowid FROM runs_search WHERE runs_search MATCH ?)`, match
}

// RunSearchMatch makes the driver a sqlstore.RowidOrderedRuns: the runs
// table's rowids follow creation order (migration 0016), so the store
// reads word matches newest first from the FTS5 index. The query holds
// every word of q as a quoted string; ok is false when q has no word.
func (driver) RunSearchMatch(q string) (string, bool) {
	var terms []string
	for _, w := range searchWords(q) {
		terms = append(terms, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
	}
	return strings.Join(terms, " "), len(terms) > 0
}

// searchWords splits q into words at anything other than letters and
// digits, as the FTS5 unicode61 tokenizer does.
func searchWords(q string) []string {
	return strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func (driver) Classify(err error) sqlstore.ErrorKind {
	if err == nil {
		return sqlstore.ErrOther
	}
	if errors.Is(err, sql.ErrNoRows) {
		return sqlstore.ErrNoRows
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() {
		case sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY:
			return sqlstore.ErrUnique
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			return sqlstore.ErrForeignKey
		}
	}
	return sqlstore.ErrOther
}

func (d driver) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	rows, err := d.s.query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (d driver) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	return d.s.queryRow(ctx, query, args...)
}

func (d driver) Write(ctx context.Context, scope sqlstore.Scope, fn func(tx sqlstore.Querier) error) error {
	t := &sqlTx{s: d.s}
	err := d.s.writeScoped(ctx, scope, func(tx *sql.Tx) error {
		t.tx, t.missed = tx, t.missed[:0]
		return fn(t)
	})
	// Outside the transaction (the writer pool has one connection): the
	// statements it ran unprepared are prepared for the next ones.
	for _, q := range t.missed {
		d.s.wstmtLater(context.WithoutCancel(ctx), q)
	}
	return err
}

// Prepare prepares queries on the writer connection (once per query text),
// so that the transaction runs them as prepared statements.
func (d driver) Prepare(ctx context.Context, queries ...string) error {
	for _, q := range queries {
		if _, err := d.s.wstmt(ctx, q); err != nil {
			return err
		}
	}
	return nil
}

// Submitted patches the cached workflow row with its new current version,
// or drops the cached rows when the submission failed.
func (d driver) Submitted(workflowID, versionID string, err error) {
	if err != nil {
		d.s.cache.invalidate(scopeRows) // whatever happened to the row, do not serve it from the cache
		return
	}
	d.s.cache.patchRow(workflowID, versionID)
}

// sqlRows is *sql.Rows as sqlstore.Rows.
type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

// sqlTx is a write transaction. A statement runs prepared on the writer
// connection when it ran before (Store.wstmtLater) or was prepared ahead
// (Driver.Prepare): parsing a statement, with the triggers it fires, costs
// more than running it.
type sqlTx struct {
	tx     *sql.Tx
	s      *Store
	missed []string // statements run unprepared, to prepare after the transaction
}

// stmt returns query prepared for the transaction, or nil when it is not
// prepared yet (noted for afterwards) or never will be.
func (t *sqlTx) stmt(ctx context.Context, query string) *sql.Stmt {
	st, ok := t.s.wstmts.Load(query)
	if !ok {
		if t.s.wantWstmt(query) && !slices.Contains(t.missed, query) {
			t.missed = append(t.missed, query)
		}
		return nil
	}
	if st == nil {
		return nil
	}
	return t.tx.StmtContext(ctx, st.(*sql.Stmt))
}

func (t *sqlTx) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	var res sql.Result
	var err error
	if st := t.stmt(ctx, query); st != nil {
		res, err = st.ExecContext(ctx, args...)
	} else {
		res, err = t.tx.ExecContext(ctx, query, args...)
	}
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (t *sqlTx) Query(ctx context.Context, query string, args ...any) (sqlstore.Rows, error) {
	var rows *sql.Rows
	var err error
	if st := t.stmt(ctx, query); st != nil {
		rows, err = st.QueryContext(ctx, args...)
	} else {
		rows, err = t.tx.QueryContext(ctx, query, args...)
	}
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (t *sqlTx) QueryRow(ctx context.Context, query string, args ...any) sqlstore.Row {
	if st := t.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}
