package e2e_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// probeCode is a step that fetches every target of event.payload.targets and answers, per target, the status
// and body or the error its fetch rejected with.
const probeCode = `
const out: Record<string, string> = {};
for (const t of event.payload.targets) {
  try {
    const res = await fetch(t.url, { method: t.method ?? "GET", headers: t.headers ?? {} });
    out[t.name] = "status " + res.status + ": " + (await res.text()).slice(0, 300);
  } catch (e) {
    out[t.name] = "error: " + String(e);
  }
}
return out;
`

type target struct {
	Name    string            `json:"name"`
	URL     string            `json:"url"`
	Method  string            `json:"method,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
}

// probe deploys the probe workflow for s (once per test) and runs it against targets.
func (s *server) probe(t *testing.T, targets []target) map[string]string {
	t.Helper()
	wf, _ := s.workflow("probe", "workflow", chain("Probe", step("probe", probeCode)))
	s.deploy(wf)
	runID := s.trigger(wf, map[string]any{"targets": targets})
	r := s.waitStatus(wf, runID, "complete", 90*time.Second)
	out := map[string]string{}
	if err := json.Unmarshal(r.Output, &out); err != nil {
		t.Fatalf("probe output %s: %v", r.Output, err)
	}
	return out
}

// listeningPorts finds the loopback TCP ports a process listens on, as any process of the same user can: its
// socket inodes in /proc/PID/fd looked up in /proc/net/tcp{,6}.
func listeningPorts(t *testing.T, pid int) []int {
	t.Helper()
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		if _, self := os.ReadDir("/proc/self/fd"); self == nil && errors.Is(err, fs.ErrNotExist) {
			// the process ended since it was listed (a group restarted by another test's deploy, a shard
			// stopped once empty): it listens on nothing
			return nil
		}
		testenv.Missing(t, "cannot read the edge's file descriptors (not Linux?): %v", err)
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	var ports []int
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		raw, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(raw), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) > 9 && f[3] == "0A" && inodes[f[9]] {
				_, portHex, _ := strings.Cut(f[1], ":")
				if p, err := strconv.ParseInt(portHex, 16, 32); err == nil {
					ports = append(ports, int(p))
				}
			}
		}
	}
	return ports
}

// workerdPids are the pids of the shared edge's workerds (one a group, one a running D1 database).
func workerdPids(t *testing.T) []int {
	t.Helper()
	pid := shared.edge.Pid()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		testenv.Missing(t, "cannot read the edge's children (not Linux?): %v", err)
	}
	var pids []int
	for _, k := range strings.Fields(string(raw)) {
		cmd, _ := os.ReadFile("/proc/" + k + "/cmdline")
		if strings.Contains(string(cmd), "workerd") {
			n, _ := strconv.Atoi(k)
			pids = append(pids, n)
		}
	}
	if len(pids) == 0 {
		t.Fatal("found no workerd of the edge")
	}
	return pids
}

// edgePorts are the TCP ports the shared edge's processes listen on, as a local process finds them: the edge's
// own (its API, miniflare's loopback servers, the D1 proxy) and its workerds' (none: workerd's entry socket is a
// Unix socket in the edge's 0700 run directory, docs/edge.md "Isolation").
func edgePorts(t *testing.T) []int {
	t.Helper()
	ports := listeningPorts(t, shared.edge.Pid())
	for _, pid := range workerdPids(t) {
		ports = append(ports, listeningPorts(t, pid)...)
	}
	return ports
}

// TestAttackStepReachesThisMachine: a step deployed through the public API tries edgeflow's API in every
// spelling of loopback, the metadata service, and workerd's entry socket with MF-Route-Override naming another
// tenant's worker and the edge's control worker. Every fetch rejects with a message naming the address and the
// reason; the twin test below reaches an allowed host.
func TestAttackStepReachesThisMachine(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	victim := s.tenant("victim@example.com")
	vwf, _ := victim.workflow("victim", "workflow", chain("Victim", step("a", "return { secret: 'victim data' };")))
	vdep := victim.deploy(vwf)
	mallory := s.tenant("mallory@example.com")

	api, _ := url.Parse(s.url)
	port := api.Port()
	targets := []target{
		{Name: "api", URL: "http://127.0.0.1:" + port + "/healthz"},
		{Name: "127.1", URL: "http://127.1:" + port + "/healthz"},
		{Name: "hex", URL: "http://0x7f000001:" + port + "/healthz"},
		{Name: "decimal", URL: "http://2130706433:" + port + "/healthz"},
		{Name: "ipv6", URL: "http://[::1]:" + port + "/healthz"},
		{Name: "mapped", URL: "http://[::ffff:127.0.0.1]:" + port + "/healthz"},
		{Name: "localhost", URL: "http://localhost:" + port + "/healthz"},
		{Name: "metadata", URL: "http://169.254.169.254/latest/meta-data/"},
		{Name: "edge", URL: fmt.Sprintf("http://127.0.0.1:%d/healthz", shared.edge.Port())},
	}
	for _, p := range edgePorts(t) {
		targets = append(targets,
			target{Name: fmt.Sprintf("victim via %d", p), URL: fmt.Sprintf("http://127.0.0.1:%d/", p), Method: "POST",
				Headers: map[string]string{"MF-Route-Override": vdep.ScriptName}},
			target{Name: fmt.Sprintf("control via %d", p), URL: fmt.Sprintf("http://127.0.0.1:%d/kv/keys", p), Method: "POST",
				Headers: map[string]string{"MF-Route-Override": "__edgeflow_control"}})
	}
	out := mallory.probe(t, targets)
	for _, tg := range targets {
		got := out[tg.Name]
		if !strings.HasPrefix(got, "error: ") || !strings.Contains(got, "edgeflow refused the request") {
			t.Errorf("%s (%s): %q, want a refusal", tg.Name, tg.URL, got)
			continue
		}
		if !strings.Contains(got, "loopback") && !strings.Contains(got, "link-local") {
			t.Errorf("%s: %q does not give the reason", tg.Name, got)
		}
		if strings.Contains(got, "victim data") || strings.Contains(got, "/edge/") {
			t.Errorf("%s: %q leaks", tg.Name, got)
		}
	}
	if !strings.Contains(out["metadata"], "169.254.169.254") || !strings.Contains(out["localhost"], "localhost resolves to") {
		t.Errorf("the refusals do not name the address: %q, %q", out["metadata"], out["localhost"])
	}
}

// TestAttackHTTPRequestNodeToLoopback: an http_request node aimed at edgeflow's API fails the run with the
// refusal.
func TestAttackHTTPRequestNodeToLoopback(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	mallory := s.tenant("mallory@example.com")
	req := node("fetch", "http_request", "fetch", map[string]any{"url": s.url + "/healthz", "method": "GET"})
	req["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second"}}
	wf, _ := mallory.workflow("http", "workflow", chain("HTTP", req))
	mallory.deploy(wf)
	runID := mallory.trigger(wf, map[string]any{})
	r := mallory.waitRun(wf, runID, 90*time.Second, "a final status", func(r run) bool { return r.Status != "queued" && r.Status != "running" })
	if r.Status != "errored" || !strings.Contains(r.Error, "edgeflow refused the request") || !strings.Contains(r.Error, "loopback") {
		t.Errorf("run %s: %q, want errored with the refusal", r.Status, r.Error)
	}
}

// TestLegitStepReachesAllowedHost: a host on the operator's allow list (127.0.0.42 for the shared edge) is
// reachable from a step and from an http_request node.
func TestLegitStepReachesAllowedHost(t *testing.T) {
	t.Parallel()
	var hits atomic.Int64
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, "allowed %s %s %s", r.Method, r.URL.Path, body)
	})}}
	srv.Start()
	defer srv.Close()
	s := newServer(t, serverOptions{})
	out := s.probe(t, []target{{Name: "allowed", URL: srv.URL + "/ok"}})
	if out["allowed"] != "status 200: allowed GET /ok " {
		t.Errorf("allowed host: %q", out["allowed"])
	}
	req := node("fetch", "http_request", "fetch", map[string]any{"url": srv.URL + "/node", "method": "POST", "body": `{"a":1}`})
	wf, _ := s.workflow("http", "workflow", chain("HTTP", req))
	s.deploy(wf)
	r := s.waitStatus(wf, s.trigger(wf, map[string]any{}), "complete", 90*time.Second)
	if !strings.Contains(string(r.Output), "allowed POST /node") {
		t.Errorf("http_request output %s", r.Output)
	}
	if hits.Load() != 2 {
		t.Errorf("the allowed host got %d requests, want 2", hits.Load())
	}
}

// TestAttackStepReadsEdgeSecrets: a step looks for the edge's API token and its sealing key in env,
// process.env and the globals, and finds neither.
func TestAttackStepReadsEdgeSecrets(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	mallory := s.tenant("mallory@example.com")
	code := `
const seen: string[] = [];
for (const [k, v] of Object.entries(env as Record<string, unknown>)) seen.push(k + "=" + (typeof v === "string" ? v : typeof v));
const p = (globalThis as any).process;
if (p) seen.push(JSON.stringify(p.env ?? {}), JSON.stringify(p.argv ?? []));
for (const k of Object.getOwnPropertyNames(globalThis)) {
  const v = (globalThis as any)[k];
  if (typeof v === "string") seen.push(k + "=" + v);
}
return { seen: seen.join("\n") };
`
	wf, _ := mallory.workflow("snoop", "workflow", chain("Snoop", step("snoop", code)))
	mallory.deploy(wf)
	r := mallory.waitStatus(wf, mallory.trigger(wf, map[string]any{}), "complete", 90*time.Second)
	var out struct{ Seen string }
	if err := json.Unmarshal(r.Output, &out); err != nil || out.Seen == "" {
		t.Fatalf("snoop output %s: %v", r.Output, err)
	}
	key, err := localedge.EdgeKey(testSecretKey)
	if err != nil {
		t.Fatal(err)
	}
	for what, secret := range map[string]string{"the edge's token": shared.edge.Token(), "the edge's key": hex.EncodeToString(key),
		"the server's key": hex.EncodeToString(testSecretKey)} {
		if strings.Contains(strings.ToLower(out.Seen), strings.ToLower(secret)) {
			t.Errorf("a step finds %s", what)
		}
	}
}

// TestAttackEntrySocketFromOutside: workerd listens on no TCP port, so a plain HTTP client on this machine that
// scans every port of the edge's processes (as any process can) finds neither miniflare's explorer (every
// Workflow instance's params, KV values and R2 objects) nor its router (MF-Route-Override to the control worker,
// bound to every tenant's KV, D1, R2 and Workflows, or to any worker). The twin is every e2e test: the edge
// reaches its workerds over their Unix sockets.
func TestAttackEntrySocketFromOutside(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	for _, pid := range workerdPids(t) {
		if ports := listeningPorts(t, pid); len(ports) != 0 {
			t.Errorf("workerd %d listens on TCP ports %v", pid, ports)
		}
	}
	c := &http.Client{Timeout: 10 * time.Second}
	type try struct {
		method, path string
		header       map[string]string
	}
	tries := []try{
		{"GET", "/cdn-cgi/explorer/api/workflows", nil},
		{"GET", "/cdn-cgi/explorer/api/storage/kv/namespaces", nil},
		{"POST", "/ping", nil},
	}
	for _, path := range []string{"/ping", "/kv/keys", "/wf/statuses"} {
		tries = append(tries, try{"POST", path, map[string]string{"MF-Route-Override": "__edgeflow_control"}})
	}
	for _, p := range edgePorts(t) {
		for _, tr := range tries {
			req, _ := http.NewRequest(tr.method, fmt.Sprintf("http://127.0.0.1:%d%s", p, tr.path), strings.NewReader("{}"))
			req.Host = "localhost"
			for k, v := range tr.header {
				req.Header.Set(k, v)
			}
			res, err := c.Do(req)
			if err != nil {
				continue // closed: miniflare's loopback servers admit workerd only
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode == http.StatusOK || strings.Contains(string(body), `"ok":true`) || strings.Contains(string(body), `"success":true`) {
				t.Errorf("port %d %s %s %v: %d %s", p, tr.method, tr.path, tr.header, res.StatusCode, body)
			}
		}
	}
}

// TestAttackLoopbackServerFromOutside: miniflare's loopback server (in the edge's Node process, found among its
// listening ports) closes connections that do not come from the edge's workerd, so a local process can neither
// list nor delete workflow instance storage nor write into the edge's log. The twin is every e2e test that runs
// a workflow: workerd uses this server for each outbound fetch and workflow storage.
func TestAttackLoopbackServerFromOutside(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	c := &http.Client{Timeout: 10 * time.Second}
	var tried int
	for _, p := range listeningPorts(t, shared.edge.Pid()) {
		if p == shared.edge.Port() {
			continue
		}
		for _, m := range [][2]string{{"GET", "/core/workflow-storage/any"}, {"DELETE", "/core/workflow-storage/any/00"}, {"POST", "/core/log"}} {
			tried++
			req, _ := http.NewRequest(m[0], fmt.Sprintf("http://127.0.0.1:%d%s", p, m[1]), strings.NewReader("injected"))
			req.Header.Set("MF-Log-Level", "2")
			res, err := c.Do(req)
			if err == nil {
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				t.Errorf("port %d %s %s answered %d %s", p, m[0], m[1], res.StatusCode, body)
			}
		}
	}
	if tried == 0 {
		t.Fatal("found no port of the edge besides its API")
	}
}
