package e2e_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// Who may call a deployed workflow's worker (docs/deploy.md): the
// deployment's token, which edgeflow sends; with deployConfig.publicTrigger
// also a signed request that creates an instance. A function stays public.

// workerCall sends a request to a worker URL with the given headers.
func workerCall(t testing.TB, method, u, body string, headers map[string]string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var m map[string]any
	json.Unmarshal(raw, &m)
	if m == nil {
		m = map[string]any{"raw": string(raw)}
	}
	return res.StatusCode, m
}

func bearer(token string) map[string]string {
	if token == "" {
		return nil
	}
	return map[string]string{"Authorization": "Bearer " + token}
}

// leakyApproval is a workflow whose first step returns the worker's own
// token (the workflow's code can read its env), standing for a token that
// leaked, and which then waits for an approval event.
func leakyApproval(name string) map[string]any {
	return chain(name,
		step("request", "return { order: event.payload.order, token: env.EDGEFLOW_WORKER_TOKEN };"),
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		step("finish", "return { token: {{request.token}}, approved: {{approval.approved}}, by: {{approval.by}} };"),
	)
}

// approve delivers the approval event through edgeflow's trigger endpoint.
func (s *server) approve(workflowID, runID, by string) {
	s.t.Helper()
	s.must(202, "POST", "/api/workflows/"+workflowID+"/trigger", map[string]any{"connectionId": s.conn,
		"params": map[string]any{"instanceId": runID, "eventType": "approval", "payload": map[string]any{"approved": true, "by": by}}})
}

func (s *server) waitWaiting(workflowID, runID string) run {
	s.t.Helper()
	return s.waitRun(workflowID, runID, 30*time.Second, "waiting for the event", func(r run) bool {
		return r.Status == "paused" && r.StatusDetail == "waiting"
	})
}

// leakedToken is the token a finished leakyApproval run returned.
func leakedToken(t testing.TB, r run) string {
	t.Helper()
	var out struct {
		Token string `json:"token"`
	}
	if err := json.Unmarshal(r.Output, &out); err != nil || !strings.HasPrefix(out.Token, "efw_") {
		t.Fatalf("run output %s has no worker token", r.Output)
	}
	return out.Token
}

