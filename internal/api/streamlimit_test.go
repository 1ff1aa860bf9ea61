package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

// streamWorld is a test world whose server has the given stream limits.
func streamWorld(t *testing.T, l ratelimit.StreamLimits) *world {
	return newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, config: func(c *api.Config) { c.Streams = l }})
}

// heldStream is a stream a test keeps open, or the refusal it got.
type heldStream struct {
	res   *http.Response
	body  []byte // a refusal's body
	lines chan string
	close func()
}

// hold opens a stream (method and path, as c) and, when the server admits
// it, keeps it open until close or the end of the test, handing its lines to
// lines; a refusal is read whole.
func (w *world) hold(method, path, body string, c cred) *heldStream {
	w.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, w.srv.URL+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if c.cookie != "" {
		req.AddCookie(&http.Cookie{Name: api.SessionCookie, Value: c.cookie})
		req.Header.Set(api.CSRFHeader, c.csrf)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		w.t.Fatal(err)
	}
	h := &heldStream{res: res, lines: make(chan string, 256)}
	h.close = func() {
		cancel()
		res.Body.Close()
	}
	w.t.Cleanup(h.close)
	if res.StatusCode != http.StatusOK {
		h.body, _ = io.ReadAll(res.Body)
		h.close()
		close(h.lines)
		return h
	}
	go func() {
		defer close(h.lines)
		sc := bufio.NewScanner(res.Body)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
	}()
	return h
}

// runStream opens the run stream as c and waits for its first line.
func (w *world) runStream(c cred) *heldStream {
	w.t.Helper()
	h := w.hold("GET", "/api/runs/stream", "", c)
	if h.res.StatusCode == http.StatusOK {
		if line := h.next(w.t); line != ": connected" {
			w.t.Fatalf("first line %q", line)
		}
	}
	return h
}

// next waits for the stream's next line (10 s at most: a generous bound,
// not a speed target).
func (h *heldStream) next(t *testing.T) string {
	t.Helper()
	select {
	case line, ok := <-h.lines:
		if !ok {
			t.Fatal("the stream ended")
		}
		return line
	case <-time.After(10 * time.Second):
		t.Fatal("no line on the stream")
	}
	return ""
}

// rest reads the stream's lines until it ends.
func (h *heldStream) rest(t *testing.T) []string {
	t.Helper()
	var out []string
	deadline := time.After(30 * time.Second)
	for {
		select {
		case line, ok := <-h.lines:
			if !ok {
				return out
			}
			out = append(out, line)
		case <-deadline:
			t.Fatalf("the stream did not end; so far %q", out)
		}
	}
}

// refused checks that h was refused as a stream past a limit: 429
// rate_limited naming the limit, Retry-After within the lifetime,
// Connection: close.
func (h *heldStream) refused(t *testing.T, limit string, lifetime time.Duration) {
	t.Helper()
	if h.res.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("status %d, want 429 (%s)", h.res.StatusCode, h.body)
	}
	var e struct{ Error, Code string }
	if err := json.Unmarshal(h.body, &e); err != nil || e.Code != "rate_limited" || !strings.Contains(e.Error, limit) {
		t.Errorf("refusal %s (%v), want rate_limited naming %q", h.body, err, limit)
	}
	retry, err := strconv.Atoi(h.res.Header.Get("Retry-After"))
	if err != nil || retry < 1 || time.Duration(retry)*time.Second > lifetime+time.Second {
		t.Errorf("Retry-After %q, want 1 to %s", h.res.Header.Get("Retry-After"), lifetime)
	}
	if !h.res.Close {
		t.Error("a refused stream keeps its connection (want Connection: close)")
	}
}

// untilAdmitted opens the run stream as c until the server admits it, the
// place of a stream closed a moment ago being freed when the server sees
// that its client went.
func (w *world) untilAdmitted(c cred) *heldStream {
	w.t.Helper()
	for range 200 {
		h := w.runStream(c)
		if h.res.StatusCode == http.StatusOK {
			return h
		}
		time.Sleep(50 * time.Millisecond)
	}
	w.t.Fatal("no place freed for a stream")
	return nil
}

// othersAnswer checks that the health checks and another user's ordinary
// request answer while streams are at a limit.
func (w *world) othersAnswer() {
	w.t.Helper()
	w.must(200, "GET", "/healthz", "", cred{})
	w.must(200, "GET", "/metrics", "", cred{})
	w.must(200, "GET", "/api/workflows", "", w.b.keyRead)
}

