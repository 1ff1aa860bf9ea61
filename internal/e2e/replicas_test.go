package e2e_test

import (
	"bufio"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestReplicasShareOneEdge runs the layout docs/operations.md describes for
// several replicas: one `edgeflow edge` process and two `edgeflow serve
// --edge-url` processes (built from cmd/edgeflow) on one PostgreSQL with
// the same secret key.
//   - serve with a token the edge refuses exits 1 before it listens.
//   - A workflow deployed through one replica runs through the other:
//     trigger, the event it waits for and its result all go through the
//     second replica.
//   - With the shared edge stopped, /readyz is 503 naming the edge on both
//     replicas; once it is back (same address and data dir), 200 again.
//   - A replica killed with SIGKILL right after it started a run: the run
//     is shown final in the other replica's run lists (GET /api/runs and
//     GET /api/workflows/:id/runs, which read the store and never refresh)
//     within 30 s, by the survivor's refresher.
func TestReplicasShareOneEdge(t *testing.T) {
	requireEdge(t)
	if testing.Short() {
		t.Skip("builds the binary and starts three processes")
	}
	dbURL := replicaSchema(t, testenv.PostgresURL(t))
	bin := buildEdgeflow(t)
	env := procEnv()

	edgeData := t.TempDir()
	edge := startProc(t, bin, env, "edge", "--addr", "127.0.0.1:0", "--data-dir", edgeData)
	edgeURL := edge.waitLine(t, "edgeflow edge listening on ", 90*time.Second)
	tokenFile := edge.waitLine(t, "token file: ", 10*time.Second)
	if !strings.HasPrefix(tokenFile, edgeData) {
		t.Fatalf("token file %s is not in the data dir %s", tokenFile, edgeData)
	}
	replica := func(name string) *proc {
		p := startProc(t, bin, env, "serve", "--addr", "127.0.0.1:0", "--data-dir", filepath.Join(t.TempDir(), name),
			"--database-url", dbURL, "--edge-url", edgeURL, "--edge-token-file", tokenFile, "--signup", "open")
		p.url = p.waitLine(t, "edgeflow listening on ", 60*time.Second)
		return p
	}
	// A token the edge refuses stops serve before it listens.
	wrong := filepath.Join(t.TempDir(), "wrong-token")
	if err := os.WriteFile(wrong, []byte("not-the-edge-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	refused := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data-dir", filepath.Join(t.TempDir(), "refused"),
		"--database-url", dbURL, "--edge-url", edgeURL, "--edge-token-file", wrong)
	refused.Env = env
	out, err := refused.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "--edge-url") ||
		!strings.Contains(string(out), "refused the token") || strings.Contains(string(out), "listening on") ||
		strings.Contains(string(out), "not-the-edge-token") {
		t.Fatalf("serve with a token the edge refuses: %v\n%s", err, out)
	}

	ra, rb := replica("a"), replica("b")
	hc := &http.Client{Timeout: 2 * time.Minute}
	a := &server{t: t, url: ra.url, http: hc}
	a.bootstrap("replicas@example.com")
	b := &server{t: t, url: rb.url, http: hc, key: a.key, conn: a.conn, orgID: a.orgID, projID: a.projID}
	for _, p := range []*proc{ra, rb} {
		waitReady(t, p.url, http.StatusOK, 30*time.Second)
	}

	// Deploy through a; trigger, event and result through b.
	wf, _ := a.workflow("Approval", "workflow", chain("Approval",
		step("request", "return { order: event.payload.order };"),
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		step("finish", "return { order: {{request.order}}, approved: {{approval.approved}} };"),
	))
	a.deploy(wf)
	id := b.trigger(wf, map[string]any{"order": 7})
	b.waitRun(wf, id, 60*time.Second, "waiting for the event", func(r run) bool {
		return r.Status == "paused" && r.StatusDetail == "waiting"
	})
	b.must(202, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": b.conn,
		"params": map[string]any{"instanceId": id, "eventType": "approval", "payload": map[string]any{"approved": true}}})
	r := b.waitStatus(wf, id, "complete", 60*time.Second)
	jsonEqual(t, r.Output, `{"order":7,"approved":true}`)
	if got := a.run(wf, id); got.Status != "complete" {
		t.Fatalf("replica a shows the run %s", got.Status)
	}

	// The shared edge down: both replicas are not ready, naming the edge.
	port := edgeURL[strings.LastIndex(edgeURL, ":")+1:]
	edge.stop(t)
	for _, p := range []*proc{ra, rb} {
		body := waitReady(t, p.url, http.StatusServiceUnavailable, 30*time.Second)
		if !strings.Contains(body, `"edge":"down"`) {
			t.Fatalf("readyz with the edge down: %s", body)
		}
	}
	edge = startProc(t, bin, env, "edge", "--addr", "127.0.0.1:"+port, "--data-dir", edgeData)
	if again := edge.waitLine(t, "edgeflow edge listening on ", 90*time.Second); again != edgeURL {
		t.Fatalf("the edge came back at %s, want %s", again, edgeURL)
	}
	for _, p := range []*proc{ra, rb} {
		waitReady(t, p.url, http.StatusOK, 30*time.Second)
	}

	// A replica killed mid-run: the survivor's lists show the run final.
	nap, _ := a.workflow("Nap", "workflow", chain("Nap",
		node("nap", "sleep", "nap", map[string]any{"duration": "3 seconds"}),
		step("done", "return { slept: true };"),
	))
	a.deploy(nap)
	id = b.trigger(nap, map[string]any{})
	rb.kill(t)
	killed := time.Now()
	var inProject run
	testenv.WaitFor(t, 30*time.Second, 200*time.Millisecond, "the survivor's lists to show the killed replica's run complete", func() (bool, string) {
		inProject = a.listed("/api/runs?limit=100", id)
		inWorkflow := a.listed("/api/workflows/"+nap+"/runs?limit=100", id)
		return inProject.Status == "complete" && inWorkflow.Status == "complete", inProject.Status + " / " + inWorkflow.Status
	})
	t.Logf("the killed replica's run is complete in the survivor's lists %s after the kill", time.Since(killed).Round(time.Millisecond))
	jsonEqual(t, inProject.Output, `{"slept":true}`)
}