// TestAttackWorkerURL: a stranger (another organization) who knows a
// deployed workflow's worker URL cannot create an instance, read an
// instance's status or output, or send an event to a waiting run — without
// a token, with a wrong one, with the deployment's own earlier (rotated)
// token, or with the token of a deployment of their own. TestLegitWorkerURL
// is the twin.
func TestAttackWorkerURL(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	mallory := s.tenant("mallory@example.com")

	// The victim's workflow; its first run leaks the first deployment's token.
	wf, _ := s.workflow("Approval", "workflow", leakyApproval("Approval"))
	d1 := s.deploy(wf)
	first := s.trigger(wf, map[string]any{"order": 1})
	s.waitWaiting(wf, first)
	s.approve(wf, first, "ann")
	oldToken := leakedToken(t, s.waitStatus(wf, first, "complete", 30*time.Second))

	// Redeploying the same version rotates the token.
	d2 := s.deploy(wf)
	if d2.URL != d1.URL {
		t.Fatalf("redeploy moved the worker: %s -> %s", d1.URL, d2.URL)
	}
	target := s.trigger(wf, map[string]any{"order": 2})
	s.waitWaiting(wf, target)

	// Mallory's own deployment, and its token.
	mwf, _ := mallory.workflow("Mine", "workflow", leakyApproval("Mine"))
	mallory.deploy(mwf)
	mrun := mallory.trigger(mwf, map[string]any{"order": 9})
	mallory.waitWaiting(mwf, mrun)
	mallory.approve(mwf, mrun, "mallory")
	malloryToken := leakedToken(t, mallory.waitStatus(mwf, mrun, "complete", 30*time.Second))

	status := d2.URL + "?instanceId=" + url.QueryEscape(target)
	event := `{"instanceId":"` + target + `","eventType":"approval","payload":{"approved":true,"by":"mallory"}}`
	firstStatus := d2.URL + "?instanceId=" + url.QueryEscape(first)
	for _, c := range []struct{ name, token string }{
		{"no token", ""},
		{"wrong token", "efw_" + strings.Repeat("A", 43)},
		{"the deployment's rotated token", oldToken},
		{"another organization's deployment token", malloryToken},
		{"edgeflow API key as token", mallory.key},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := bearer(c.token)
			if code, body := workerCall(t, "POST", d2.URL, `{"order":666}`, h); code != 401 || body["message"] == nil {
				t.Errorf("create: %d %v, want 401 with a message", code, body)
			}
			h2 := map[string]string{"X-Edgeflow-Instance-Id": "run_mallory"}
			for k, v := range h {
				h2[k] = v
			}
			if code, body := workerCall(t, "POST", d2.URL, `{}`, h2); code != 401 {
				t.Errorf("create with a chosen id: %d %v, want 401", code, body)
			}
			if code, body := workerCall(t, "GET", status, "", h); code != 401 || body["output"] != nil || body["status"] != nil {
				t.Errorf("status of the waiting run: %d %v, want 401 without status", code, body)
			}
			if code, body := workerCall(t, "GET", firstStatus, "", h); code != 401 || body["output"] != nil {
				t.Errorf("output of the finished run: %d %v, want 401 without output", code, body)
			}
			if code, body := workerCall(t, "POST", d2.URL, event, h); code != 401 {
				t.Errorf("event to the waiting run: %d %v, want 401", code, body)
			}
			// edgeflow's own create path (the local edge's trigger uses it) takes the token only.
			if code, body := workerCall(t, "POST", strings.TrimRight(d2.URL, "/")+"/__edgeflow/instances", `{"order":666}`, h2); code != 401 || body["message"] == nil {
				t.Errorf("create through the create path: %d %v, want 401 with a message", code, body)
			}
		})
	}

	// Nothing reached the run: it still waits, and no instance was created.
	if r := s.run(wf, target); r.Status != "paused" || r.StatusDetail != "waiting" {
		t.Fatalf("the attacked run is %s/%s, want paused/waiting", r.Status, r.StatusDetail)
	}
	if n := len(s.runs(wf)); n != 2 {
		t.Fatalf("%d runs, want 2", n)
	}
	s.approve(wf, target, "ann")
	done := s.waitStatus(wf, target, "complete", 30*time.Second)
	var out struct {
		By    string `json:"by"`
		Token string `json:"token"`
	}
	json.Unmarshal(done.Output, &out)
	if out.By != "ann" || out.Token == oldToken {
		t.Fatalf("run output %s: want by ann and a rotated token", done.Output)
	}
	// The current token works at the worker; a new version rotates it again.
	if code, body := workerCall(t, "GET", firstStatus, "", bearer(out.Token)); code != 200 || body["status"] != "complete" {
		t.Fatalf("status with the current token: %d %v", code, body)
	}
	s.version(wf, leakyApproval("Approval v2"))
	deployed := s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn})
	if code, body := workerCall(t, "GET", firstStatus, "", bearer(out.Token)); code != 401 {
		t.Fatalf("status with the token of the replaced deployment: %d %v, want 401", code, body)
	}

	// No API answer shows a worker token (only this workflow's own run
	// outputs do, because its code returns it).
	answers := map[string][]byte{"deploy": deployed.body}
	for _, p := range []string{"/api/workflows/" + wf, "/api/workflows/" + wf + "/full", "/api/workflows/" + wf + "/deployments",
		"/api/deployments", "/api/workflows/" + wf + "/trigger-secret?connectionId=" + s.conn} {
		answers[p] = s.do("GET", p, nil).body
	}
	answers["deploy-stream"] = s.do("POST", "/api/workflows/"+wf+"/deploy-stream", map[string]any{"connectionId": s.conn}).body
	for what, body := range answers {
		if strings.Contains(string(body), "efw_") || strings.Contains(string(body), oldToken) {
			t.Errorf("%s shows a worker token: %s", what, body)
		}
	}
}

// TestLegitWorkerURL: edgeflow's own trigger, run status and event delivery
// work on a deployed workflow, and a function stays publicly invocable.
func TestLegitWorkerURL(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Approval", "workflow", leakyApproval("Approval"))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"order": 5})
	s.waitWaiting(wf, id)
	s.approve(wf, id, "ann")
	done := s.waitStatus(wf, id, "complete", 30*time.Second)
	var out struct {
		Approved bool   `json:"approved"`
		By       string `json:"by"`
	}
	json.Unmarshal(done.Output, &out)
	if !out.Approved || out.By != "ann" {
		t.Fatalf("output %s", done.Output)
	}

	sum := step("sum", "return event.payload.a + event.payload.b;")
	sum["name"] = "EXPORT_sum"
	// The token's binding name is edgeflow's: a variable of that name is
	// refused at deploy, naming it.
	clash, _ := s.workflow("Clash", "workflow", chain("Clash", step("only", "return 1;")))
	s.must(200, "PATCH", "/api/workflows/"+clash, map[string]any{"envVars": []map[string]any{
		{"name": "EDGEFLOW_WORKER_TOKEN", "value": "mine", "isSecret": false}}})
	m := wantError(t, s.do("POST", "/api/workflows/"+clash+"/deploy", map[string]any{"connectionId": s.conn}), 400, "deploy_failed")
	if !strings.Contains(m["error"].(string), "EDGEFLOW_WORKER_TOKEN") {
		t.Fatalf("deploy with a variable named EDGEFLOW_WORKER_TOKEN: %v", m)
	}

	fn, _ := s.workflow("Adder", "script", script("Adder", sum))
	d := s.deploy(fn)
	if code, body := workerCall(t, "POST", d.URL, `{"a":2,"b":3}`, nil); code != 200 || body["sum"] != 5.0 {
		t.Fatalf("function without credentials: %d %v", code, body)
	}
}

