package localedge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/google/go-cmp/cmp"
)

func edgeScript(t *testing.T) string {
	t.Helper()
	testenv.Command(t, "node")
	_, file, _, _ := runtime.Caller(0)
	script := filepath.Join(filepath.Dir(file), "..", "..", "edge", "server.mjs")
	if _, err := os.Stat(filepath.Join(filepath.Dir(script), "node_modules", "miniflare")); err != nil {
		t.Fatalf("edge dependencies are not installed: run `npm ci` in edge/ (make deps)")
	}
	return script
}

func start(t *testing.T, opts localedge.Options) *localedge.Edge {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	e, err := localedge.Start(ctx, opts)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

func verify(t *testing.T, e *localedge.Edge) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.APIBaseURL()+"/user/tokens/verify", nil)
	req.Header.Set("Authorization", "Bearer "+e.Token())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("verify: %v", err)
	}
	defer res.Body.Close()
	var body struct {
		Success bool `json:"success"`
		Result  struct {
			Status string `json:"status"`
		} `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatalf("verify: %v", err)
	}
	if !body.Success || body.Result.Status != "active" {
		t.Fatalf("verify: %+v", body)
	}
}

func TestStartServesTheAPIAndRestartsADeadChild(t *testing.T) {
	t.Parallel()
	script := edgeScript(t)
	e := start(t, localedge.Options{Script: script, DataDir: t.TempDir()})
	if !strings.HasPrefix(e.APIBaseURL(), "http://127.0.0.1:") || !strings.HasSuffix(e.APIBaseURL(), "/client/v4") {
		t.Fatalf("APIBaseURL = %q", e.APIBaseURL())
	}
	if e.WorkerURL("w") != e.WorkersBaseURL()+"/w" {
		t.Fatalf("WorkerURL = %q", e.WorkerURL("w"))
	}
	if len(e.AccountID()) != 32 || e.Token() == "" {
		t.Fatalf("account %q token %q", e.AccountID(), e.Token())
	}
	verify(t, e)

	before := []string{e.APIBaseURL(), e.WorkersBaseURL(), e.AccountID(), e.Token()}
	if err := syscall.Kill(e.Pid(), syscall.SIGKILL); err != nil {
		t.Fatalf("kill: %v", err)
	}
	testenv.WaitFor(t, 60*time.Second, 100*time.Millisecond, "the edge to be restarted", restarted(e))
	after := []string{e.APIBaseURL(), e.WorkersBaseURL(), e.AccountID(), e.Token()}
	if diff := cmp.Diff(before, after); diff != "" {
		t.Fatalf("URLs changed across the restart (-before +after):\n%s", diff)
	}
	verify(t, e)
	if err := e.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := http.Get(e.APIBaseURL() + "/user/tokens/verify"); err == nil {
		t.Fatal("the edge still answers after Close")
	}
}

func TestStartErrors(t *testing.T) {
	t.Parallel()
	script := edgeScript(t)

	// an edge directory whose npm dependencies were never installed
	bare := t.TempDir()
	copyFile(t, script, filepath.Join(bare, "server.mjs"))
	// src/ with its subdirectories (src/api)
	if err := os.CopyFS(filepath.Join(bare, "src"), os.DirFS(filepath.Join(filepath.Dir(script), "src"))); err != nil {
		t.Fatal(err)
	}

	busy := t.TempDir()
	start(t, localedge.Options{Script: script, DataDir: busy})

	tests := []struct {
		name string
		opts localedge.Options
		want []string
	}{
		{"node missing", localedge.Options{NodePath: "/nonexistent/node", Script: script, DataDir: t.TempDir()}, []string{"is Node.js installed"}},
		{"script missing", localedge.Options{Script: "/nonexistent/server.mjs", DataDir: t.TempDir()}, []string{"edge script"}},
		{"no data dir", localedge.Options{Script: script}, []string{"DataDir"}},
		{"deps not installed", localedge.Options{Script: filepath.Join(bare, "server.mjs"), DataDir: t.TempDir()}, []string{"npm ci", "edge stderr", "miniflare"}},
		{"data dir in use", localedge.Options{Script: script, DataDir: busy}, []string{"in use by another edge"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, err := localedge.Start(context.Background(), tc.opts)
			if err == nil {
				_ = e.Close()
				t.Fatal("Start succeeded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// api calls the edge's Cloudflare API and decodes the envelope's result into out (when not nil).
func api(t *testing.T, e *localedge.Edge, method, path, contentType string, body io.Reader, out any) {
	t.Helper()
	req, err := http.NewRequest(method, e.APIBaseURL()+"/accounts/"+e.AccountID()+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.Token())
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var env struct {
		Success bool            `json:"success"`
		Result  json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(raw, &env); err != nil || !env.Success {
		t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	if out != nil {
		if err := json.Unmarshal(env.Result, out); err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

const slowWorkflow = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Slow extends WorkflowEntrypoint {
  async run(event, step) {
    const a = await step.do("slow", async () => {
      await new Promise((r) => setTimeout(r, 4000));
      return event.payload.n + 1;
    });
    return await step.do("after", async () => ({ result: a * 2 }));
  }
}
export default { fetch() { return new Response("ok"); } };
`

func deploySlow(t *testing.T, e *localedge.Edge) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	_ = mw.WriteField("metadata", `{"main_module":"index.js","compatibility_date":"2025-01-01","bindings":[{"type":"workflow","name":"WF","workflow_name":"slow","class_name":"Slow"}]}`)
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="index.js"; filename="index.js"`)
	h.Set("Content-Type", "application/javascript+module")
	part, _ := mw.CreatePart(h)
	_, _ = part.Write([]byte(slowWorkflow))
	_ = mw.Close()
	api(t, e, http.MethodPut, "/workers/scripts/slow", mw.FormDataContentType(), &buf, nil)
	api(t, e, http.MethodPut, "/workflows/slow", "application/json", strings.NewReader(`{"script_name":"slow","class_name":"Slow"}`), nil)
}

type instance struct {
	Status string          `json:"status"`
	Output json.RawMessage `json:"output"`
	Steps  []struct {
		Name  string `json:"name"`
		Start string `json:"start"`
	} `json:"steps"`
}

// children lists the pids whose parent is pid.
func children(pid int) []int {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", pid, pid))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(raw)) {
		var p int
		fmt.Sscan(f, &p)
		out = append(out, p)
	}
	return out
}

// gone reports whether pid no longer runs (a zombie waiting to be reaped counts as gone).
func gone(pid int) bool {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(raw)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}

func waitGone(t *testing.T, what string, pids []int) {
	t.Helper()
	testenv.WaitFor(t, 5*time.Second, 50*time.Millisecond, what+" to be gone", func() (bool, string) {
		for _, p := range pids {
			if !gone(p) {
				return false, fmt.Sprintf("pid %d still runs", p)
			}
		}
		return true, ""
	})
}

// restarted is the fact that the supervisor restarted the edge at least once.
func restarted(e *localedge.Edge) func() (bool, string) {
	return func() (bool, string) { return e.Restarts() >= 1, fmt.Sprintf("%d restarts", e.Restarts()) }
}

// A SIGKILL of node takes workerd with it; the supervisor starts the edge again and an instance that was in the
// middle of a step when it died runs to completion. Close leaves no process behind.
func TestKilledEdgeLeavesNoOrphanAndRunningInstanceCompletes(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		testenv.Missing(t, "process checks read /proc (Linux only)")
	}
	e := start(t, localedge.Options{Script: edgeScript(t), DataDir: t.TempDir()})
	deploySlow(t, e)
	api(t, e, http.MethodPost, "/workflows/slow/instances", "application/json", strings.NewReader(`{"instance_id":"i1","params":{"n":20}}`), nil)
	testenv.WaitFor(t, 30*time.Second, 100*time.Millisecond, "the instance to start its first step", func() (bool, string) {
		var in instance
		api(t, e, http.MethodGet, "/workflows/slow/instances/i1", "", nil, &in)
		return len(in.Steps) > 0 && in.Steps[0].Start != "", fmt.Sprintf("%+v", in)
	})

	node := e.Pid()
	kids := children(node)
	if len(kids) == 0 {
		t.Fatal("node has no child (workerd)")
	}
	if err := syscall.Kill(node, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitGone(t, "workerd of the killed edge", kids)
	testenv.WaitFor(t, 60*time.Second, 100*time.Millisecond, "the edge to be restarted", restarted(e))

	var in instance
	testenv.WaitFor(t, 60*time.Second, 200*time.Millisecond, "the instance to end after the restart", func() (bool, string) {
		in = instance{}
		api(t, e, http.MethodGet, "/workflows/slow/instances/i1", "", nil, &in)
		return in.Status == "complete" || in.Status == "errored" || in.Status == "terminated", fmt.Sprintf("%+v", in)
	})
	if diff := cmp.Diff(`{"status":"complete","output":{"result":42}}`, fmt.Sprintf(`{"status":%q,"output":%s}`, in.Status, in.Output)); diff != "" {
		t.Fatalf("instance after the restart (-want +got):\n%s", diff)
	}

	node = e.Pid()
	group := append([]int{node}, children(node)...)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	waitGone(t, "edge process after Close", group)
}

func TestParseReady(t *testing.T) {
	t.Parallel()
	good := localedge.Ready{API: "http://127.0.0.1:8787/client/v4", Workers: "http://127.0.0.1:8787/workers", AccountID: "abc", TokenFile: "/d/token"}
	tests := []struct {
		name    string
		line    string
		want    localedge.Ready
		wantErr string
	}{
		{"ready", `{"api":"http://127.0.0.1:8787/client/v4","workers":"http://127.0.0.1:8787/workers","accountId":"abc","tokenFile":"/d/token"}` + "\n", good, ""},
		{"not JSON", "edge: starting", localedge.Ready{}, "unexpected first line"},
		{"missing field", `{"api":"http://127.0.0.1:8787/client/v4"}`, localedge.Ready{}, "required"},
		{"bad api", `{"api":"ftp://x/client/v4","workers":"w","accountId":"a","tokenFile":"t"}`, localedge.Ready{}, "api must be"},
		{"no port", `{"api":"http://127.0.0.1/client/v4","workers":"w","accountId":"a","tokenFile":"t"}`, localedge.Ready{}, "host:port"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := localedge.ParseReady([]byte(tc.line))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("(-want +got):\n%s", diff)
			}
		})
	}
}

// FindScript honours EDGEFLOW_EDGE_DIR and otherwise finds edge/server.mjs from the working directory up. The
// test changes the environment and the working directory, so it does not run in parallel.
func TestFindScript(t *testing.T) {
	repoEdge, err := filepath.Abs(filepath.Join("..", "..", "edge", "server.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(localedge.EnvEdgeDir, "")
	got, err := localedge.FindScript()
	if err != nil || got != repoEdge {
		t.Fatalf("from the package dir: %q, %v; want %q", got, err, repoEdge)
	}

	custom := t.TempDir()
	if err := os.WriteFile(filepath.Join(custom, "server.mjs"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(localedge.EnvEdgeDir, custom)
	got, err = localedge.FindScript()
	if err != nil || got != filepath.Join(custom, "server.mjs") {
		t.Fatalf("with %s: %q, %v", localedge.EnvEdgeDir, got, err)
	}

	t.Setenv(localedge.EnvEdgeDir, t.TempDir())
	if _, err := localedge.FindScript(); err == nil || !strings.Contains(err.Error(), "has no server.mjs") {
		t.Fatalf("an empty %s: %v", localedge.EnvEdgeDir, err)
	}
}

// After a kill -9 the supervisor keeps starting the edge until it comes back, however often that fails: here the
// edge's port is taken by another program for a few seconds (several failed starts) and the killed edge's lock
// names a pid that now belongs to another program (a reused pid), which the next edge takes over.
func TestSupervisorRetriesUntilTheEdgeComesBack(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		testenv.Missing(t, "the lock's owner check reads /proc (Linux only)")
	}
	dir := t.TempDir()
	// The first restart waits a second (starts at 1, 3 and 7 s after the kill): time enough, on a loaded
	// machine too, to take the port before the supervisor does.
	failed := &countingHandler{message: "edge restart failed"}
	e := start(t, localedge.Options{Script: edgeScript(t), DataDir: dir, RestartDelay: time.Second, Logger: slog.New(failed)})
	port := e.Port()
	if err := syscall.Kill(e.Pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The killed edge's socket closes as the kernel reaps it: take the port as soon as it is free.
	var l net.Listener
	testenv.WaitFor(t, 800*time.Millisecond, time.Millisecond, "the edge's port to be free", func() (bool, string) {
		var err error
		l, err = net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		return err == nil, fmt.Sprint(err)
	})
	other := exec.Command("sleep", "60")
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = other.Process.Kill(); _ = other.Wait() })
	if err := os.WriteFile(filepath.Join(dir, "edge.lock"), fmt.Appendf(nil, "%d\n", other.Process.Pid), 0o600); err != nil {
		t.Fatal(err)
	}
	// The starts at 1 and 3 s fail, as the supervisor logs: the port is taken.
	testenv.WaitFor(t, 30*time.Second, 50*time.Millisecond, "two failed restarts", func() (bool, string) {
		return failed.count.Load() >= 2, fmt.Sprintf("%d failed restarts", failed.count.Load())
	})
	if e.Restarts() != 0 {
		t.Fatalf("the edge restarted on a taken port (%d restarts)", e.Restarts())
	}
	l.Close()
	testenv.WaitFor(t, 90*time.Second, 100*time.Millisecond, "the edge to be restarted once its port is free again", restarted(e))
	if e.Port() != port {
		t.Fatalf("port %d after the restart, want %d", e.Port(), port)
	}
	verify(t, e)
}

// countingHandler counts the log records of one message (the supervisor's events), discarding all.
type countingHandler struct {
	message string
	count   atomic.Int32
}

func (h *countingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *countingHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.message {
		h.count.Add(1)
	}
	return nil
}

func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *countingHandler) WithGroup(string) slog.Handler      { return h }
