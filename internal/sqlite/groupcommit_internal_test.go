package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// openScratch opens a store with a table of its own for the group commit
// tests to write.
func openScratch(t *testing.T) *Store {
	t.Helper()
	s, err := Open(t.Context(), filepath.Join(t.TempDir(), "edgeflow.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.write(t.Context(), func(tx *sql.Tx) error {
		_, err := tx.Exec(`CREATE TABLE scratch (k TEXT PRIMARY KEY)`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return s
}

func insert(k string) func(tx *sql.Tx) error {
	return func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO scratch (k) VALUES (?)`, k)
		return err
	}
}

func keys(t *testing.T, s *Store) map[string]bool {
	t.Helper()
	rows, err := s.w.Query(`SELECT k FROM scratch`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var k string
		rows.Scan(&k)
		out[k] = true
	}
	return out
}

// holdWriter starts a write that keeps the writer connection until release
// is closed, and waits until it runs, so that the writes after it queue.
func holdWriter(t *testing.T, s *Store) (release chan struct{}, done chan error) {
	release, done, running := make(chan struct{}), make(chan error, 1), make(chan struct{})
	go func() {
		done <- s.write(context.Background(), func(tx *sql.Tx) error {
			close(running)
			<-release
			_, err := tx.Exec(`INSERT INTO scratch (k) VALUES ('first')`)
			return err
		})
	}()
	<-running
	return release, done
}

// waitQueued waits until n writes wait in the queue.
func waitQueued(t *testing.T, s *Store, n int) {
	t.Helper()
	testenv.WaitFor(t, 10*time.Second, time.Millisecond, fmt.Sprintf("%d writes in the queue", n), func() (bool, string) {
		s.queue.mu.Lock()
		got := len(s.queue.waiting)
		s.queue.mu.Unlock()
		return got == n, fmt.Sprintf("%d queued", got)
	})
}

// TestGroupCommit: writes that queue behind a running transaction commit
// together; one that fails, and one that panics, take back only their own
// writes, and a panic reaches its own writer.
func TestGroupCommit(t *testing.T) {
	s := openScratch(t)
	release, first := holdWriter(t, s)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	var panicked any
	writes := []func(tx *sql.Tx) error{
		insert("a"),
		func(tx *sql.Tx) error { // writes, then fails: its row is taken back
			if err := insert("b")(tx); err != nil {
				return err
			}
			return errors.New("b refused")
		},
		func(tx *sql.Tx) error { // writes, then panics
			insert("c")(tx)
			panic("c broke")
		},
		insert("d"),
	}
	for i, fn := range writes {
		waitQueued(t, s, i)
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					panicked = p
				}
			}()
			errs[i] = s.write(context.Background(), fn)
		})
	}
	waitQueued(t, s, len(writes))
	before := s.ckpt.writes.Load()
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if errs[0] != nil || errs[3] != nil || errs[1] == nil || errs[1].Error() != "b refused" {
		t.Errorf("errors %v, want a and d written and b refused", errs)
	}
	if panicked != "c broke" {
		t.Errorf("the panicking write's writer saw %v", panicked)
	}
	got := keys(t, s)
	for k, want := range map[string]bool{"first": true, "a": true, "b": false, "c": false, "d": true} {
		if got[k] != want {
			t.Errorf("row %s stored %v, want %v", k, got[k], want)
		}
	}
	// the first write's transaction, and one for the four queued ones
	if n := s.ckpt.writes.Load() - before; n != 2 {
		t.Errorf("%d commits, want 2 (the held write's and one for the queue)", n)
	}
}

// TestGroupCommitCancellable: a write whose context can be cancelled runs in
// a transaction of its own, and cancelling it fails it alone.
func TestGroupCommitCancellable(t *testing.T) {
	s := openScratch(t)
	release, first := holdWriter(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var errA, errB, errC error
	wg.Go(func() { errA = s.write(context.Background(), insert("a")) })
	waitQueued(t, s, 1)
	wg.Go(func() {
		errB = s.write(ctx, func(tx *sql.Tx) error {
			insert("b")(tx)
			cancel()
			return ctx.Err()
		})
	})
	waitQueued(t, s, 2)
	wg.Go(func() { errC = s.write(context.Background(), insert("c")) })
	waitQueued(t, s, 3)
	before := s.ckpt.writes.Load()
	close(release)
	<-first
	wg.Wait()
	if errA != nil || errC != nil || !errors.Is(errB, context.Canceled) {
		t.Errorf("errors a %v, b %v, c %v: want a and c written, b cancelled", errA, errB, errC)
	}
	got := keys(t, s)
	if !got["a"] || got["b"] || !got["c"] {
		t.Errorf("rows %v, want a and c", got)
	}
	if n := s.ckpt.writes.Load() - before; n != 3 {
		t.Errorf("%d commits, want 3 (the held write, a, and c; b rolled back)", n)
	}
}
