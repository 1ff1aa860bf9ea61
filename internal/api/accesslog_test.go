package api_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"golang.org/x/crypto/bcrypt"
)

// syncBuffer is a bytes.Buffer safe for the server's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// jsonLogger is the logger serve uses (JSON lines, info level).
func jsonLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// logWorld is a world whose server logs to logs with access log cfg.
func logWorld(t testing.TB, cfg api.AccessLog, logs io.Writer) (*api.Server, *httptest.Server) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	sealer, err := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	s, err := api.New(api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}, BcryptCost: bcrypt.MinCost,
		Logger: jsonLogger(logs), AccessLog: cfg})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv
}

// logLines parses the JSON log lines of text.
func logLines(t *testing.T, text string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("log line %q: %v", sc.Text(), err)
		}
		out = append(out, m)
	}
	return out
}

// TestAccessLogBytesPerRead sends 1,000 successful reads (by API key, GET
// and HEAD, list and get) mixed with writes and errors, at the default
// access log: the log holds at most 50 bytes per successful read, every
// write and every 4xx has its full line (request id, status), and the
// summary counts the reads. "all" logs each request in full, and
// "sample:N" one read in N.
func TestAccessLogBytesPerRead(t *testing.T) {
	t.Parallel()
	var logs syncBuffer
	s, srv := logWorld(t, api.AccessLog{}, &logs)
	w := &world{t: t, srv: srv, api: s}
	sess, r := w.signUp("logs@example.com")
	key := cred{key: w.must(201, "POST", "/api/api-keys",
		`{"name":"k","scopes":["read","write"],"projectId":"`+r.str(t, "activeProjectId")+`"}`, sess).str(t, "key")}
	wfID := w.must(201, "POST", "/api/workflows", `{"name":"logged"}`, key).str(t, "id")
	s.FlushAccessLog()
	before := logs.Len()

	want := map[string]int{} // request id → status of every request that must be logged in full
	reads := 0
	for i := range 1000 {
		switch {
		case i%3 == 0:
			w.must(200, "GET", "/api/workflows/"+wfID, "", key)
		case i%3 == 1:
			w.must(200, "GET", "/api/workflows", "", key)
		default:
			w.must(200, "HEAD", "/healthz", "", cred{})
		}
		reads++
		if i%50 == 0 {
			r := w.do("GET", "/api/workflows/wf_missing", "", key) // 404
			want[r.header.Get("X-Request-Id")] = r.status
			r = w.do("GET", "/api/workflows", "", cred{}) // 401
			want[r.header.Get("X-Request-Id")] = r.status
			r = w.must(200, "PATCH", "/api/workflows/"+wfID, fmt.Sprintf(`{"description":"d%d"}`, i), key)
			want[r.header.Get("X-Request-Id")] = r.status
		}
	}
	s.FlushAccessLog()
	text := logs.String()[before:]
	full := map[string]bool{}
	var fullBytes int
	summarized := 0
	for _, line := range strings.SplitAfter(text, "\n") {
		if line == "" {
			continue
		}
		m := logLines(t, line)[0]
		switch m["msg"] {
		case "request":
			id := m["requestId"].(string)
			if _, ok := want[id]; !ok {
				t.Fatalf("a successful read was logged in full: %s", line)
			}
			if int(m["status"].(float64)) != want[id] || m["method"] == nil || m["path"] == nil {
				t.Fatalf("line %s, want status %d", line, want[id])
			}
			full[id] = true
			fullBytes += len(line)
		case "successful reads":
			summarized += int(m["reads"].(float64))
		}
	}
	for id, status := range want {
		if !full[id] {
			t.Errorf("request %s (status %d) has no line of its own", id, status)
		}
	}
	if summarized != reads {
		t.Errorf("summaries count %d reads, want %d", summarized, reads)
	}
	readBytes := len(text) - fullBytes
	perRead := float64(readBytes) / float64(reads)
	t.Logf("successful reads: %d bytes of log for %d reads (%.2f bytes per read); %d full lines, %d bytes",
		readBytes, reads, perRead, len(full), fullBytes)
	if perRead > 50 {
		t.Fatalf("%.1f bytes of log per successful read, want at most 50", perRead)
	}

	t.Run("all", func(t *testing.T) {
		var logs syncBuffer
		s, srv := logWorld(t, api.AccessLog{Mode: api.AccessLogAll}, &logs)
		w := &world{t: t, srv: srv, api: s}
		ids := map[string]bool{}
		for range 20 {
			ids[w.must(200, "GET", "/healthz", "", cred{}).header.Get("X-Request-Id")] = true
		}
		for _, m := range logLines(t, logs.String()) {
			if m["msg"] == "request" {
				delete(ids, m["requestId"].(string))
			}
		}
		if len(ids) != 0 {
			t.Fatalf("%d of 20 reads not logged with --access-log all", len(ids))
		}
	})
	t.Run("sample", func(t *testing.T) {
		var logs syncBuffer
		s, srv := logWorld(t, api.AccessLog{SampleEvery: 10}, &logs)
		w := &world{t: t, srv: srv, api: s}
		for range 100 {
			w.must(200, "GET", "/healthz", "", cred{})
		}
		s.FlushAccessLog()
		n, sampled := 0, 0
		for _, m := range logLines(t, logs.String()) {
			switch m["msg"] {
			case "request":
				n++
			case "successful reads":
				sampled += int(m["sampled"].(float64))
				if m["reads"].(float64) != 100 {
					t.Fatalf("summary %v", m)
				}
			}
		}
		if n != 10 || sampled != 10 {
			t.Fatalf("sample:10 of 100 reads logged %d in full (summary says %d), want 10", n, sampled)
		}
	})
}

