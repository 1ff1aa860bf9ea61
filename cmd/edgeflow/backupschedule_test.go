package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestServeScheduledBackups: serve --backup-dir --backup-every 1s
// --backup-keep 2 writes archives that verify, keeps the newest two, and
// /metrics counts them with the last one's time and size; bad values of the
// flags exit 2 naming the flag.
func TestServeScheduledBackups(t *testing.T) {
	for _, bad := range [][]string{{"--backup-every", "0s"}, {"--backup-every", "often"}, {"--backup-keep", "0"}} {
		var stderr bytes.Buffer
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--no-edge", "--data-dir", t.TempDir(), "--backup-dir", t.TempDir()}, bad...)
		if code := dispatch(context.Background(), args, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), bad[0]) {
			t.Fatalf("serve %v exited %d: %s", bad, code, stderr.String())
		}
	}
	dir := filepath.Join(t.TempDir(), "backups")
	rs, code := startServe(t, strings.Repeat("c3", 32), "--data-dir", filepath.Join(t.TempDir(), "data"),
		"--backup-dir", dir, "--backup-every", "1s", "--backup-keep", "2")
	if code >= 0 {
		t.Fatalf("serve exited %d: %s", code, rs.stderr.String())
	}
	base, _, _ := strings.Cut(rs.base, "\n") // the first line: a setup link follows
	var metrics string
	testenv.WaitFor(t, 60*time.Second, 100*time.Millisecond, "three scheduled backups in /metrics", func() (bool, string) {
		res, err := http.Get(base + "/metrics")
		if err != nil {
			return false, err.Error()
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		metrics = string(b)
		return strings.Contains(metrics, "edgeflow_backups_total 3\n"), metrics
	})
	if rs.stop() != 0 {
		t.Fatalf("serve stopped with an error: %s", rs.stderr.String())
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("%d archives kept, want 2", len(entries))
	}
	last := filepath.Join(dir, entries[1].Name())
	st, _ := os.Stat(last)
	for _, want := range []string{"edgeflow_backup_failures_total 0\n", "edgeflow_backup_last_size_bytes "} {
		if !strings.Contains(metrics, want) {
			t.Fatalf("/metrics lacks %q:\n%s", want, metrics)
		}
	}
	if strings.Contains(metrics, "edgeflow_backup_last_success_timestamp_seconds 0\n") || st.Size() == 0 {
		t.Fatalf("no last success in /metrics:\n%s", metrics)
	}
	var stdout, stderr bytes.Buffer
	if code := dispatch(context.Background(), []string{"admin", "verify-backup", last}, &stdout, &stderr); code != 0 {
		t.Fatalf("verify-backup of a scheduled archive exited %d: %s", code, stderr.String())
	}
}