var built struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

// buildEdgeflow builds cmd/edgeflow once per test binary.
func buildEdgeflow(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.bin = filepath.Join(shared.dataDir, "edgeflow-bin")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, "../../cmd/edgeflow").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// procEnv is the environment of the edgeflow processes of a test: the
// repository's edge, the e2e secret key, no rate limits, and none of the
// caller's edgeflow settings.
func procEnv() []string {
	script, _ := edgeScript()
	return append(os.Environ(), "EDGEFLOW_EDGE_DIR="+filepath.Dir(script), "EDGEFLOW_SECRET_KEY="+hex.EncodeToString(testSecretKey),
		"EDGEFLOW_RATE_LIMITS=off", "EDGEFLOW_DATABASE_URL=", "EDGEFLOW_EDGE_TOKEN=", "EDGEFLOW_EDGE_URL=", "EDGEFLOW_EDGE_TOKEN_FILE=",
		"EDGEFLOW_DATA_DIR=", "EDGEFLOW_NO_EDGE=", "EDGEFLOW_EDGE_ADDR=")
}

// TestEdgeCommandBehindProxy: `edgeflow edge` on an address other than the
// edge's own 127.0.0.1 serves the edge through its proxy: /healthz, the API
// with the token from the printed token file (and 401 with another); a
// second edge on the same data dir exits 1 saying why; SIGTERM ends the
// first with exit 0.
func TestEdgeCommandBehindProxy(t *testing.T) {
	requireEdge(t)
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildEdgeflow(t)
	// 127.0.0.2 is on loopback (nothing is exposed) but is not the edge's
	// own 127.0.0.1, so it takes the proxy.
	dataDir := t.TempDir()
	p := startProc(t, bin, procEnv(), "edge", "--addr", "127.0.0.2:0", "--data-dir", dataDir)
	base := p.waitLine(t, "edgeflow edge listening on ", 90*time.Second)
	tokenFile := p.waitLine(t, "token file: ", 10*time.Second)
	if !strings.HasPrefix(base, "http://127.0.0.2:") {
		t.Fatalf("the edge says it listens on %s, want 127.0.0.2", base)
	}
	raw, err := os.ReadFile(tokenFile)
	if err != nil {
		t.Fatal(err)
	}
	get := func(path, token string) int {
		req, _ := http.NewRequest("GET", base+path, nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode
	}
	if code := get("/healthz", ""); code != 200 {
		t.Fatalf("/healthz through the proxy: %d", code)
	}
	if code := get("/client/v4/accounts", strings.TrimSpace(string(raw))); code != 200 {
		t.Fatalf("/client/v4/accounts with the token: %d", code)
	}
	if code := get("/client/v4/accounts", "wrong"); code != 401 {
		t.Fatalf("/client/v4/accounts with a wrong token: %d", code)
	}
	// A second edge on the same data dir exits 1 saying why.
	second := exec.Command(bin, "edge", "--addr", "127.0.0.1:0", "--data-dir", dataDir)
	second.Env = procEnv()
	out, err := second.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "in use by another edge") {
		t.Fatalf("a second edge on the data dir: %v\n%s", err, out)
	}
	p.stop(t)
}

