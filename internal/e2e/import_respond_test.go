package e2e_test

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// n8nHTTP is NAME.http.json: the answers n8n's own webhook server gave to
// requests to a corpus workflow that answers with Respond to Webhook (made
// by n8n-respond.mjs).
type n8nHTTP struct {
	Path      string `json:"path"`
	Exchanges []struct {
		Request struct {
			Name    string            `json:"name"`
			Method  string            `json:"method"`
			Query   map[string]string `json:"query"`
			Headers map[string]string `json:"headers"`
			Body    json.RawMessage   `json:"body"`
			// NotCompared names what of the answer to this request
			// cannot be the same on the function's side, and why
			// (decision 631): "status", a header's name, "body", or
			// "body.FIELD" for one field of a JSON object body.
			NotCompared map[string]string `json:"notCompared"`
		} `json:"request"`
		Response struct {
			Status  int               `json:"status"`
			Headers map[string]string `json:"headers"`
			Body    string            `json:"body"`
			JSON    json.RawMessage   `json:"json"`
		} `json:"response"`
	} `json:"exchanges"`
}

// n8nOwnHeaders are headers n8n's webhook server adds to answers of its
// own accord, not from the workflow: they are not compared (decision 631).
var n8nOwnHeaders = map[string]string{
	// n8n sandboxes every non-JSON webhook answer (its editor shares the
	// origin); a function is served from its own origin.
	"content-security-policy": "n8n's sandbox for answers served from its editor's origin",
}

// TestImportN8nRespond compares the HTTP answers of the corpus workflows
// that answer their webhook with Respond to Webhook: each is imported
// through the API (?create=true: a function with the import's trigger
// code), deployed to the local edge, and sent the requests n8n's webhook
// server was sent; each answer's status, content type, the headers the
// workflow sets and its body must be n8n's (NAME.http.json), except what
// the exchange names in notCompared.
func TestImportN8nRespond(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	files, err := filepath.Glob(filepath.Join(n8nCorpusDir, "*.http.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 5 {
		t.Fatalf("the corpus holds n8n's HTTP answers for %d workflows; it held 5 when this test was last extended", len(files))
	}
	s := newServer(t, serverOptions{})
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".http.json")
		t.Run(name, func(t *testing.T) {
			s := *s
			s.t = t
			var want n8nHTTP
			readFile(t, f, &want)
			raw := readRaw(t, filepath.Join(n8nCorpusDir, name+".json"))
			var res struct {
				Workflow struct {
					ID          string `json:"id"`
					Kind        string `json:"kind"`
					TriggerCode string `json:"triggerCode"`
				} `json:"workflow"`
			}
			s.must(201, "POST", "/api/import/n8n?create=true", map[string]any{"workflow": json.RawMessage(raw), "name": name}).into(&res)
			if res.Workflow.Kind != "script" || res.Workflow.TriggerCode == "" {
				t.Fatalf("%s imported as %q (trigger code %d bytes); a webhook answered by Respond to Webhook imports as a function", name, res.Workflow.Kind, len(res.Workflow.TriggerCode))
			}
			d := s.deploy(res.Workflow.ID)
			for _, x := range want.Exchanges {
				u, err := url.Parse(d.URL)
				if err != nil {
					t.Fatal(err)
				}
				q := u.Query()
				for k, v := range x.Request.Query {
					q.Set(k, v)
				}
				u.RawQuery = q.Encode()
				var body io.Reader
				if len(x.Request.Body) > 0 {
					body = bytes.NewReader(x.Request.Body)
				}
				req, err := http.NewRequest(x.Request.Method, u.String(), body)
				if err != nil {
					t.Fatal(err)
				}
				for k, v := range x.Request.Headers {
					req.Header.Set(k, v)
				}
				if body != nil {
					req.Header.Set("Content-Type", "application/json")
				}
				got, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatalf("%s: %v", x.Request.Name, err)
				}
				text, _ := io.ReadAll(got.Body)
				got.Body.Close()
				what := x.Request.Name
				if _, skip := x.Request.NotCompared["status"]; !skip && got.StatusCode != x.Response.Status {
					t.Errorf("%s: status %d, want %d (n8n); body %s", what, got.StatusCode, x.Response.Status, text)
				}
				for h, v := range x.Response.Headers {
					if _, own := n8nOwnHeaders[h]; own {
						continue
					}
					if _, skip := x.Request.NotCompared[h]; skip {
						continue
					}
					if h == "content-type" {
						if !sameMediaType(got.Header.Get(h), v) {
							t.Errorf("%s: content-type %q, want %q (n8n)", what, got.Header.Get(h), v)
						}
						continue
					}
					if got.Header.Get(h) != v {
						t.Errorf("%s: header %s = %q, want %q (n8n)", what, h, got.Header.Get(h), v)
					}
				}
				if _, skip := x.Request.NotCompared["body"]; skip {
					continue
				}
				if len(x.Response.JSON) > 0 {
					var g, w any
					if err := json.Unmarshal(text, &g); err != nil {
						t.Errorf("%s: body %q is not JSON; want %s (n8n)", what, text, x.Response.JSON)
						continue
					}
					_ = json.Unmarshal(x.Response.JSON, &w)
					for k := range x.Request.NotCompared {
						if field, ok := strings.CutPrefix(k, "body."); ok {
							gm, _ := g.(map[string]any)
							wm, _ := w.(map[string]any)
							if _, ok := wm[field]; !ok {
								t.Errorf("%s: notCompared names %q, which n8n's answer does not have", what, k)
							}
							delete(gm, field)
							delete(wm, field)
						}
					}
					if !sameJSON(g, w) {
						t.Errorf("%s: body %s, want %s (n8n; fields not compared: %v)", what, text, x.Response.JSON, x.Request.NotCompared)
					}
				} else if string(text) != x.Response.Body {
					t.Errorf("%s: body %q, want %q (n8n)", what, text, x.Response.Body)
				}
			}
		})
	}
}

// sameMediaType reports whether two Content-Type values name the same
// media type with the same parameters (case and spacing aside).
func sameMediaType(a, b string) bool {
	ta, pa, errA := mime.ParseMediaType(a)
	tb, pb, errB := mime.ParseMediaType(b)
	if errA != nil || errB != nil || ta != tb || len(pa) != len(pb) {
		return false
	}
	for k, v := range pa {
		if !strings.EqualFold(pb[k], v) {
			return false
		}
	}
	return true
}

func readRaw(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
