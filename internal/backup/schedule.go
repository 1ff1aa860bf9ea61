package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// scheduleLockKey is the advisory lock a scheduled backup holds on
// PostgreSQL, so that one replica at a time takes one.
const scheduleLockKey = 1702260361

// archivePrefix and archiveSuffix frame the names of scheduled archives
// (edgeflow-20261206T101500Z.tar.gz); only such files are pruned.
const (
	archivePrefix = "edgeflow-"
	archiveSuffix = ".tar.gz"
)

// Schedule takes a backup into Dir every Every and keeps the newest Keep
// archives there (serve --backup-dir --backup-every --backup-keep).
type Schedule struct {
	Dir   string
	Every time.Duration
	// Keep is how many scheduled archives stay in Dir (at least 1).
	Keep int
	// Source is what each backup copies (its Store and edge included).
	Source Source
	Logger *slog.Logger
	// Now is the clock (nil: time.Now).
	Now func() time.Time

	mu          sync.Mutex
	lastSuccess time.Time
	lastBytes   int64
	lastSeconds float64
	successes   int64
	failures    int64
	skipped     int64
}

// Run takes a backup every s.Every until ctx ends.
func (s *Schedule) Run(ctx context.Context) {
	t := time.NewTicker(s.Every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.Once(ctx)
		}
	}
}

func (s *Schedule) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *Schedule) logger() *slog.Logger {
	if s.Logger != nil {
		return s.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// Once takes one scheduled backup now: on PostgreSQL only when no other
// replica is taking one (it is skipped then); a failure is logged at error
// and counted, and leaves no partial archive.
func (s *Schedule) Once(ctx context.Context) (string, error) {
	if s.Source.DatabaseURL != "" {
		unlock, ok, err := tryLock(ctx, s.Source.DatabaseURL)
		if err != nil {
			return "", s.fail(err)
		}
		if !ok {
			s.mu.Lock()
			s.skipped++
			s.mu.Unlock()
			s.logger().Info("scheduled backup skipped: another replica is taking one")
			return "", nil
		}
		defer unlock()
	}
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return "", s.fail(err)
	}
	started := s.now()
	out := filepath.Join(s.Dir, archivePrefix+started.UTC().Format("20060102T150405Z")+archiveSuffix)
	m, err := Create(ctx, s.Source, out)
	if err != nil {
		return "", s.fail(err)
	}
	st, err := os.Stat(out)
	if err != nil {
		return "", s.fail(err)
	}
	took := s.now().Sub(started)
	s.mu.Lock()
	s.lastSuccess, s.lastBytes, s.lastSeconds = s.now(), st.Size(), took.Seconds()
	s.successes++
	s.mu.Unlock()
	s.logger().Info("scheduled backup written", "file", out, "bytes", st.Size(), "ms", took.Milliseconds(), "members", len(m.Members))
	if err := s.prune(); err != nil {
		s.logger().Error("prune scheduled backups", "dir", s.Dir, "error", err)
	}
	return out, nil
}

func (s *Schedule) fail(err error) error {
	s.mu.Lock()
	s.failures++
	s.mu.Unlock()
	s.logger().Error("scheduled backup failed", "dir", s.Dir, "error", err)
	return err
}

// prune removes the scheduled archives of Dir past the newest Keep.
func (s *Schedule) prune() error {
	entries, err := os.ReadDir(s.Dir)
	if err != nil {
		return err
	}
	var names []string
	for _, e := range entries {
		if n := e.Name(); e.Type().IsRegular() && strings.HasPrefix(n, archivePrefix) && strings.HasSuffix(n, archiveSuffix) {
			names = append(names, n)
		}
	}
	sort.Strings(names) // the names sort by time
	var errs []error
	for len(names) > max(s.Keep, 1) {
		errs = append(errs, os.Remove(filepath.Join(s.Dir, names[0])))
		names = names[1:]
	}
	return errors.Join(errs...)
}

// WriteMetrics writes the schedule's metrics in the Prometheus text format.
func (s *Schedule) WriteMetrics(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	last := 0.0
	if !s.lastSuccess.IsZero() {
		last = float64(s.lastSuccess.UnixNano()) / 1e9
	}
	fmt.Fprintf(w, "# HELP edgeflow_backup_last_success_timestamp_seconds When the last scheduled backup completed, since the Unix epoch (0: none yet).\n# TYPE edgeflow_backup_last_success_timestamp_seconds gauge\nedgeflow_backup_last_success_timestamp_seconds %s\n", strconv.FormatFloat(last, 'f', -1, 64))
	fmt.Fprintf(w, "# HELP edgeflow_backup_last_size_bytes The size of the last scheduled backup's archive.\n# TYPE edgeflow_backup_last_size_bytes gauge\nedgeflow_backup_last_size_bytes %d\n", s.lastBytes)
	fmt.Fprintf(w, "# HELP edgeflow_backup_last_duration_seconds How long the last scheduled backup took.\n# TYPE edgeflow_backup_last_duration_seconds gauge\nedgeflow_backup_last_duration_seconds %s\n", strconv.FormatFloat(s.lastSeconds, 'f', -1, 64))
	fmt.Fprintf(w, "# HELP edgeflow_backups_total Scheduled backups written by this process.\n# TYPE edgeflow_backups_total counter\nedgeflow_backups_total %d\n", s.successes)
	fmt.Fprintf(w, "# HELP edgeflow_backup_failures_total Scheduled backups that failed in this process.\n# TYPE edgeflow_backup_failures_total counter\nedgeflow_backup_failures_total %d\n", s.failures)
	fmt.Fprintf(w, "# HELP edgeflow_backups_skipped_total Scheduled backups skipped because another replica held the lock.\n# TYPE edgeflow_backups_skipped_total counter\nedgeflow_backups_skipped_total %d\n", s.skipped)
}

// tryLock takes the scheduled backup's advisory lock on a connection of its
// own, held until unlock; ok is false when another session holds it.
func tryLock(ctx context.Context, url string) (unlock func(), ok bool, err error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, false, fmt.Errorf("postgres: connect: %w", err)
	}
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, scheduleLockKey).Scan(&ok); err != nil || !ok {
		conn.Close(context.Background())
		return nil, false, err
	}
	return func() {
		// Closing the session releases its advisory locks.
		conn.Close(context.Background())
	}, true, nil
}