// listed finds run id in a run list of the server (the first page).
func (s *server) listed(path, id string) run {
	s.t.Helper()
	var list struct {
		Data []run `json:"data"`
	}
	s.must(200, "GET", path, nil).into(&list)
	for _, r := range list.Data {
		if r.ID == id {
			return r
		}
	}
	s.t.Fatalf("run %s is not in %s", id, path)
	return run{}
}

// waitReady polls base/readyz until it answers status and returns its body.
func waitReady(t *testing.T, base string, status int, timeout time.Duration) string {
	t.Helper()
	var body string
	testenv.WaitFor(t, timeout, 200*time.Millisecond, fmt.Sprintf("%s/readyz to answer %d", base, status), func() (bool, string) {
		res, err := http.Get(base + "/readyz")
		if err != nil {
			return false, err.Error()
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body = string(raw)
		return res.StatusCode == status, fmt.Sprintf("%d %s", res.StatusCode, raw)
	})
	return body
}

// proc is an edgeflow process of a test, stopped when the test ends.
type proc struct {
	cmd    *exec.Cmd
	url    string
	lines  chan string
	mu     sync.Mutex
	stderr strings.Builder
	done   chan struct{}
}

func startProc(t *testing.T, bin string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{cmd: exec.Command(bin, args...), lines: make(chan string, 16), done: make(chan struct{})}
	p.cmd.Env = env
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	errPipe, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
	}()
	go func() {
		sc := bufio.NewScanner(errPipe)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
		}
	}()
	go func() { p.cmd.Wait(); close(p.done) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(20 * time.Second):
			_ = p.cmd.Process.Kill()
			<-p.done
		}
		if t.Failed() {
			t.Logf("%v stderr (tail):\n%s", args[:1], p.tail())
		}
	})
	return p
}

func (p *proc) tail() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stderr.String()
	if len(s) > 6000 {
		s = s[len(s)-6000:]
	}
	return s
}

// waitLine waits for a stdout line starting with prefix and returns the rest.
func (p *proc) waitLine(t *testing.T, prefix string, timeout time.Duration) string {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		select {
		case l := <-p.lines:
			if rest, ok := strings.CutPrefix(l, prefix); ok {
				return strings.TrimSpace(rest)
			}
		case <-p.done:
			t.Fatalf("%v exited before printing %q: %v\n%s", p.cmd.Args, prefix, p.cmd.ProcessState, p.tail())
		case <-timer.C:
			t.Fatalf("%v printed no %q within %s\n%s", p.cmd.Args, prefix, timeout, p.tail())
		}
	}
}

// stop ends the process with SIGTERM and waits; it must exit 0.
func (p *proc) stop(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%v did not stop within 30 s of SIGTERM", p.cmd.Args)
	}
	if code := p.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("%v exited %d after SIGTERM\n%s", p.cmd.Args, code, p.tail())
	}
}

// kill ends the process with SIGKILL and waits.
func (p *proc) kill(t *testing.T) {
	t.Helper()
	_ = p.cmd.Process.Kill()
	<-p.done
}

// replicaSchema creates an empty schema, dropped when the test ends, and
// returns base with its search_path set to it.
func replicaSchema(t *testing.T, base string) string {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("edgeflow_test_replicas_%d", time.Now().UnixNano())
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+name+" CASCADE"); err != nil {
			t.Error(err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	u.RawQuery = q.Encode()
	return u.String()
}
