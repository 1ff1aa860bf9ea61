package e2e_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/edgeflow/edgeflow/internal/webhook"
)

// TestSensitiveOutput: a step marked config.sensitive hands its value to
// the next step on the real local edge (whose output proves it with the
// value's SHA-256), while the run record, the step output route, the logs,
// a search for the value, the run stream and the webhook bodies never hold
// it. A restart from the step after it executes the sensitive step again
// (its output was never kept to replay) and still gets the digest right.
func TestSensitiveOutput(t *testing.T) {
	t.Parallel()
	allow, err := netguard.ParseAllowList("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, serverOptions{refresherInterval: 200 * time.Millisecond, allowHosts: allow})
	const value = "zqxsecret4711" // built by the step, in no params or code
	sum := sha256.Sum256([]byte(value))
	digest := hex.EncodeToString(sum[:])

	var mu sync.Mutex
	var hooks bytes.Buffer
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hooks.Write(b)
		hooks.WriteByte('\n')
		mu.Unlock()
		w.WriteHeader(204)
	}))
	t.Cleanup(rc.Close)
	s.must(201, "POST", "/api/webhooks", map[string]any{"url": rc.URL + "/events"})

	// The run stream, read whole into stream.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", s.url+"/api/runs/stream", nil)
	req.Header.Set("Authorization", "Bearer "+s.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", res, err)
	}
	var stream bytes.Buffer
	streamDone := make(chan struct{})
	go func() {
		defer close(streamDone)
		defer res.Body.Close()
		b := make([]byte, 4096)
		for {
			n, err := res.Body.Read(b)
			mu.Lock()
			stream.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()

	token := step("token", "console.log('issuing a token'); return { token: 'zqx' + 'secret' + event.payload.n };")
	token["config"] = map[string]any{"sensitive": true}
	hash := step("hash", "const d = await crypto.subtle.digest('SHA-256', new TextEncoder().encode({{token.token}}));\n"+
		"console.log('hashed');\n"+
		"return { digest: [...new Uint8Array(d)].map((b) => b.toString(16).padStart(2, '0')).join('') };")
	wf, _ := s.workflow("Sensitive", "workflow", chain("Sensitive", token, hash))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"n": 4711})
	done := s.waitStatus(wf, id, "complete", 60*time.Second)

	// The next step got the real value: its output is the value's digest.
	jsonEqual(t, done.Output, `{"digest": "`+digest+`"}`)
	if len(done.Steps) != 2 || done.Steps[0].NodeID != "token" || string(done.Steps[0].Output) != `"[REDACTED]"` {
		t.Fatalf("steps = %+v", done.Steps)
	}
	body := s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+id, nil).body
	if !strings.Contains(string(body), `"sensitive":true`) {
		t.Errorf("the run's detail does not mark the step sensitive: %s", body)
	}
	leaks := func(what string, b []byte) {
		t.Helper()
		if bytes.Contains(b, []byte(value)) {
			t.Errorf("%s holds the sensitive value: %s", what, b)
		}
	}
	leaks("the run's detail", body)
	leaks("the project's run", s.must(200, "GET", "/api/runs/"+id, nil).body)
	leaks("the run list", s.must(200, "GET", "/api/runs?workflowId="+wf, nil).body)
	out := s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+id+"/steps/token/output", nil)
	jsonEqual(t, mustJSON(t, out.obj()["output"]), `"[REDACTED]"`)
	leaks("the step output", out.body)
	logs := s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+id+"/logs", nil).body
	if !bytes.Contains(logs, []byte("hashed")) {
		t.Fatalf("the logs miss the run's lines: %s", logs)
	}
	leaks("the logs", logs)
	var found struct {
		Data []json.RawMessage `json:"data"`
	}
	s.must(200, "GET", "/api/runs?q="+value, nil).into(&found)
	if len(found.Data) != 0 {
		t.Errorf("a search for the value found %d runs", len(found.Data))
	}
	s.must(200, "GET", "/api/runs?q="+digest, nil).into(&found)
	if len(found.Data) != 1 {
		t.Errorf("a search for the digest (not sensitive) found %d runs, want 1", len(found.Data))
	}

	// A restart from the step after the sensitive one executes the
	// sensitive step again: it is not among the replayed steps.
	var restarted run
	s.must(201, "POST", "/api/workflows/"+wf+"/runs/"+id+"/restart", map[string]any{"fromStep": "hash"}).into(&restarted)
	again := s.waitStatus(wf, restarted.ID, "complete", 60*time.Second)
	jsonEqual(t, again.Output, `{"digest": "`+digest+`"}`)
	var states []string
	for _, st := range again.Steps {
		states = append(states, st.NodeID+":"+st.State)
	}
	if got := strings.Join(states, " "); got != "token:complete hash:complete" {
		t.Fatalf("steps of the restart: %s", got)
	}
	leaks("the restarted run", s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+restarted.ID, nil).body)

	// Webhooks: run.completed of both runs delivered, none holding it.
	sealer, err := secret.New(testSecretKey)
	if err != nil {
		t.Fatal(err)
	}
	d := &webhook.Dispatcher{Store: s.store, Sealer: sealer, Guard: netguard.New(allow)}
	testenv.WaitFor(t, 30*time.Second, 100*time.Millisecond, "run.completed of both runs", func() (bool, string) {
		if _, err := d.DeliverDue(context.Background(), 20); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		n := strings.Count(hooks.String(), `"run.completed"`)
		return n >= 2, fmt.Sprintf("%d run.completed", n)
	})
	testenv.WaitFor(t, 30*time.Second, 100*time.Millisecond, "both runs complete in the run stream", func() (bool, string) {
		mu.Lock()
		defer mu.Unlock()
		n := strings.Count(stream.String(), `"status":"complete"`)
		return n >= 2, fmt.Sprintf("%d complete", n)
	})
	cancel()
	<-streamDone
	mu.Lock()
	defer mu.Unlock()
	leaks("the run stream", stream.Bytes())
	leaks("the webhook bodies", hooks.Bytes())
}
