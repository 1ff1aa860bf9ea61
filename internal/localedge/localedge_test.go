package localedge_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/google/go-cmp/cmp"
)

func edgeScript(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
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
	deadline := time.Now().Add(60 * time.Second)
	for e.Restarts() < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the edge was not restarted")
		}
		time.Sleep(100 * time.Millisecond)
	}
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
	if err := os.MkdirAll(filepath.Join(bare, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	srcs, _ := filepath.Glob(filepath.Join(filepath.Dir(script), "src", "*"))
	for _, s := range srcs {
		copyFile(t, s, filepath.Join(bare, "src", filepath.Base(s)))
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
