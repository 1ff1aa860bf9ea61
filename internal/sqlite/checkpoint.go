package sqlite

import (
	"context"
	"database/sql"
	"log/slog"
	"sync/atomic"
	"time"
)

// The writer connection runs with wal_autocheckpoint off: SQLite would
// otherwise copy the WAL back into the database inside whichever commit
// crosses the threshold (1000 pages, every few dozen version submissions),
// on the request's time. A checkpointer goroutine does it instead, on its
// own connection:
//
//   - a PASSIVE checkpoint after every checkpointEvery writes of the Store,
//     and at the next tick (every checkpointTick) when there were writes since
//     the last one. PASSIVE takes no lock that writers or readers wait for,
//     so it runs beside requests;
//   - a TRUNCATE checkpoint at the first tick without writes, so that the WAL
//     file shrinks back to nothing when the Store is idle instead of keeping
//     its largest size. It waits at most the connection's short busy timeout
//     for readers and writers and is retried at the next idle tick when it
//     could not finish.
//
// Other processes writing the same file (`edgeflow admin bootstrap`) keep
// their own automatic checkpoints; SQLite serializes checkpointers with its
// own locks, so any mix of them is safe.
type checkpointer struct {
	db     *sql.DB
	log    *slog.Logger
	kick   chan struct{} // buffered 1: checkpointEvery more writes happened
	cancel context.CancelFunc
	exited chan struct{}
	writes atomic.Uint64 // write transactions committed by the Store
}

const (
	checkpointEvery = 64
	checkpointTick  = time.Second
)

// start opens the checkpoint connection on dsn and starts the goroutine.
func (c *checkpointer) start(ctx context.Context, dsn string, log *slog.Logger) error {
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	c.db, c.log, c.cancel = db, log, cancel
	c.kick = make(chan struct{}, 1)
	c.exited = make(chan struct{})
	go c.run(runCtx)
	return nil
}

// wrote counts one committed write transaction.
func (c *checkpointer) wrote() {
	if c.writes.Add(1)%checkpointEvery == 0 && c.kick != nil {
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
}

// stop ends the goroutine and closes its connection; a no-op when start
// was not called.
func (c *checkpointer) stop() error {
	if c.cancel == nil {
		return nil
	}
	c.cancel()
	<-c.exited
	c.cancel = nil
	return c.db.Close()
}

func (c *checkpointer) run(ctx context.Context) {
	defer close(c.exited)
	t := time.NewTicker(checkpointTick)
	defer t.Stop()
	seen := c.writes.Load() // writes at the last checkpoint
	truncated := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-c.kick:
			seen = c.writes.Load()
			c.checkpoint(ctx, "PASSIVE")
			truncated = false
		case <-t.C:
			if n := c.writes.Load(); n != seen {
				seen = n
				c.checkpoint(ctx, "PASSIVE")
				truncated = false
			} else if !truncated {
				truncated = c.checkpoint(ctx, "TRUNCATE")
			}
		}
	}
}

// checkpoint runs PRAGMA wal_checkpoint(mode) and reports whether it
// completed (no reader or writer was in the way).
func (c *checkpointer) checkpoint(ctx context.Context, mode string) bool {
	var busy, logPages, done int
	err := c.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &logPages, &done)
	if err != nil {
		if ctx.Err() == nil {
			c.log.Warn("WAL checkpoint failed", "engine", "sqlite", "mode", mode, "error", err.Error())
		}
		return false
	}
	return busy == 0
}