// sign signs body for a public trigger at timestamp ts.
func sign(secret string, ts int64, body string) map[string]string {
	stamp := strconv.FormatInt(ts, 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(stamp + "." + body))
	return map[string]string{"X-Edgeflow-Timestamp": stamp, "X-Edgeflow-Signature": "v1=" + hex.EncodeToString(mac.Sum(nil))}
}

type triggerSecret struct {
	URL             string `json:"url"`
	Secret          string `json:"secret"`
	TimestampHeader string `json:"timestampHeader"`
	SignatureHeader string `json:"signatureHeader"`
}

// TestPublicTrigger: with deployConfig.publicTrigger, a request signed with
// the secret the owner reads (scope deploy) creates an instance, which
// edgeflow records as a run; unsigned, wrongly signed, stale and replayed
// requests are refused, as are signed events and status reads; another
// organization cannot read the secret. Without the opt-in a signature
// opens nothing.
func TestPublicTrigger(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{refresherInterval: 100 * time.Millisecond})
	mallory := s.tenant("mallory@example.com")
	wf, _ := s.workflow("Webhook", "workflow", chain("Webhook",
		step("greet", "return { greeting: 'hello ' + event.payload.name };")))
	secretPath := "/api/workflows/" + wf + "/trigger-secret?connectionId=" + s.conn

	s.deploy(wf)
	wantError(t, s.do("GET", secretPath, nil), 409, "conflict")
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"deployConfig": map[string]any{"publicTrigger": true}})
	d := s.deploy(wf)
	var sec triggerSecret
	s.must(200, "GET", secretPath, nil).into(&sec)
	if sec.URL != d.URL || !strings.HasPrefix(sec.Secret, "efs_") || sec.TimestampHeader != "X-Edgeflow-Timestamp" {
		t.Fatalf("trigger secret answer %+v (deployment url %s)", sec, d.URL)
	}
	wantError(t, mallory.do("GET", secretPath, nil), 404, "not_found")
	wantError(t, mallory.do("GET", "/api/workflows/"+wf+"/trigger-secret?connectionId="+mallory.conn, nil), 404, "not_found")

	now := time.Now().Unix()
	body := `{"name":"webhook"}`
	signed := sign(sec.Secret, now, body)
	code, res := workerCall(t, "POST", d.URL, body, signed)
	if code != 200 {
		t.Fatalf("signed request: %d %v", code, res)
	}
	instance, _ := res["instanceId"].(string)

	refused := []struct {
		name, method, url, body string
		headers                 map[string]string
		status                  int
	}{
		{"replay", "POST", d.URL, body, signed, 409},
		{"unsigned", "POST", d.URL, body, nil, 401},
		{"wrong secret", "POST", d.URL, body, sign("efs_not-the-secret", now, body), 401},
		{"body changed", "POST", d.URL, `{"name":"mallory"}`, signed, 401},
		{"stale timestamp", "POST", d.URL, body, sign(sec.Secret, now-3600, body), 401},
		{"timestamp in the future", "POST", d.URL, body, sign(sec.Secret, now+3600, body), 401},
		{"signed event", "POST", d.URL, `{"instanceId":"` + instance + `","eventType":"x","payload":{}}`,
			sign(sec.Secret, now, `{"instanceId":"`+instance+`","eventType":"x","payload":{}}`), 401},
		{"status with a signature", "GET", d.URL + "?instanceId=" + url.QueryEscape(instance), "", signed, 401},
		{"secret as bearer token", "GET", d.URL + "?instanceId=" + url.QueryEscape(instance), "", bearer(sec.Secret), 401},
	}
	for _, c := range refused {
		if code, res := workerCall(t, c.method, c.url, c.body, c.headers); code != c.status || res["message"] == nil {
			t.Errorf("%s: %d %v, want %d with a message", c.name, code, res, c.status)
		}
	}

	// The signed instance is discovered as a run of the workflow.
	var found *run
	testenv.WaitFor(t, 30*time.Second, 200*time.Millisecond, "the signed instance "+instance+" to be recorded as a run", func() (bool, string) {
		for _, r := range s.runs(wf) {
			if r.InstanceID == instance {
				found = &r
			}
		}
		return found != nil, "no run of it"
	})
	if found == nil {
		t.Fatalf("the signed instance %s was not recorded as a run", instance)
	}
	done := s.waitStatus(wf, found.ID, "complete", 30*time.Second)
	jsonEqual(t, done.Output, `{"greeting":"hello webhook"}`)

	// The secret stays across redeploys (its callers keep working); turning
	// the opt-in off removes it from the worker.
	s.deploy(wf)
	var again triggerSecret
	s.must(200, "GET", secretPath, nil).into(&again)
	if again.Secret != sec.Secret {
		t.Fatalf("a redeploy changed the trigger secret")
	}
	// A deploy with rotateTriggerSecret replaces it: the old one stops working.
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "rotateTriggerSecret": true})
	var rotated triggerSecret
	s.must(200, "GET", secretPath, nil).into(&rotated)
	if rotated.Secret == sec.Secret || !strings.HasPrefix(rotated.Secret, "efs_") {
		t.Fatalf("rotateTriggerSecret kept the secret")
	}
	fresh := `{"name":"rotated"}`
	if code, res := workerCall(t, "POST", d.URL, fresh, sign(sec.Secret, time.Now().Unix(), fresh)); code != 401 {
		t.Fatalf("request signed with the rotated-out secret: %d %v, want 401", code, res)
	}
	if code, res := workerCall(t, "POST", d.URL, fresh, sign(rotated.Secret, time.Now().Unix(), fresh)); code != 200 {
		t.Fatalf("request signed with the new secret: %d %v", code, res)
	}
	sec = rotated

	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"deployConfig": map[string]any{"publicTrigger": false}})
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "rotateTriggerSecret": true}),
		422, "validation_failed")
	s.deploy(wf)
	wantError(t, s.do("GET", secretPath, nil), 409, "conflict")
	other := `{"name":"late"}`
	if code, res := workerCall(t, "POST", d.URL, other, sign(sec.Secret, time.Now().Unix(), other)); code != 401 {
		t.Fatalf("signed request after the opt-in was turned off: %d %v, want 401", code, res)
	}
}

