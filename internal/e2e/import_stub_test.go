package e2e_test

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
)

// corpusStub serves the outside services of a corpus workflow as
// NAME.input.json describes them (the same routes n8n-expected.mjs served
// n8n) and records the requests the converted workflow makes.
type corpusStub struct {
	url  string
	spec *stubSpec
	mu   sync.Mutex
	got  []stubRequest
}

func newCorpusStub(t *testing.T, spec *stubSpec) *corpusStub {
	t.Helper()
	st := &corpusStub{spec: spec}
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(st.serve)}}
	srv.Start()
	t.Cleanup(srv.Close)
	st.url = srv.URL
	return st
}

func (st *corpusStub) serve(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body any
	ct := r.Header.Get("Content-Type")
	switch {
	case len(raw) == 0:
	case strings.Contains(ct, "json"):
		if json.Unmarshal(raw, &body) != nil {
			body = string(raw)
		}
	case strings.Contains(ct, "x-www-form-urlencoded"):
		form := map[string]any{}
		if vals, err := url.ParseQuery(string(raw)); err == nil {
			for k, v := range vals {
				form[k] = v[len(v)-1]
			}
		}
		body = form
	default:
		body = string(raw)
	}
	headers := map[string]string{}
	for _, h := range st.spec.Headers {
		if v := r.Header.Get(h); v != "" {
			headers[h] = v
		}
	}
	st.mu.Lock()
	st.got = append(st.got, stubRequest{Method: r.Method, Path: r.URL.RequestURI(), Headers: headers, Body: body})
	st.mu.Unlock()
	for _, route := range st.spec.Routes {
		if route.Method != r.Method || route.Path != r.URL.Path {
			continue
		}
		status := route.Status
		if status == 0 {
			status = 200
		}
		if route.JSON != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write(route.JSON)
			return
		}
		ctype := route.ContentType
		if ctype == "" {
			ctype = "text/plain"
		}
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		_, _ = io.WriteString(w, route.Text)
		return
	}
	http.Error(w, "no stub route for "+r.Method+" "+r.URL.Path, 404)
}

// compare checks the requests the converted workflow made against n8n's,
// in order: the same method, path and query, recorded headers, and body;
// a JSON body may hold fields n8n's does not (a marketplace node sends the
// service's defaults explicitly), every field of n8n's must be there with
// n8n's value but those the stub's "approximated" names.
func (st *corpusStub) compare(t *testing.T, want []stubRequest) {
	t.Helper()
	st.mu.Lock()
	got := append([]stubRequest(nil), st.got...)
	st.mu.Unlock()
	if len(got) != len(want) {
		t.Errorf("the workflow made %d requests to the stub, n8n made %d:\n got  %s\n want %s (n8n)", len(got), len(want), jsonText(got), jsonText(want))
		return
	}
	for i := range want {
		g, w := got[i], want[i]
		if wm, ok := w.Body.(map[string]any); ok {
			trimmed := map[string]any{}
			for k, v := range wm {
				if !slices.Contains(st.spec.Approximated, k) {
					trimmed[k] = v
				}
			}
			w.Body = trimmed
		}
		if g.Method != w.Method || g.Path != w.Path || !sameJSON(g.Headers, w.Headers) || !bodyCovers(g.Body, w.Body) {
			t.Errorf("request %d:\n got  %s\n want %s (n8n)", i, jsonText(g), jsonText(w))
		}
	}
}

// bodyCovers reports whether got holds want: equal values, or for objects
// every field of want equal in got.
func bodyCovers(got, want any) bool {
	wm, ok := want.(map[string]any)
	if !ok {
		return sameJSON(got, want)
	}
	gm, ok := got.(map[string]any)
	if !ok {
		return false
	}
	for k, v := range wm {
		if !sameJSON(gm[k], v) {
			return false
		}
	}
	return true
}

func jsonText(v any) string {
	raw, _ := json.Marshal(v)
	return string(raw)
}

// withParameters sets node parameters of an n8n workflow by node name (a
// long Wait shortened, on both sides alike).
func withParameters(t *testing.T, raw []byte, params map[string]map[string]any) []byte {
	t.Helper()
	if len(params) == 0 {
		return raw
	}
	var wf map[string]any
	if err := json.Unmarshal(raw, &wf); err != nil {
		t.Fatal(err)
	}
	nodes, _ := wf["nodes"].([]any)
	for _, n := range nodes {
		node, _ := n.(map[string]any)
		name, _ := node["name"].(string)
		if set, ok := params[name]; ok {
			p, _ := node["parameters"].(map[string]any)
			if p == nil {
				p = map[string]any{}
				node["parameters"] = p
			}
			for k, v := range set {
				p[k] = v
			}
		}
	}
	out, err := json.Marshal(wf)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
