package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
)

// Group commit (decision 800). SQLite has one writer: every write
// transaction of the process runs on the one writer connection, one after
// another, and each paid its own BEGIN and COMMIT, whose WAL frames rewrite
// the same pages (the runs table's last leaf, its indexes' leaves, the run
// events) for every run. Writers that arrive while a transaction runs now
// queue; the first of them, once the connection is free, runs every queued
// write in one transaction, each inside a savepoint of its own, and commits
// once. A write that fails is rolled back to its savepoint and fails alone;
// a commit that fails fails every write of the batch; the writes of one
// batch run in the order they queued, so each sees the ones before it, as
// they would one by one. A write alone runs as before, with no savepoint.

// maxBatch bounds the writes one transaction commits together, so that a
// long queue is taken in several commits and the first writers need not wait
// for the last.
const maxBatch = 64

// queuedWrite is one write transaction's work in the queue.
type queuedWrite struct {
	ctx   context.Context
	sc    writeScope
	fn    func(tx *sql.Tx) error
	err   error
	panic any           // a panic of fn, raised again in the writer's goroutine
	done  chan struct{} // closed when another writer ran it
	lead  chan struct{} // closed when it is to run the queue itself
}

// writeQueue holds the writes waiting for the writer connection.
type writeQueue struct {
	mu      sync.Mutex
	running bool
	waiting []*queuedWrite
}

// writeScoped is write for a transaction that can change only the kinds of
// cache entries in sc (cache.go): the other kinds stay cached. It runs fn
// with the writes queued meanwhile, in one transaction (group commit above).
func (s *Store) writeScoped(ctx context.Context, sc writeScope, fn func(tx *sql.Tx) error) error {
	w := &queuedWrite{ctx: ctx, sc: sc, fn: fn}
	q := &s.queue
	q.mu.Lock()
	if q.running {
		w.done, w.lead = make(chan struct{}), make(chan struct{})
		q.waiting = append(q.waiting, w)
		q.mu.Unlock()
		select {
		case <-w.done:
			return w.result()
		case <-w.lead:
			// the writer before left the queue to this one, which is at its head
		}
		q.mu.Lock()
	} else {
		q.running = true
		q.waiting = append(q.waiting, w)
	}
	n := batchable(q.waiting)
	batch := q.waiting[:n:n]
	q.waiting = q.waiting[n:]
	q.mu.Unlock()

	s.commitBatch(batch)

	q.mu.Lock()
	if len(q.waiting) > 0 {
		close(q.waiting[0].lead)
	} else {
		q.running = false
	}
	q.mu.Unlock()
	for _, o := range batch {
		if o != w {
			close(o.done)
		}
	}
	return w.result()
}

// batchable answers how many writes at the head of waiting run in one
// transaction: the head, and the writes after it whose contexts cannot be
// cancelled, up to maxBatch. A write whose context can end runs alone: SQLite
// answers a cancelled statement by interrupting the connection, which rolls
// back the whole transaction, and one caller that gives up must not fail the
// writes of others (the run writes of triggers and the refresher, which make
// the bursts, do not end with their request).
func batchable(waiting []*queuedWrite) int {
	if waiting[0].ctx.Done() != nil {
		return 1
	}
	n := 1
	for n < len(waiting) && n < maxBatch && waiting[n].ctx.Done() == nil {
		n++
	}
	return n
}

func (w *queuedWrite) result() error {
	if w.panic != nil {
		panic(w.panic)
	}
	return w.err
}

// commitBatch runs the writes of batch in one transaction and commits it,
// leaving each write's outcome in its err (or panic).
func (s *Store) commitBatch(batch []*queuedWrite) {
	fail := func(err error) {
		for _, w := range batch {
			if w.err == nil && w.panic == nil {
				w.err = err
			}
		}
	}
	ctx := batch[0].ctx
	tx, err := s.begin(ctx)
	if err != nil {
		fail(fmt.Errorf("sqlite: begin: %w", err))
		return
	}
	var sc writeScope
	for _, w := range batch {
		sc |= w.sc
	}
	h0, hok := s.cache.beginWrite()
	defer s.cache.endWrite(h0, hok, sc)
	if len(batch) == 1 {
		if batch[0].run(tx); batch[0].err != nil || batch[0].panic != nil {
			tx.Rollback()
			return
		}
	} else {
		ok := 0
		for _, w := range batch {
			if _, err := tx.ExecContext(ctx, "SAVEPOINT batched_write"); err != nil {
				tx.Rollback()
				fail(fmt.Errorf("sqlite: savepoint: %w", err))
				return
			}
			if w.run(tx); w.err != nil || w.panic != nil {
				_, err = tx.ExecContext(ctx, "ROLLBACK TO batched_write")
			} else {
				ok++
			}
			if err == nil {
				_, err = tx.ExecContext(ctx, "RELEASE batched_write")
			}
			if err != nil {
				tx.Rollback()
				fail(fmt.Errorf("sqlite: savepoint: %w", err))
				return
			}
		}
		if ok == 0 {
			tx.Rollback()
			return
		}
	}
	if err := tx.Commit(); err != nil {
		fail(fmt.Errorf("sqlite: commit: %w", err))
		return
	}
	s.ckpt.wrote()
}

// run runs the write's fn in tx, keeping a panic for its writer.
func (w *queuedWrite) run(tx *sql.Tx) {
	defer func() {
		if p := recover(); p != nil {
			w.panic = p
		}
	}()
	w.err = w.fn(tx)
}