// TestFailedRedeployKeepsWorkerToken: when a redeploy of the active version
// fails after its upload (which carried a new token), the previous upload is
// restored with the recorded deployment's token, so edgeflow still delivers
// events to the worker.
func TestFailedRedeployKeepsWorkerToken(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	edge := newFailingEdge(t)
	s := newServer(t, serverOptions{edge: edge})
	wf, _ := s.workflow("Approval", "workflow", leakyApproval("Approval"))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"order": 3})
	s.waitWaiting(wf, id)
	edge.set(func(r *http.Request) bool {
		return r.Method == "PUT" && strings.Contains(r.URL.Path, "/workflows/")
	})
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn}), 502, "provider_error")
	edge.set(nil)
	s.approve(wf, id, "ann")
	s.waitStatus(wf, id, "complete", 30*time.Second)
}

// TestTriggerWithTriggerCode: on the local edge, edgeflow's trigger creates
// the run's instance through the worker's own create path, which the worker
// answers before the workflow's trigger code: the run gets the params it was
// given and its id, although the trigger code answers every request itself.
// The worker URL with the token still reaches the trigger code; the create
// path refuses a request without the token.
func TestTriggerWithTriggerCode(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Coded", "workflow", chain("Coded", step("echo", "return { n: event.payload.n, token: env.EDGEFLOW_WORKER_TOKEN };")))
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{
		"triggerCode": `return Response.json({ message: "the trigger code answered" }, { status: 418 });`})
	d := s.deploy(wf)
	id := s.trigger(wf, map[string]any{"n": 7})
	done := s.waitStatus(wf, id, "complete", 60*time.Second)
	var out struct {
		N float64 `json:"n"`
	}
	if json.Unmarshal(done.Output, &out); done.InstanceID != id || out.N != 7 {
		t.Fatalf("run %s: instance %s, output %s; want the run id and n 7", id, done.InstanceID, done.Output)
	}
	token := leakedToken(t, done)
	if code, body := workerCall(t, "POST", d.URL, `{"n":1}`, bearer(token)); code != 418 || body["message"] != "the trigger code answered" {
		t.Fatalf("worker URL with the token: %d %v, want the trigger code's 418", code, body)
	}
	create := strings.TrimRight(d.URL, "/") + "/__edgeflow/instances"
	if code, body := workerCall(t, "POST", create, `{"n":1}`, map[string]string{"X-Edgeflow-Instance-Id": "run_stranger"}); code != 401 {
		t.Fatalf("create path without the token: %d %v, want 401", code, body)
	}
	if n := len(s.runs(wf)); n != 1 {
		t.Fatalf("%d runs, want 1", n)
	}
}