func TestParseAccessLog(t *testing.T) {
	for in, want := range map[string]string{"": "summary", "summary": "summary", "all": "all", "sample:7": "sample:7"} {
		got, err := api.ParseAccessLog(in)
		if err != nil || got.String() != want {
			t.Errorf("ParseAccessLog(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"verbose", "sample:", "sample:0", "sample:-1", "sample:x"} {
		if _, err := api.ParseAccessLog(in); err == nil {
			t.Errorf("ParseAccessLog(%q) accepted", in)
		}
	}
}

// BenchmarkAccessLogBytes reports the bytes of access log per successful
// read (GET of one workflow by API key) at the default access log and with
// "all": go test -run - -bench AccessLogBytes ./internal/api.
func BenchmarkAccessLogBytes(b *testing.B) {
	for _, mode := range []string{"summary", "all"} {
		b.Run(mode, func(b *testing.B) {
			cfg, _ := api.ParseAccessLog(mode)
			var logs syncBuffer
			s, srv := logWorld(b, cfg, &logs)
			call := func(method, path, body string, h map[string]string) map[string]any {
				req, _ := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				for k, v := range h {
					req.Header.Set(k, v)
				}
				res, err := srv.Client().Do(req)
				if err != nil || res.StatusCode >= 300 {
					b.Fatalf("%s %s: %v %v", method, path, res, err)
				}
				defer res.Body.Close()
				var m map[string]any
				json.NewDecoder(res.Body).Decode(&m)
				if method == "POST" && path == "/api/auth/sign-up" {
					m["cookie"] = res.Cookies()[0].Value
				}
				return m
			}
			up := call("POST", "/api/auth/sign-up", `{"email":"bench@example.com","password":"password-1"}`, nil)
			key := call("POST", "/api/api-keys", `{"name":"k","scopes":["read","write"],"projectId":"`+up["activeProjectId"].(string)+`"}`,
				map[string]string{"Cookie": api.SessionCookie + "=" + up["cookie"].(string), api.CSRFHeader: up["csrfToken"].(string)})["key"].(string)
			auth := map[string]string{"Authorization": "Bearer " + key}
			wf := call("POST", "/api/workflows", `{"name":"bench"}`, auth)["id"].(string)
			req, _ := http.NewRequest("GET", srv.URL+"/api/workflows/"+wf, nil)
			req.Header.Set("Authorization", "Bearer "+key)
			s.FlushAccessLog()
			before := logs.Len()
			b.ResetTimer()
			for range b.N {
				res, err := srv.Client().Do(req)
				if err != nil {
					b.Fatal(err)
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
			}
			s.FlushAccessLog()
			b.ReportMetric(float64(logs.Len()-before)/float64(b.N), "logbytes/req")
		})
	}
}
