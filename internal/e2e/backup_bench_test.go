package e2e_test

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/backup"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// TestBackupFigures measures (it asserts nothing about time) what
// docs/operations.md "Backups" reports: on `edgeflow serve` (SQLite, its own
// edge) holding EDGEFLOW_BENCH_BACKUP_RUNS runs (default 20,000) and
// EDGEFLOW_BENCH_BACKUP_MIB MiB of R2 objects (default 64), the time and
// archive size of `edgeflow admin backup`, the time of `admin restore`, the
// edge's pause, and the p50/p99/max of GET /api/workflows sent one after
// the other without a backup and during one. It runs only with
// EDGEFLOW_BENCH_BACKUP=1: go test -run TestBackupFigures -v ./internal/e2e/
func TestBackupFigures(t *testing.T) {
	if os.Getenv("EDGEFLOW_BENCH_BACKUP") != "1" {
		t.Skip("a measurement: set EDGEFLOW_BENCH_BACKUP=1")
	}
	requireEdge(t)
	runs := envInt("EDGEFLOW_BENCH_BACKUP_RUNS", 20000)
	mib := envInt("EDGEFLOW_BENCH_BACKUP_MIB", 64)
	bin := buildEdgeflow(t)
	env := procEnv()
	src := filepath.Join(t.TempDir(), "src")
	p := startProc(t, bin, env, "serve", "--addr", "127.0.0.1:0", "--signup", "open", "--data-dir", src)
	p.url = p.waitLine(t, "edgeflow listening on ", 120*time.Second)
	s := &server{t: t, url: p.url, http: &http.Client{Timeout: 2 * time.Minute}}
	s.bootstrap("bench@example.com")
	wf, v := s.workflow("Bench", "workflow", chain("Bench", step("a", "return {};")))
	for i := range 50 {
		s.workflow(fmt.Sprintf("Listed %d", i), "workflow", chain("Listed", step("a", "return {};")))
	}

	// Runs straight into the database (the server has it open too: WAL).
	st, err := sqlite.Open(t.Context(), filepath.Join(src, "edgeflow.db"), sqlite.Options{NoReadCache: true})
	if err != nil {
		t.Fatal(err)
	}
	output := json.RawMessage(`{"total":41,"note":"` + strings.Repeat("x", 200) + `"}`)
	for i := range runs {
		if err := st.CreateRun(t.Context(), &edgeflow.Run{WorkflowID: wf, VersionID: v, ConnectionID: s.conn,
			InstanceID: fmt.Sprintf("bench-%d", i), Status: "complete", Params: json.RawMessage(`{"id":` + strconv.Itoa(i) + `}`), Output: output}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()

	// R2 objects of 1 MiB of random bytes through the edge's API (root account).
	edgeDir := filepath.Join(src, "edge")
	tok, _ := os.ReadFile(filepath.Join(edgeDir, "token"))
	var reg struct {
		Port      int    `json:"port"`
		AccountID string `json:"accountId"`
	}
	raw, _ := os.ReadFile(filepath.Join(edgeDir, "registry.json"))
	json.Unmarshal(raw, &reg)
	edgeAPI := fmt.Sprintf("http://127.0.0.1:%d/client/v4/accounts/%s", reg.Port, reg.AccountID)
	call := func(method, path string, body string) {
		req, _ := http.NewRequest(method, edgeAPI+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
		res, err := s.http.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s %s: %d", method, path, res.StatusCode)
		}
	}
	call("POST", "/r2/buckets", `{"name":"bench"}`)
	for i := range mib {
		body := make([]byte, 1<<20)
		rand.Read(body) // as little compressible as real media
		call("PUT", fmt.Sprintf("/r2/buckets/bench/objects/o%d", i), string(body))
	}

	// Latencies of GET /api/workflows, one request after the other.
	sample := func(until func() bool) []time.Duration {
		var d []time.Duration
		for !until() {
			start := time.Now()
			r := s.do("GET", "/api/workflows?limit=50", nil)
			d = append(d, time.Since(start))
			if r.status != 200 {
				t.Fatalf("GET /api/workflows: %d", r.status)
			}
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d
	}
	pct := func(d []time.Duration, q float64) time.Duration { return d[min(len(d)-1, int(q*float64(len(d))))] }
	quiet := sample(func() func() bool { n := 0; return func() bool { n++; return n > 1000 } }())

	archive := filepath.Join(t.TempDir(), "edgeflow.tar.gz")
	done := make(chan error, 1)
	var backupTook time.Duration
	go func() {
		start := time.Now()
		cmd := exec.Command(bin, "admin", "backup", "--out", archive, "--data-dir", src)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		backupTook = time.Since(start)
		if err != nil {
			err = fmt.Errorf("%v: %s", err, out)
		}
		done <- err
	}()
	var berr error
	finished := false
	during := sample(func() bool {
		select {
		case berr = <-done:
			finished = true
		default:
		}
		return finished
	})
	if berr != nil {
		t.Fatal(berr)
	}
	p.stop(t)
	size, _ := os.Stat(archive)
	m, err := backup.Verify(t.Context(), archive)
	if err != nil {
		t.Fatal(err)
	}
	var edge struct {
		QuiescedMS int `json:"quiesced_ms"`
	}
	json.Unmarshal(m.Edge, &edge)
	dst := filepath.Join(t.TempDir(), "dst")
	start := time.Now()
	restore := exec.Command(bin, "admin", "restore", "--from", archive, "--data-dir", dst)
	restore.Env = env
	if out, err := restore.CombinedOutput(); err != nil {
		t.Fatalf("restore: %v %s", err, out)
	}
	restoreTook := time.Since(start)
	t.Logf("%d runs, %d MiB of R2: backup %s, archive %.1f MiB, restore %s, the edge paused %d ms",
		m.Tables["runs"], mib, backupTook.Round(time.Millisecond), float64(size.Size())/(1<<20), restoreTook.Round(time.Millisecond), edge.QuiescedMS)
	t.Logf("GET /api/workflows without a backup: %d requests, p50 %s, p99 %s, max %s", len(quiet), pct(quiet, 0.5), pct(quiet, 0.99), quiet[len(quiet)-1])
	t.Logf("GET /api/workflows during the backup: %d requests, p50 %s, p99 %s, max %s", len(during), pct(during, 0.5), pct(during, 0.99), during[len(during)-1])
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
