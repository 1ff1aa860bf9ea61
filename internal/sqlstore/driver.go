// Package sqlstore holds the engine-independent part of edgeflow.Store: every
// query and the Go code around it (scanning, error mapping, keyset
// pagination, the logic of each write transaction), written once for the
// SQLite and PostgreSQL stores (internal/sqlite, internal/postgres).
//
// An engine plugs in through Driver: how to run a read, how to run a write
// transaction, and the few real differences between the two SQL dialects
// (Dialect). Queries are written with '?' placeholders; an engine whose
// driver wants another form ($1, $2, ...) rewrites them in its Driver.
package sqlstore

import (
	"context"
	"time"
)

// Row is the result of a single-row query; Scan reports the engine's "no
// rows" error when there was none (Dialect.Classify tells it apart).
type Row interface {
	Scan(dest ...any) error
}

// Rows is the result of a query, read with Next and Scan; Close may be
// called more than once.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Reader runs queries.
type Reader interface {
	Query(ctx context.Context, query string, args ...any) (Rows, error)
	QueryRow(ctx context.Context, query string, args ...any) Row
}

// Querier runs the statements of a write transaction.
type Querier interface {
	Reader
	// Exec runs a statement and returns the number of rows it changed.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
}

// Scope says which kinds of rows a write transaction can change, for an
// engine that caches reads (the SQLite store's read cache): a write with a
// narrow scope leaves the cached entries of the other kinds in place. An
// engine without a cache ignores it.
type Scope uint8

const (
	// ScopeNone: the write touches no table a cache reads from (workflows,
	// api_keys, nor any table whose deletes cascade into them).
	ScopeNone Scope = 0
	// ScopePages: the write can change what workflow list pages show.
	ScopePages Scope = 1 << iota
	// ScopeKeys: the write can change api_keys rows.
	ScopeKeys
	// ScopeRows: the write can change workflows rows read by id.
	ScopeRows
	// ScopeLists: the write can change workflows rows (list pages and rows).
	ScopeLists = ScopePages | ScopeRows
	// ScopeAll: anything.
	ScopeAll = ScopeLists | ScopeKeys
)

// ErrorKind is what a driver error means to the store.
type ErrorKind uint8

const (
	// ErrOther is any other error.
	ErrOther ErrorKind = iota
	// ErrNoRows: a single-row query found no row.
	ErrNoRows
	// ErrUnique: a unique or primary key constraint refused the row.
	ErrUnique
	// ErrForeignKey: a foreign key constraint refused the row.
	ErrForeignKey
)

// Dialect holds the differences between the engines' SQL and values. Every
// difference the shared queries depend on is here, and nowhere else.
type Dialect interface {
	// Name is the engine's name, the prefix of the errors the store wraps
	// ("sqlite", "postgres").
	Name() string
	// Time is the argument for a time column: the time in UTC at
	// microsecond precision, in the column's encoding. Scanning accepts
	// what either engine returns (see timeCol).
	Time(t time.Time) any
	// Bool is the argument for a boolean column.
	Bool(b bool) any
	// RowLocks reports whether the engine locks single rows (SELECT ... FOR
	// UPDATE and its kin). Without row locks, as in SQLite, a write
	// transaction holds the database's write lock from its start, which is
	// stronger, and the store leaves the lock clauses out (Store.lock).
	RowLocks() bool
	// PacksText reports whether large version texts (IR, code) are stored
	// compressed (packed.go).
	PacksText() bool
	// Classify tells what a driver error means (ErrOther for nil).
	Classify(err error) ErrorKind
	// RunSearch is the condition on the runs table (unaliased) that holds
	// for runs whose params, output, error and step words (StepWords)
	// contain every word of q, with its one argument: a full-text index
	// lookup (SQLite's FTS5 table runs_search, PostgreSQL's runs.search
	// tsvector).
	RunSearch(q string) (cond string, arg any)
	// EventLock is the statement a write transaction runs before it stores
	// an event, so that events become visible in the order of their seq
	// (readers page by seq): on PostgreSQL a transaction-scoped advisory
	// lock; "" on an engine whose write transactions take turns anyway.
	EventLock() string
}

// Driver is what an engine gives the shared store.
type Driver interface {
	Dialect
	// Reader runs reads outside of a transaction.
	Reader
	// Write runs fn in one write transaction and commits it when fn
	// returns nil, rolls it back otherwise. scope says which cached kinds
	// the transaction can change.
	Write(ctx context.Context, scope Scope, fn func(tx Querier) error) error
	// Prepare tells the driver that the next write transaction runs
	// queries; a driver may prepare them beforehand (SQLite prepares them
	// once on its writer connection, which a transaction holds).
	Prepare(ctx context.Context, queries ...string) error
	// Submitted is called after SubmitVersion's transaction: versionID was
	// made the workflow's current version when err is nil, and nothing is
	// known of the workflow row otherwise (a cache drops it).
	Submitted(workflowID, versionID string, err error)
}
