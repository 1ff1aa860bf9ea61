package e2e_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/localedge"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// wranglerCLI finds wrangler 4 (from the npm registry) and a Node it runs
// on: EDGEFLOW_WRANGLER (the path of wrangler's bin/wrangler.js) or the
// copy in ~/.cache/edgeflow/wrangler4 (internal/api's export test uses the
// same).
func wranglerCLI(t *testing.T) (node, script string) {
	t.Helper()
	script = os.Getenv("EDGEFLOW_WRANGLER")
	if script == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		script = filepath.Join(cache, "edgeflow", "wrangler4", "node_modules", "wrangler", "bin", "wrangler.js")
	}
	if _, err := os.Stat(script); err != nil {
		testenv.Missing(t, "wrangler 4 is not installed: `npm install wrangler@4` in ~/.cache/edgeflow/wrangler4, or set EDGEFLOW_WRANGLER to its bin/wrangler.js")
	}
	node, err := localedge.FindNode(context.Background(), "", filepath.Join(testenv.Root(), "edge", "server.mjs"))
	if err != nil {
		testenv.Missing(t, "%v", err)
	}
	return node, script
}

// exportTo exports a version through the API and unpacks the archive into
// a new directory.
func (s *server) exportTo(workflowID, versionID string) string {
	s.t.Helper()
	t := s.t
	r := s.must(200, "GET", "/api/workflows/"+workflowID+"/versions/"+versionID+"/export?format=wrangler", nil)
	zr, err := gzip.NewReader(bytes.NewReader(r.body))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, filepath.FromSlash(h.Name))
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// freePort answers a TCP port of 127.0.0.1 nobody listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// wranglerDev starts `wrangler dev --local` in an exported project, with
// vars (.dev.vars) as its secrets, and answers its URL once it answers; the
// process group is ended when the test ends.
func wranglerDev(t *testing.T, dir string, vars map[string]string) string {
	t.Helper()
	node, script := wranglerCLI(t)
	var dv strings.Builder
	for k, v := range vars {
		fmt.Fprintf(&dv, "%s=%s\n", k, v)
	}
	if err := os.WriteFile(filepath.Join(dir, ".dev.vars"), []byte(dv.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	port, inspector := freePort(t), freePort(t)
	cmd := exec.Command(node, script, "dev", "--local", "--ip", "127.0.0.1", "--port", fmt.Sprint(port),
		"--inspector-port", fmt.Sprint(inspector), "--show-interactive-dev-session=false")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=1", "HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, ".config"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-exited
		}
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	testenv.WaitFor(t, 3*time.Minute, 200*time.Millisecond, "wrangler dev answering at "+url, func() (bool, string) {
		select {
		case <-exited:
			t.Fatalf("wrangler dev exited:\n%s", out.String())
		default:
		}
		res, err := http.Get(url + "/")
		if err != nil {
			return false, out.String()
		}
		res.Body.Close()
		return true, ""
	})
	return url
}

// TestExportWranglerDev is the export's promise that nothing is locked in: an
// example exported through the API runs under `wrangler dev --local` (wrangler
// 4 from the npm registry, no edgeflow anywhere) and answers what the same
// version deployed by edgeflow to the local edge answers for the same input:
// a workflow's run through its worker's fetch handler (started with the token
// the user chose, sent its event when it waits for one) completes with the
// same output; a function answers the same. flaky and http-retry are left
// out: their answers depend on calls made before (flaky's attempt count).
func TestExportWranglerDev(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	wranglerCLI(t)
	s := newServer(t, serverOptions{})

	// Workflows: the same params (and, for approval, the same event) through the exported worker's fetch handler
	// and through edgeflow give the same output.
	workflows := []struct {
		name  string
		event map[string]any // sent once the run waits
	}{
		{name: "hello"},
		{name: "fan-out"},
		{name: "approval", event: map[string]any{"eventType": "approval", "payload": map[string]any{"approved": true, "by": "Grace", "comment": "fine"}}},
	}
	for _, c := range workflows {
		t.Run("workflow "+c.name, func(t *testing.T) {
			s := *s
			s.t = t
			ex := loadExample(t, c.name)
			wf, d := s.deployExample(ex, nil)
			id := s.trigger(wf, ex.params)
			if c.event != nil {
				s.waitRun(wf, id, 60*time.Second, "waiting for the event", func(r run) bool {
					return r.Status == "paused" || r.StatusDetail != ""
				})
				params := map[string]any{"instanceId": id}
				for k, v := range c.event {
					params[k] = v
				}
				s.must(202, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": params})
			}
			want := s.waitStatus(wf, id, "complete", 120*time.Second).Output

			url := wranglerDev(t, s.exportTo(wf, d.VersionID), map[string]string{"EDGEFLOW_WORKER_TOKEN": "chosen-by-the-user"})
			call := func(method, path, body string, token bool) (int, []byte) {
				req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				if token {
					req.Header.Set("Authorization", "Bearer chosen-by-the-user")
				}
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				defer res.Body.Close()
				raw, _ := io.ReadAll(res.Body)
				return res.StatusCode, raw
			}
			if status, body := call("POST", "/", string(ex.params), false); status != 401 {
				t.Fatalf("a trigger without the token = %d %s, want 401", status, body)
			}
			status, body := call("POST", "/", string(ex.params), true)
			var started struct {
				InstanceID string `json:"instanceId"`
			}
			if status != 200 || json.Unmarshal(body, &started) != nil || started.InstanceID == "" {
				t.Fatalf("POST / = %d %s", status, body)
			}
			var got struct {
				Status string          `json:"status"`
				Output json.RawMessage `json:"output"`
				// wrangler dev's status of a run lists the outputs of its steps so far.
				Steps []json.RawMessage `json:"__LOCAL_DEV_STEP_OUTPUTS"`
			}
			poll := func(what string, done func() bool) {
				testenv.WaitFor(t, 2*time.Minute, 200*time.Millisecond, what, func() (bool, string) {
					status, body := call("GET", "/?instanceId="+started.InstanceID, "", true)
					if status != 200 || json.Unmarshal(body, &got) != nil {
						return false, fmt.Sprintf("%d %s", status, body)
					}
					if got.Status == "errored" || got.Status == "terminated" {
						t.Fatalf("the run ended %s: %s", got.Status, body)
					}
					return done(), string(body)
				})
			}
			if c.event != nil {
				// wrangler dev reports a run that waits for an event as running: the event is sent once its
				// first step (the one before the wait) has ended.
				poll("the exported workflow's run waiting for its event", func() bool { return got.Status == "waiting" || len(got.Steps) > 0 })
				ev := map[string]any{"instanceId": started.InstanceID}
				for k, v := range c.event {
					ev[k] = v
				}
				raw, _ := json.Marshal(ev)
				if status, body := call("POST", "/", string(raw), true); status != 200 {
					t.Fatalf("sending the event = %d %s", status, body)
				}
			}
			poll("the exported workflow's run completing", func() bool { return got.Status == "complete" })
			jsonEqual(t, got.Output, string(want))
		})
	}

	t.Run("function quote", func(t *testing.T) {
		s := *s
		s.t = t
		ex := loadExample(t, "quote")
		wf, d := s.deployExample(ex, nil)
		url := wranglerDev(t, s.exportTo(wf, d.VersionID), map[string]string{"EDGEFLOW_WORKER_TOKEN": "chosen-by-the-user"})
		for _, body := range []string{string(ex.params), `{"items":[]}`} {
			wantStatus, want := post(t, "POST", d.URL, body)
			gotStatus, got := post(t, "POST", url+"/", body)
			if gotStatus != wantStatus || !bytes.Equal(bytes.TrimSpace(got), bytes.TrimSpace(want)) {
				t.Errorf("POST %s: wrangler dev = %d %s; edgeflow = %d %s", body, gotStatus, got, wantStatus, want)
			}
		}
	})
}
