package e2e_test

import (
	"bufio"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
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

// TestRunEventsOnTheLocalEdge: a real deploy and a real run on the local
// edge, followed by the background refresher, reach a run stream (the run's
// creation and completion) and a webhook receiver (deploy.completed and
// run.completed, signed as the Standard Webhooks specification says,
// checked here from the specification).
func TestRunEventsOnTheLocalEdge(t *testing.T) {
	t.Parallel()
	allow, err := netguard.ParseAllowList("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	s := newServer(t, serverOptions{refresherInterval: 200 * time.Millisecond, allowHosts: allow})

	var mu sync.Mutex
	type message struct {
		header http.Header
		body   []byte
	}
	var got []message
	rc := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, message{r.Header.Clone(), b})
		mu.Unlock()
		w.WriteHeader(204)
	}))
	t.Cleanup(rc.Close)
	hook := s.must(201, "POST", "/api/webhooks", map[string]any{"url": rc.URL + "/events"})
	sec := hook.str("secret")

	// The run stream, opened before anything happens.
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, "GET", s.url+"/api/runs/stream", nil)
	req.Header.Set("Authorization", "Bearer "+s.key)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("stream: %v %v", res, err)
	}
	statuses := make(chan [2]string, 16)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var ev struct{ ID, Status string }
				json.Unmarshal([]byte(data), &ev)
				statuses <- [2]string{ev.ID, ev.Status}
			}
		}
	}()

	wf, _ := s.workflow("Hooked", "workflow", chain("Hooked", step("one", "return { n: 1 };"), step("two", "return { n: 2 };")))
	s.deploy(wf)
	runID := s.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn}).str("id")

	var seen []string
	deadline := time.After(90 * time.Second)
	for len(seen) == 0 || seen[len(seen)-1] != "complete" {
		select {
		case ev := <-statuses:
			if ev[0] != runID {
				t.Fatalf("the stream sent %v, not of run %s", ev, runID)
			}
			seen = append(seen, ev[1])
		case <-deadline:
			t.Fatalf("the stream showed %v, never complete", seen)
		}
	}
	if seen[0] != "queued" {
		t.Fatalf("the stream showed %v, want queued first", seen)
	}

	// The dispatcher serve runs, with the operator's list.
	sealer, err := secret.New(testSecretKey)
	if err != nil {
		t.Fatal(err)
	}
	d := &webhook.Dispatcher{Store: s.store, Sealer: sealer, Guard: netguard.New(allow)}
	types := map[string]bool{}
	testenv.WaitFor(t, 30*time.Second, 100*time.Millisecond, "deploy.completed and run.completed", func() (bool, string) {
		if _, err := d.DeliverDue(context.Background(), 10); err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		for _, m := range got {
			var body struct {
				Type string `json:"type"`
				Data struct {
					ID         string `json:"id"`
					WorkflowID string `json:"workflowId"`
				} `json:"data"`
			}
			json.Unmarshal(m.body, &body)
			if err := verifySignature(sec, m.header, m.body); err != nil {
				t.Fatalf("%s: %v", body.Type, err)
			}
			if body.Data.WorkflowID != wf || (strings.HasPrefix(body.Type, "run.") && body.Data.ID != runID) {
				t.Fatalf("message %s is not of the workflow's run", m.body)
			}
			types[body.Type] = true
		}
		mu.Unlock()
		return types["deploy.completed"] && types["run.completed"], fmt.Sprint(types)
	})
	if !types["deploy.completed"] || !types["run.completed"] {
		t.Fatalf("the receiver got %v, want deploy.completed and run.completed", types)
	}
}

// verifySignature checks a message as the Standard Webhooks specification
// describes: HMAC-SHA256 of "id.timestamp.body" keyed with the base64 part
// of the secret, one of the space-separated "v1,<base64>" signatures.
func verifySignature(secretText string, h http.Header, body []byte) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secretText, "whsec_"))
	if err != nil {
		return err
	}
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "%s.%s.%s", h.Get("webhook-id"), h.Get("webhook-timestamp"), body)
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		if b, ok := strings.CutPrefix(sig, "v1,"); ok {
			if raw, err := base64.StdEncoding.DecodeString(b); err == nil && hmac.Equal(raw, m.Sum(nil)) {
				return nil
			}
		}
	}
	return fmt.Errorf("no signature matches: %q", h.Get("webhook-signature"))
}
