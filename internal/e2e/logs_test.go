package e2e_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

type logLine struct {
	Timestamp  time.Time `json:"timestamp"`
	Level      string    `json:"level"`
	Message    string    `json:"message"`
	InstanceID string    `json:"instanceId"`
}

type runLogs struct {
	Data      []logLine `json:"data"`
	Available bool      `json:"available"`
	Final     bool      `json:"final"`
	Status    string    `json:"status"`
}

func noRetry(n map[string]any) map[string]any {
	n["config"] = map[string]any{"retries": map[string]any{"limit": 0, "delay": "1 second", "backoff": "constant"}}
	return n
}

// TestRunLogs: two overlapping runs of one workflow log distinct lines; each
// run's logs hold its own lines only, the failing run's exception is an
// error line, the logs stream as SSE while a run is active and end with
// it, and the worker's logs around a run show both. Another organization
// cannot read them (attack), its own run it can (twin).
func TestRunLogs(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Logger", "workflow", chain("Logger",
		noRetry(step("hello", "console.log('hello from ' + event.payload.tag); return { tag: event.payload.tag };")),
		node("nap", "sleep", "nap", map[string]any{"duration": "3 seconds"}),
		noRetry(step("finish", "console.warn('finishing ' + {{hello.tag}}); if (event.payload.fail) throw new Error('broken ' + {{hello.tag}}); return { ok: true };")),
	))
	s.deploy(wf)
	a := s.trigger(wf, map[string]any{"tag": "alpha"})
	b := s.trigger(wf, map[string]any{"tag": "bravo", "fail": true})

	// The SSE stream of run a: lines as they come, then end with the status.
	req, _ := http.NewRequest("GET", s.url+"/api/workflows/"+wf+"/runs/"+a+"/logs", nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+s.key)
	res, err := s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	var streamed []string
	var end map[string]any
	sc := bufio.NewScanner(res.Body)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && event == "log":
			var l logLine
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &l); err != nil {
				t.Fatal(err)
			}
			streamed = append(streamed, l.Level+" "+l.Message)
		case strings.HasPrefix(line, "data: ") && event == "end":
			json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &end)
		}
	}
	res.Body.Close()
	if end == nil || end["status"] != "complete" {
		t.Fatalf("stream end = %v (lines %q)", end, streamed)
	}
	if strings.Join(streamed, "|") != "log hello from alpha|warn finishing alpha" {
		t.Fatalf("streamed lines = %q", streamed)
	}

	s.waitStatus(wf, b, "errored", 60*time.Second)
	read := func(id string) runLogs {
		var l runLogs
		s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+id+"/logs", nil).into(&l)
		return l
	}
	msgs := func(l runLogs) string {
		var out []string
		for _, x := range l.Data {
			out = append(out, x.Level+" "+x.Message)
		}
		return strings.Join(out, "|")
	}
	la := read(a)
	if got := msgs(la); got != "log hello from alpha|warn finishing alpha" || !la.Available || !la.Final {
		t.Fatalf("logs of a = %q %+v", got, la)
	}
	var lb runLogs
	testenv.WaitFor(t, 20*time.Second, 300*time.Millisecond, "run b's error line", func() (bool, string) {
		lb = read(b)
		return strings.Contains(msgs(lb), "error "), msgs(lb)
	})
	if got := msgs(lb); got != "log hello from bravo|warn finishing bravo|error Error: broken bravo" {
		t.Fatalf("logs of b = %q", got)
	}

	// The worker's logs around run b hold both runs' lines, each with its instance.
	var around struct {
		Data []logLine `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+b+"/worker-logs?before=1m&after=1m", nil).into(&around)
	seen := map[string]string{}
	for _, l := range around.Data {
		seen[l.Message] = l.InstanceID
	}
	if seen["hello from alpha"] != a || seen["hello from bravo"] != b {
		t.Fatalf("worker logs = %+v (runs %s %s)", around.Data, a, b)
	}
	wantError(t, s.do("GET", "/api/workflows/"+wf+"/runs/"+b+"/worker-logs?before=2h", nil), 422, "validation_failed")

	// Attack: another organization asks for these logs; twin: it reads its own.
	o := s.tenant("stranger@example.com")
	wantError(t, o.do("GET", "/api/workflows/"+wf+"/runs/"+a+"/logs", nil), 404, "not_found")
	wantError(t, o.do("GET", "/api/workflows/"+wf+"/runs/"+a+"/worker-logs", nil), 404, "not_found")
	owf, _ := o.workflow("Mine", "workflow", chain("Mine", noRetry(step("only", "console.log('mine'); return {};"))))
	o.deploy(owf)
	orun := o.trigger(owf, map[string]any{})
	o.waitStatus(owf, orun, "complete", 60*time.Second)
	testenv.WaitFor(t, 20*time.Second, 300*time.Millisecond, "the stranger's own logs", func() (bool, string) {
		var l runLogs
		o.must(200, "GET", "/api/workflows/"+owf+"/runs/"+orun+"/logs", nil).into(&l)
		return msgs(l) == "log mine", msgs(l)
	})
}

// TestRunLogsOutliveTheEdge: once read, a run's logs are kept with the run:
// with the edge unreachable (as after a restart that emptied its ring, or a
// provider that forgot the instance) the route still answers them, while
// the worker's logs, which only the edge has, are provider_unavailable.
func TestRunLogsOutliveTheEdge(t *testing.T) {
	t.Parallel()
	proxy := newProxyEdge(t)
	s := newServer(t, serverOptions{edge: proxy})
	wf, _ := s.workflow("Kept logs", "workflow", chain("Kept logs",
		noRetry(step("say", "console.info('kept ' + event.payload.n); return 1;")),
	))
	s.deploy(wf)
	id := s.trigger(wf, map[string]any{"n": 7})
	s.waitStatus(wf, id, "complete", 60*time.Second)
	var l runLogs
	testenv.WaitFor(t, 20*time.Second, 300*time.Millisecond, "the run's log line", func() (bool, string) {
		l = runLogs{}
		s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+id+"/logs", nil).into(&l)
		return len(l.Data) == 1, fmt.Sprintf("%+v", l.Data)
	})
	if len(l.Data) != 1 || l.Data[0].Level != "info" || l.Data[0].Message != "kept 7" {
		t.Fatalf("logs = %+v", l.Data)
	}
	proxy.Down()
	defer proxy.Up(t)
	var again runLogs
	s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+id+"/logs", nil).into(&again)
	if len(again.Data) != 1 || again.Data[0] != l.Data[0] || !again.Final {
		t.Fatalf("logs with the edge down = %+v, want %+v", again, l)
	}
	wantError(t, s.do("GET", "/api/workflows/"+wf+"/runs/"+id+"/worker-logs", nil), 502, "provider_unavailable")
}

// TestRunLogsOnCloudflare: Cloudflare offers no logs of an instance, so a
// run on a Cloudflare connection answers no lines with available false and
// the reason, and the worker's logs are a conflict naming the alternatives.
func TestRunLogsOnCloudflare(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{cloudflareBase: shared.edge.APIBaseURL()})
	conn := s.must(201, "POST", "/api/connections", map[string]any{"provider": "cloudflare", "name": "cf",
		"credentials": map[string]string{"apiToken": shared.edge.Token(), "accountId": shared.edge.AccountID()}}).str("id")
	wf, _ := s.workflow("Remote logs", "workflow", chain("Remote logs", noRetry(step("only", "console.log('far away'); return 1;"))))
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": conn})
	id := s.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": conn}).str("id")
	s.waitStatus(wf, id, "complete", 60*time.Second)
	var l struct {
		runLogs
		Reason string `json:"reason"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/runs/"+id+"/logs", nil).into(&l)
	if l.Available || len(l.Data) != 0 || !strings.Contains(l.Reason, "wrangler tail") {
		t.Fatalf("logs on Cloudflare = %+v", l)
	}
	m := wantError(t, s.do("GET", "/api/workflows/"+wf+"/runs/"+id+"/worker-logs", nil), 409, "conflict")
	if !strings.Contains(m["error"].(string), "local edge only") {
		t.Fatalf("worker logs on Cloudflare: %v", m["error"])
	}
}
