package e2e_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// signedCall sends a signed request and answers its status, Retry-After
// and decoded body.
func signedCall(t *testing.T, u, body string, headers map[string]string) (int, string, map[string]any) {
	t.Helper()
	req, err := http.NewRequest("POST", u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", u, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	m := map[string]any{}
	if json.Unmarshal(raw, &m) != nil {
		m["raw"] = string(raw)
	}
	return res.StatusCode, res.Header.Get("Retry-After"), m
}

type signedSecret struct {
	triggerSecret
	ViaEdgeflow bool `json:"viaEdgeflow"`
}

// TestSignedTriggerFlowControl: the public trigger of a workflow with a
// rate limit (one start an hour) goes through edgeflow's signed trigger,
// which the trigger secret's url names: the first signed request starts a
// run, the next one is 429 with Retry-After, with ?queue=true it is held;
// the worker, which has no trigger secret then, refuses a signed request
// (the way around the limit is closed). Its twin: an unlimited workflow's
// public trigger is still the worker's url and starts an instance at once.
func TestSignedTriggerFlowControl(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{refresherInterval: 100 * time.Millisecond})
	wf, _ := s.workflow("Limited hook", "workflow", chain("Limited hook",
		step("greet", "return { greeting: 'hello ' + event.payload.name };")))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"deployConfig": map[string]any{
		"publicTrigger": true, "rateLimit": map[string]any{"limit": 1, "period": "1 hour"}}})
	d := s.deploy(wf)
	var sec signedSecret
	s.must(200, "GET", "/api/workflows/"+wf+"/trigger-secret?connectionId="+s.conn, nil).into(&sec)
	if !sec.ViaEdgeflow || !strings.HasPrefix(sec.URL, s.url+"/api/workflows/"+wf+"/signed-trigger?connectionId=") {
		t.Fatalf("trigger secret of a flow-controlled workflow: %+v, want edgeflow's signed trigger", sec)
	}
	now := time.Now().Unix()

	// The worker does not take signed requests: it has no secret to check them with.
	body := `{"name":"worker"}`
	if code, _, res := signedCall(t, d.URL, body, sign(sec.Secret, now, body)); code != 401 {
		t.Fatalf("a signed request to the worker of a flow-controlled workflow: %d %v, want 401", code, res)
	}

	body = `{"name":"first"}`
	code, _, first := signedCall(t, sec.URL, body, sign(sec.Secret, now, body))
	if code != 201 || !strings.HasPrefix(first["instanceId"].(string), "sig_") {
		t.Fatalf("first signed request: %d %v", code, first)
	}
	done := s.waitStatus(wf, first["id"].(string), "complete", 60*time.Second)
	jsonEqual(t, done.Output, `{"greeting":"hello first"}`)
	if code, _, again := signedCall(t, sec.URL, body, sign(sec.Secret, now, body)); code != 409 {
		t.Fatalf("the same signed request again: %d %v, want 409", code, again)
	}

	body = `{"name":"second"}`
	code, retry, res := signedCall(t, sec.URL, body, sign(sec.Secret, now, body))
	if code != 429 || res["code"] != "rate_limited" || retry == "" || retry == "0" {
		t.Fatalf("a signed request over the rate limit: %d Retry-After %q %v, want 429 rate_limited with Retry-After", code, retry, res)
	}
	code, _, held := signedCall(t, sec.URL+"&queue=true", body, sign(sec.Secret, now, body))
	if code != 201 || held["statusDetail"] != "held" {
		t.Fatalf("the same with queue=true: %d %v, want 201 held", code, held)
	}
	if r := s.run(wf, held["id"].(string)); r.Status != "queued" || r.StatusDetail != "held" {
		t.Fatalf("the held run is %s/%s", r.Status, r.StatusDetail)
	}

	// Refusals answer as the worker's do, and start nothing.
	for name, h := range map[string]map[string]string{
		"unsigned":        nil,
		"wrong secret":    sign("efs_not-the-secret", now, body),
		"stale timestamp": sign(sec.Secret, now-3600, body),
	} {
		if code, _, res := signedCall(t, sec.URL, body, h); code != 401 || res["code"] != "unauthorized" {
			t.Errorf("%s: %d %v, want 401 unauthorized", name, code, res)
		}
	}
	other := strings.Replace(sec.URL, wf, "wf_000000000000000000000000", 1)
	if code, _, res := signedCall(t, other, body, sign(sec.Secret, now, body)); code != 401 {
		t.Errorf("another workflow's id: %d %v, want 401", code, res)
	}
	if n := len(s.runs(wf)); n != 2 {
		t.Errorf("the workflow has %d runs, want 2 (the first and the held one)", n)
	}

	// The twin: without flow control the worker takes the signed request.
	free, _ := s.workflow("Free hook", "workflow", chain("Free hook",
		step("greet", "return { greeting: 'hello ' + event.payload.name };")))
	s.must(200, "PATCH", "/api/workflows/"+free, map[string]any{"deployConfig": map[string]any{"publicTrigger": true}})
	fd := s.deploy(free)
	var fsec signedSecret
	s.must(200, "GET", "/api/workflows/"+free+"/trigger-secret?connectionId="+s.conn, nil).into(&fsec)
	if fsec.ViaEdgeflow || fsec.URL != fd.URL {
		t.Fatalf("trigger secret of an unlimited workflow: %+v, want the worker's url %s", fsec, fd.URL)
	}
	body = `{"name":"free"}`
	code, _, started := signedCall(t, fsec.URL, body, sign(fsec.Secret, now, body))
	if code != 200 || !strings.HasPrefix(started["instanceId"].(string), "sig_") {
		t.Fatalf("signed request to the unlimited workflow's worker: %d %v", code, started)
	}
	testenv.WaitFor(t, 30*time.Second, 200*time.Millisecond, "the signed instance to be recorded and complete", func() (bool, string) {
		for _, r := range s.runs(free) {
			if r.InstanceID == started["instanceId"] {
				return r.Status == "complete", r.Status
			}
		}
		return false, "no run of it"
	})
}
