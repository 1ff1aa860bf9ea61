package e2e_test

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
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
// edge's copy (how long, the longest one store file's read snapshot, whether
// workerd was stopped), and the p50/p99/max of GET /api/workflows and of an
// R2 object's GET through the edge, each sent one after the other, without a
// backup and during one. It runs only with EDGEFLOW_BENCH_BACKUP=1 (1 GiB of
// edge data: EDGEFLOW_BENCH_BACKUP_MIB=1024):
// go test -run TestBackupFigures -v -timeout 60m ./internal/e2e/
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
	edgeCall := func(method, path string, body string) error {
		req, _ := http.NewRequest(method, edgeAPI+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
		res, err := s.http.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if _, err := io.Copy(io.Discard, res.Body); err != nil {
			return err
		}
		if res.StatusCode != 200 {
			return fmt.Errorf("%s %s: %d", method, path, res.StatusCode)
		}
		return nil
	}
	call := func(method, path string, body string) {
		if err := edgeCall(method, path, body); err != nil {
			t.Fatal(err)
		}
	}
	call("POST", "/r2/buckets", `{"name":"bench"}`)
	for i := range mib {
		body := make([]byte, 1<<20)
		rand.Read(body) // as little compressible as real media
		call("PUT", fmt.Sprintf("/r2/buckets/bench/objects/o%d", i), string(body))
	}
	call("PUT", "/r2/buckets/bench/objects/small", "a small object")

	// Latencies of GET /api/workflows and of a small R2 object's GET through
	// the edge (its control worker in workerd), each one request after the
	// other.
	apiGet := func() error {
		if r := s.do("GET", "/api/workflows?limit=50", nil); r.status != 200 {
			return fmt.Errorf("GET /api/workflows: %d", r.status)
		}
		return nil
	}
	edgeGet := func() error { return edgeCall("GET", "/r2/buckets/bench/objects/small", "") }
	sample := func(get func() error, until func() bool) ([]time.Duration, error) {
		var d []time.Duration
		for !until() {
			start := time.Now()
			if err := get(); err != nil {
				return nil, err
			}
			d = append(d, time.Since(start))
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		return d, nil
	}
	pct := func(d []time.Duration, q float64) time.Duration { return d[min(len(d)-1, int(q*float64(len(d))))] }
	times := func(n int) func() bool { i := 0; return func() bool { i++; return i > n } }
	quiet, err := sample(apiGet, times(1000))
	if err != nil {
		t.Fatal(err)
	}
	quietEdge, err := sample(edgeGet, times(500))
	if err != nil {
		t.Fatal(err)
	}

	archive := filepath.Join(t.TempDir(), "edgeflow.tar.gz")
	var finished atomic.Bool
	var backupTook time.Duration
	var berr error
	go func() {
		defer finished.Store(true)
		start := time.Now()
		cmd := exec.Command(bin, "admin", "backup", "--out", archive, "--data-dir", src)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		backupTook = time.Since(start)
		if err != nil {
			berr = fmt.Errorf("%v: %s", err, out)
		}
	}()
	// the edge's sampler in a goroutine of its own (edgeCall never calls
	// t.Fatal); edgeflow's API's on the test's
	var duringEdge []time.Duration
	var derrEdge error
	var wg sync.WaitGroup
	wg.Go(func() { duringEdge, derrEdge = sample(edgeGet, finished.Load) })
	during, derr := sample(apiGet, finished.Load)
	wg.Wait()
	for _, err := range []error{berr, derr, derrEdge} {
		if err != nil {
			t.Fatal(err)
		}
	}
	p.stop(t)
	size, _ := os.Stat(archive)
	m, err := backup.Verify(t.Context(), archive)
	if err != nil {
		t.Fatal(err)
	}
	var edge struct {
		CopyMS    int `json:"copy_ms"`
		CopyMSMax int `json:"copy_ms_max"`
		PausedMS  int `json:"paused_ms"`
		Again     int `json:"index_copies_again"`
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
	t.Logf("%d runs, %d MiB of R2: backup %s, archive %.1f MiB, restore %s", m.Tables["runs"], mib,
		backupTook.Round(time.Millisecond), float64(size.Size())/(1<<20), restoreTook.Round(time.Millisecond))
	t.Logf("the edge's copy: %d ms, longest read snapshot of one file %d ms, indexes copied again %d, workerd stopped %d ms",
		edge.CopyMS, edge.CopyMSMax, edge.Again, edge.PausedMS)
	report := func(what string, d []time.Duration) {
		t.Logf("%s: %d requests, p50 %s, p99 %s, max %s", what, len(d), pct(d, 0.5), pct(d, 0.99), d[len(d)-1])
	}
	report("GET /api/workflows without a backup", quiet)
	report("GET /api/workflows during the backup", during)
	report("edge R2 GET without a backup", quietEdge)
	report("edge R2 GET during the backup", duringEdge)
}

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}