// TestStreamLimitPerKeyAndUser: one read key opens streams up to its limit
// and the next is refused (the attack that once took 19,975 connections),
// while the health checks and another user's requests answer; another key
// of the same user still opens streams up to the user's limit, and another
// user opens theirs (the twins); closing a stream frees its place. Log
// streams and deploy streams count too; a JSON read of the logs does not.
func TestStreamLimitPerKeyAndUser(t *testing.T) {
	t.Parallel()
	limits := ratelimit.StreamLimits{User: 3, Key: 2, Address: 100, Total: 100, Lifetime: time.Hour}
	w := streamWorld(t, limits)
	a := w.a

	first := w.runStream(a.keyRead)
	w.runStream(a.keyRead)
	w.runStream(a.keyRead).refused(t, "at most 2 per API key", limits.Lifetime)
	w.othersAnswer()

	// Another key of the same user: one more stream, then the user's limit.
	w.runStream(a.keyAll)
	w.runStream(a.session).refused(t, "at most 3 per user", limits.Lifetime)
	logs := "/api/workflows/" + a.workflowID + "/runs/" + w.fixtureRun(a) + "/logs"
	w.hold("GET", logs, "", a.keyAll).refused(t, "at most 3 per user", limits.Lifetime)
	w.must(200, "GET", logs, "", a.keyAll) // JSON: not a stream
	deploy := "/api/workflows/" + a.workflowID + "/deploy-stream"
	w.hold("POST", deploy, `{"connectionId":""}`, a.keyAll).refused(t, "at most 3 per user", limits.Lifetime)

	// Another user is not concerned.
	w.runStream(w.b.keyRead)
	w.runStream(w.b.keyAll)

	// A closed stream's place is free again.
	first.close()
	w.untilAdmitted(a.keyRead)
	w.runStream(a.keyRead).refused(t, "at most 3 per user", limits.Lifetime)
	// With a place free, a deploy stream is admitted (and refused for its
	// body, as without limits).
	checkError(t, w.do("POST", "/api/workflows/"+w.b.workflowID+"/deploy-stream", `{"connectionId":""}`, w.b.keyOrg), 422, "validation_failed", "/connectionId")
}

// TestStreamLimitPerAddress: streams from one client address are limited
// whoever opens them.
func TestStreamLimitPerAddress(t *testing.T) {
	t.Parallel()
	limits := ratelimit.StreamLimits{User: 10, Key: 10, Address: 2, Total: 100, Lifetime: time.Hour}
	w := streamWorld(t, limits)
	w.runStream(w.a.keyRead)
	w.runStream(w.b.keyRead)
	w.runStream(w.a.keyAll).refused(t, "at most 2 from one client address", limits.Lifetime)
	w.othersAnswer()
}

// TestStreamLimitTotal: with a low total, the process refuses streams past
// it whoever asks, and the health checks, the metrics and ordinary requests
// still answer; the metrics count the streams open and refused.
func TestStreamLimitTotal(t *testing.T) {
	t.Parallel()
	limits := ratelimit.StreamLimits{User: 10, Key: 10, Address: 100, Total: 2, Lifetime: time.Hour}
	w := streamWorld(t, limits)
	one := w.runStream(w.a.keyRead)
	w.runStream(w.b.keyRead)
	w.runStream(w.a.keyAll).refused(t, "the server has 2 streams open", limits.Lifetime)
	w.othersAnswer()
	w.must(200, "GET", "/api/workflows/"+w.a.workflowID, "", w.a.keyAll)
	m := string(w.must(200, "GET", "/metrics", "", cred{}).body)
	for _, want := range []string{"\nedgeflow_streams_open 2\n", "\nedgeflow_streams_limit 2\n", "\nedgeflow_streams_refused_total 1\n"} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q", strings.TrimSpace(want))
		}
	}
	one.close()
	w.untilAdmitted(w.a.keyAll)
}

// TestStreamLifetime: a stream ends after the stream lifetime, cleanly: the
// run stream with its documented last comment, the log stream of a running
// run with end {final: false}; their places are free afterwards.
func TestStreamLifetime(t *testing.T) {
	t.Parallel()
	limits := ratelimit.StreamLimits{User: 10, Key: 10, Address: 100, Total: 100, Lifetime: time.Second}
	w := streamWorld(t, limits)
	a := w.a

	s := w.runStream(a.keyRead)
	lines := s.rest(t)
	if n := len(lines); n < 2 || lines[n-2] != ": the stream reached its lifetime; reconnect with Last-Event-ID" || lines[n-1] != "" {
		t.Errorf("run stream ended with %q", lines)
	}

	run := &edgeflow.Run{WorkflowID: a.workflowID, VersionID: a.versionID, Status: edgeflow.RunRunning}
	if err := w.store.CreateRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	logs := w.hold("GET", "/api/workflows/"+a.workflowID+"/runs/"+run.ID+"/logs", "", a.keyRead)
	if logs.res.StatusCode != http.StatusOK {
		t.Fatalf("log stream: %d %s", logs.res.StatusCode, logs.body)
	}
	lines = logs.rest(t)
	var end map[string]any
	for i, line := range lines {
		if line == "event: end" && i+2 < len(lines) {
			json.Unmarshal([]byte(strings.TrimPrefix(lines[i+2], "data: ")), &end)
		}
	}
	if end["final"] != false || end["status"] != edgeflow.RunRunning {
		t.Errorf("log stream ended with %q, want end {status: running, final: false}", lines)
	}
	for range 200 {
		if strings.Contains(string(w.must(200, "GET", "/metrics", "", cred{}).body), "\nedgeflow_streams_open 0\n") {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Error("the ended streams are still counted")
}
