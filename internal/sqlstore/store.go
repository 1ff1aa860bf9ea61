package sqlstore

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Store implements the methods of edgeflow.Store on a Driver. An engine's
// store embeds it and adds what only it has (opening, migrations, Ping,
// Close, the classification of faults, a read cache in front of some reads).
type Store struct {
	d    Driver
	log  *slog.Logger
	now  func() time.Time
	name string

	touched   sync.Map // API key id -> last recorded use (unix micros)
	lastPrune atomic.Int64
}

// New returns the shared store on d. now is the clock used for CreatedAt
// and UpdatedAt (nil means time.Now); log receives operational messages (nil
// discards them).
func New(d Driver, now func() time.Time, log *slog.Logger) *Store {
	if now == nil {
		now = time.Now
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Store{d: d, now: now, log: log, name: d.Name()}
}

// timestamp returns the clock's time in UTC at microsecond precision.
func (s *Store) timestamp() time.Time {
	return s.now().UTC().Truncate(time.Microsecond)
}

// norm returns t in UTC at the precision the databases keep.
func norm(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

func normPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	n := norm(*t)
	return &n
}

// ts is a time argument.
func (s *Store) ts(t time.Time) any { return s.d.Time(norm(t)) }

// nullTS is a nullable time argument.
func (s *Store) nullTS(t *time.Time) any {
	if t == nil {
		return nil
	}
	return s.d.Time(norm(*t))
}

// lock returns clause (such as "FOR UPDATE") with a leading space for an
// engine with row locks, "" otherwise (Dialect.RowLocks).
func (s *Store) lock(clause string) string {
	if s.d.RowLocks() {
		return " " + clause
	}
	return ""
}

// query runs a read query.
func (s *Store) query(ctx context.Context, query string, args ...any) (Rows, error) {
	rows, err := s.d.Query(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: query: %w", s.name, err)
	}
	return rows, nil
}

// queryRow runs a single-row read query.
func (s *Store) queryRow(ctx context.Context, query string, args ...any) Row {
	return s.d.QueryRow(ctx, query, args...)
}

// write runs fn in one write transaction (Driver.Write).
func (s *Store) write(ctx context.Context, scope Scope, fn func(tx Querier) error) error {
	return s.d.Write(ctx, scope, fn)
}

// rowScanner is a Row or Rows.
type rowScanner interface{ Scan(dest ...any) error }

// timeCol scans a time column: INTEGER microseconds since the Unix epoch
// (SQLite) or a TIMESTAMPTZ (PostgreSQL), into a time.Time in UTC.
type timeCol struct{ t *time.Time }

func (c timeCol) Scan(v any) error {
	switch v := v.(type) {
	case int64:
		*c.t = time.UnixMicro(v).UTC()
	case time.Time:
		*c.t = v.UTC()
	default:
		return fmt.Errorf("time column holds %T", v)
	}
	return nil
}

// nullTimeCol scans a nullable time column into a *time.Time in UTC.
type nullTimeCol struct{ t **time.Time }

func (c nullTimeCol) Scan(v any) error {
	if v == nil {
		*c.t = nil
		return nil
	}
	var t time.Time
	if err := (timeCol{&t}).Scan(v); err != nil {
		return err
	}
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
		return fmt.Errorf("JSON column holds %T", v)
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
			if vars, ok := decodeEnvVars(v); ok {
				*p = vars
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
		return fmt.Errorf("JSON column holds %T", v)
	}
	return json.Unmarshal(b, c.p)
}

// boolCol scans a boolean column: BOOLEAN (PostgreSQL) or INTEGER 0/1
// (SQLite).
type boolCol struct{ p *bool }

func (c boolCol) Scan(v any) error {
	switch v := v.(type) {
	case bool:
		*c.p = v
	case int64:
		*c.p = v != 0
	default:
		return fmt.Errorf("boolean column holds %T", v)
	}
	return nil
}

// rawArg binds JSON text as TEXT. The string shares m's bytes rather than
// copying them (IRs are tens of kilobytes): both drivers copy a bound value
// before the statement returns, and m is not written meanwhile.
func rawArg(m json.RawMessage) any {
	if len(m) == 0 {
		return nil
	}
	return unsafe.String(unsafe.SliceData(m), len(m))
}

func (s *Store) jsonArg(v any) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("%s: encode JSON: %w", s.name, err)
	}
	return string(b), nil
}

// dbErr turns a driver error into a domain error: unique violations become
// EConflict with conflictMsg, foreign key violations ENotFound of parent, no
// rows ENotFound of what.
func (s *Store) dbErr(err error, what, conflictMsg, parent string) error {
	if err == nil {
		return nil
	}
	switch s.d.Classify(err) {
	case ErrNoRows:
		return edgeflow.NotFound(what)
	case ErrUnique:
		if conflictMsg == "" {
			conflictMsg = what + " already exists"
		}
		return &edgeflow.Error{Code: edgeflow.EConflict, Message: conflictMsg, Err: err}
	case ErrForeignKey:
		if parent != "" {
			return &edgeflow.Error{Code: edgeflow.ENotFound, Message: parent + " not found", Err: err}
		}
	}
	var de *edgeflow.Error
	if errors.As(err, &de) {
		return err
	}
	return fmt.Errorf("%s: %s: %w", s.name, what, err)
}

// noRows reports whether err is the engine's "no rows" error.
func (s *Store) noRows(err error) bool { return err != nil && s.d.Classify(err) == ErrNoRows }

// affected returns ENotFound of what when the statement changed no row.
func (s *Store) affected(n int64, err error, what string) error {
	if err != nil {
		return s.dbErr(err, what, "", "")
	}
	if n == 0 {
		return edgeflow.NotFound(what)
	}
	return nil
}

// PageLimit applies the ListOptions limit rules: 0 (or less) means 50, above
// 100 means 100.
func PageLimit(n int) int {
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

// decodeCursor returns the sort key and id of a cursor. A NUL byte is
// refused: no key or id holds one, and PostgreSQL's text cannot.
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
// descending; intKey and timeKey tell the key column's type (text
// otherwise). A time key is carried in cursors as Unix microseconds.
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
	limit := PageLimit(opts.Limit)
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
				k = s.d.Time(time.UnixMicro(n).UTC())
			}
		}
		q += " AND (" + ks.key + ", id) " + cmp + " (?, ?)"
		args = append(args, k, id)
	}
	q += " ORDER BY " + ks.key + " " + dir + ", id " + dir + " LIMIT ?"
	args = append(args, limit+1)
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
			return edgeflow.Page[T]{}, fmt.Errorf("%s: scan: %w", s.name, err)
		}
		items = append(items, it)
		lastKey, lastID = key, id
	}
	if err := rows.Err(); err != nil {
		return edgeflow.Page[T]{}, fmt.Errorf("%s: list: %w", s.name, err)
	}
	p := edgeflow.Page[T]{Items: items}
	if more {
		p.NextCursor = encodeCursor(lastKey, lastID)
	}
	return p, nil
}

func timeKey(t time.Time) string { return strconv.FormatInt(t.UnixMicro(), 10) }

// nullStrCol scans a nullable text column, NULL as "".
type nullStrCol struct{ p *string }

func (c nullStrCol) Scan(v any) error {
	switch v := v.(type) {
	case nil:
		*c.p = ""
	case string:
		*c.p = v
	case []byte:
		*c.p = string(v)
	default:
		return fmt.Errorf("text column holds %T", v)
	}
	return nil
}

// nullStr is the argument for a nullable text column: "" as NULL.
func nullStr(v string) any {
	if v == "" {
		return nil
	}
	return v
}
