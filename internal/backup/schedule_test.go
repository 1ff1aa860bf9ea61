package backup

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/jackc/pgx/v5"
)

// clock answers a time one minute later at each call.
func clock() func() time.Time {
	t := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		t = t.Add(time.Minute)
		return t
	}
}

// TestScheduleKeepsNewest: three scheduled backups with --backup-keep 2
// leave the newest two (each verifies), and the metrics say when the last
// succeeded and its size; a backup into a directory that cannot be made
// fails, is logged at error and counted, and the archives stay.
func TestScheduleKeepsNewest(t *testing.T) {
	dir, st := newSource(t)
	var logs bytes.Buffer
	s := &Schedule{Dir: filepath.Join(t.TempDir(), "backups"), Every: time.Hour, Keep: 2, Now: clock(),
		Source: Source{DataDir: dir, Store: st, Version: "test"}, Logger: slog.New(slog.NewJSONHandler(&logs, nil))}
	var written []string
	for range 3 {
		out, err := s.Once(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		written = append(written, out)
	}
	entries, _ := os.ReadDir(s.Dir)
	var left []string
	for _, e := range entries {
		left = append(left, filepath.Join(s.Dir, e.Name()))
	}
	if strings.Join(left, " ") != strings.Join(written[1:], " ") {
		t.Fatalf("left %q, want the newest two of %q", left, written)
	}
	for _, f := range left {
		if _, err := Verify(t.Context(), f); err != nil {
			t.Fatal(err)
		}
	}
	size, _ := os.Stat(written[2])
	var m bytes.Buffer
	s.WriteMetrics(&m)
	for _, want := range []string{
		"edgeflow_backup_last_success_timestamp_seconds 1796551740", // 2026-12-06T10:09:00Z: the clock's ninth reading, the third backup's end
		"edgeflow_backup_last_size_bytes " + strconv.FormatInt(size.Size(), 10),
		"edgeflow_backups_total 3",
		"edgeflow_backup_failures_total 0",
	} {
		if !strings.Contains(m.String(), want+"\n") {
			t.Errorf("metrics lack %q:\n%s", want, m.String())
		}
	}

	// A failure: the directory is a file.
	blocked := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocked, nil, 0o600)
	s.Dir = blocked
	if _, err := s.Once(t.Context()); err == nil {
		t.Fatal("a backup into a file succeeded")
	}
	m.Reset()
	s.WriteMetrics(&m)
	if !strings.Contains(m.String(), "edgeflow_backup_failures_total 1") || !strings.Contains(logs.String(), `"level":"ERROR","msg":"scheduled backup failed"`) {
		t.Fatalf("a failure is not counted and logged at error:\n%s\n%s", m.String(), logs.String())
	}
}

// TestScheduleOneReplicaAtATime: on PostgreSQL, a scheduled backup while
// another session (another replica) holds the backup lock is skipped and
// counted; once the lock is free, it is taken.
func TestScheduleOneReplicaAtATime(t *testing.T) {
	url := testenv.PostgresSchema(t)
	st, err := postgres.Open(t.Context(), url, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := &Schedule{Dir: t.TempDir(), Every: time.Hour, Keep: 3, Now: clock(), Source: Source{DatabaseURL: url, Store: st, NoEdge: true}}
	other, err := pgx.Connect(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close(context.Background())
	var ok bool
	if err := other.QueryRow(t.Context(), `SELECT pg_try_advisory_lock($1)`, scheduleLockKey).Scan(&ok); err != nil || !ok {
		t.Fatalf("take the lock: %v %v", ok, err)
	}
	if out, err := s.Once(t.Context()); err != nil || out != "" {
		t.Fatalf("a backup while another replica holds the lock: %q %v", out, err)
	}
	var m bytes.Buffer
	s.WriteMetrics(&m)
	if !strings.Contains(m.String(), "edgeflow_backups_skipped_total 1") || !strings.Contains(m.String(), "edgeflow_backups_total 0") {
		t.Fatalf("metrics after a skip:\n%s", m.String())
	}
	if _, err := other.Exec(t.Context(), `SELECT pg_advisory_unlock($1)`, scheduleLockKey); err != nil {
		t.Fatal(err)
	}
	out, err := s.Once(t.Context())
	if err != nil || out == "" {
		t.Fatalf("a backup with the lock free: %q %v", out, err)
	}
	if _, err := Verify(t.Context(), out); err != nil {
		t.Fatal(err)
	}
}
