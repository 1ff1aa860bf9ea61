package registry_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/edgeflow/edgeflow/internal/testenv"
	"github.com/google/go-cmp/cmp"
)

// nodeHarness returns the Node harness (typescript, miniflare,
// @cloudflare/workers-types) the template tests use, or skips the test when
// it is not installed. EDGEFLOW_TEST_NODE_HARNESS overrides the location.
func nodeHarness(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("EDGEFLOW_TEST_NODE_HARNESS")
	if dir == "" {
		dir = "../../codegen/testdata/run"
	}
	if _, err := os.Stat(filepath.Join(dir, "package.json")); err != nil {
		testenv.Missing(t, "Node harness %s not present (it comes with internal/codegen); set EDGEFLOW_TEST_NODE_HARNESS to run template tests", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "miniflare")); err != nil {
		t.Fatalf("Node harness %s is not installed: run `npm ci` there (make deps)", dir)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is not on PATH: %v", err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestTemplatesBehaviour runs every case of every node version's fixture on
// workerd (miniflare) against a fake of the service: the fake checks the
// request the template sends (method, path, query, headers, body) and
// answers the fixture's response; the node's value or error must be the
// fixture's, and binding nodes must leave the expected KV, R2 and D1 state.
func TestTemplatesBehaviour(t *testing.T) {
	t.Parallel()
	harness := nodeHarness(t)
	versions := loadNodeVersions(t)

	type planCase struct {
		Key    string            `json:"key"`
		Config map[string]any    `json:"config"`
		Env    map[string]string `json:"env"`
		Seed   any               `json:"seed,omitempty"`
		After  any               `json:"after,omitempty"`
	}
	type caseRef struct {
		name string
		nv   nodeVersion
		c    fixtureCase
		env  map[string]string
	}
	var (
		refs  []caseRef
		cases []planCase
	)
	templates := map[string]string{}

	var mu sync.Mutex
	mismatches := map[int][]string{}
	hits := map[int]int{}
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest := strings.TrimPrefix(r.URL.Path, "/case-")
		num, path, _ := strings.Cut(rest, "/")
		i, err := strconv.Atoi(num)
		mu.Lock()
		defer mu.Unlock()
		if err != nil || i < 0 || i >= len(refs) || refs[i].c.Request == nil {
			http.Error(w, "unexpected request "+r.URL.Path, http.StatusTeapot)
			return
		}
		hits[i]++
		ref := refs[i]
		body, _ := io.ReadAll(r.Body)
		mismatches[i] = append(mismatches[i], checkRequest(ref.c.Request, r, "/"+path, body)...)
		resp := ref.c.Response
		for k, v := range resp.Headers {
			w.Header().Set(k, v)
		}
		switch {
		case resp.JSON != nil:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(resp.Status)
			_, _ = w.Write(resp.JSON)
		case resp.Text != nil:
			w.WriteHeader(resp.Status)
			_, _ = io.WriteString(w, *resp.Text)
		default:
			w.WriteHeader(resp.Status)
		}
	}))
	defer fake.Close()

	for _, nv := range versions {
		templates[nv.key] = nv.template
		for _, c := range nv.fixture.Cases {
			base := fmt.Sprintf("%s/case-%d", fake.URL, len(refs))
			env := resolvedEnv(c, base)
			refs = append(refs, caseRef{name: nv.key + "/" + c.Name, nv: nv, c: c, env: env})
			pc := planCase{Key: nv.key, Config: resolvedConfig(nv.bundle.Definition, c, base), Env: env}
			if c.Seed != nil {
				seed := map[string]any{"kv": c.Seed.KV, "r2": c.Seed.R2}
				if c.Seed.D1 != nil {
					seed["d1"] = c.Seed.D1
				}
				pc.Seed = seed
			}
			if c.After != nil {
				after := map[string]any{}
				if c.After.KV != nil {
					after["kv"] = true
				}
				if c.After.R2 != nil {
					after["r2"] = true
				}
				if c.After.D1 != nil {
					after["d1"] = c.After.D1
				}
				pc.After = after
			}
			cases = append(cases, pc)
		}
	}
	plan, err := json.Marshal(map[string]any{"templates": templates, "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	planPath := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(planPath, plan, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "testdata/run-templates.mjs", harness, planPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("run templates: %v\n%s", err, stderr.String())
	}

	type result struct {
		OK     bool            `json:"ok"`
		Output json.RawMessage `json:"output"`
		Error  string          `json:"error"`
		State  *struct {
			KV map[string]*string  `json:"kv"`
			R2 map[string]r2Object `json:"r2"`
			D1 []json.RawMessage   `json:"d1"`
		} `json:"state"`
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	i := 0
	for ; sc.Scan(); i++ {
		if i >= len(refs) {
			t.Fatalf("runner printed more results than cases: %s", sc.Text())
		}
		ref := refs[i]
		var res result
		if err := json.Unmarshal(sc.Bytes(), &res); err != nil {
			t.Errorf("%s: bad runner output %q: %v", ref.name, sc.Text(), err)
			continue
		}
		mu.Lock()
		for _, m := range mismatches[i] {
			t.Errorf("%s: request: %s", ref.name, m)
		}
		if ref.c.Request != nil && hits[i] != 1 {
			t.Errorf("%s: the node sent %d requests to the service, want 1", ref.name, hits[i])
		}
		mu.Unlock()
		switch {
		case ref.c.Error != "":
			if res.OK {
				t.Errorf("%s: succeeded with %s, want an error containing %q", ref.name, res.Output, ref.c.Error)
			} else if !strings.Contains(res.Error, ref.c.Error) {
				t.Errorf("%s: error %q, want it to contain %q", ref.name, res.Error, ref.c.Error)
			}
			for name, secret := range ref.env {
				if len(secret) >= 8 && strings.Contains(res.Error, secret) {
					t.Errorf("%s: error message reveals the secret %s", ref.name, name)
				}
			}
		case !res.OK:
			t.Errorf("%s: failed: %s", ref.name, res.Error)
		default:
			got := []byte(res.Output)
			if len(ref.c.OutputKeys) > 0 {
				got = pickKeys(res.Output, ref.c.OutputKeys)
			}
			if diff := jsonDiff(ref.c.Output, got); diff != "" {
				t.Errorf("%s: output (-want +got):\n%s", ref.name, diff)
			}
		}
		if a := ref.c.After; a != nil {
			if res.State == nil {
				t.Errorf("%s: runner reported no state", ref.name)
				continue
			}
			if a.KV != nil {
				got := map[string]string{}
				for k, v := range res.State.KV {
					if v != nil {
						got[k] = *v
					}
				}
				if diff := cmp.Diff(a.KV, got); diff != "" {
					t.Errorf("%s: KV after (-want +got):\n%s", ref.name, diff)
				}
			}
			if a.R2 != nil {
				if diff := cmp.Diff(a.R2, res.State.R2); diff != "" {
					t.Errorf("%s: R2 after (-want +got):\n%s", ref.name, diff)
				}
			}
			if a.D1 != nil {
				var checks []d1Check
				if err := json.Unmarshal(a.D1, &checks); err != nil {
					t.Errorf("%s: after.d1: %v", ref.name, err)
					continue
				}
				for j, ch := range checks {
					if j >= len(res.State.D1) {
						t.Errorf("%s: no result for %s", ref.name, ch.SQL)
						continue
					}
					if diff := jsonDiff(ch.Rows, res.State.D1[j]); diff != "" {
						t.Errorf("%s: D1 %s (-want +got):\n%s", ref.name, ch.SQL, diff)
					}
				}
			}
		}
	}
	if i != len(refs) {
		t.Fatalf("runner printed %d results for %d cases\n%s", i, len(refs), stderr.String())
	}
}

// checkRequest compares the request a node sent with the fixture's.
func checkRequest(want *fixtureRequest, r *http.Request, path string, body []byte) []string {
	var bad []string
	if r.Method != want.Method {
		bad = append(bad, fmt.Sprintf("method %s, want %s", r.Method, want.Method))
	}
	if path != want.Path {
		bad = append(bad, fmt.Sprintf("path %s, want %s", path, want.Path))
	}
	gotQuery := map[string]string{}
	for k, vs := range r.URL.Query() {
		gotQuery[k] = strings.Join(vs, ",")
	}
	wantQuery := want.Query
	if wantQuery == nil {
		wantQuery = map[string]string{}
	}
	if diff := cmp.Diff(wantQuery, gotQuery); diff != "" {
		bad = append(bad, "query (-want +got):\n"+diff)
	}
	for k, v := range want.Headers {
		if got := r.Header.Get(k); got != v {
			bad = append(bad, fmt.Sprintf("header %s: %q, want %q", k, got, v))
		}
	}
	switch {
	case want.JSON != nil:
		if diff := jsonDiff(want.JSON, body); diff != "" {
			bad = append(bad, "JSON body (-want +got):\n"+diff)
		}
	case want.Form != nil:
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/x-www-form-urlencoded") {
			bad = append(bad, fmt.Sprintf("content-type %q, want a form", ct))
		}
		vals, err := url.ParseQuery(string(body))
		if err != nil {
			bad = append(bad, fmt.Sprintf("form body %q: %v", body, err))
			break
		}
		got := map[string]string{}
		for k, vs := range vals {
			got[k] = strings.Join(vs, ",")
		}
		if diff := cmp.Diff(want.Form, got); diff != "" {
			bad = append(bad, "form body (-want +got):\n"+diff)
		}
	case want.NoBody:
		if len(body) > 0 {
			bad = append(bad, fmt.Sprintf("body %q, want none", body))
		}
	}
	return bad
}

// pickKeys keeps the given top-level keys of a JSON object.
func pickKeys(data []byte, keys []string) []byte {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return data
	}
	out := map[string]json.RawMessage{}
	for _, k := range keys {
		if v, ok := m[k]; ok {
			out[k] = v
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// jsonDiff compares two JSON documents by value.
func jsonDiff(want, got []byte) string {
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		return fmt.Sprintf("want is not JSON: %v", err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return fmt.Sprintf("got %q is not JSON: %v", got, err)
	}
	return cmp.Diff(w, g)
}
