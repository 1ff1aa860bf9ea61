package registry_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// registryDir is the repository's registry directory.
const registryDir = "../../../registry"

// fakeURL in a fixture's config or env stands for the base URL of the fake
// service the test serves for that case.
const fakeURL = "$FAKE_URL"

// fixture is a node version's fixture.json (docs/registry.md, "Fixtures"):
// for a given config, the exact request the node sends and what it returns.
type fixture struct {
	Cases []fixtureCase `json:"cases"`
}

type fixtureCase struct {
	Name     string            `json:"name"`
	Config   map[string]any    `json:"config"`
	Env      map[string]string `json:"env"`
	Request  *fixtureRequest   `json:"request"`
	Response *fixtureResponse  `json:"response"`
	Seed     *bindingState     `json:"seed"`
	After    *bindingState     `json:"after"`
	Output   json.RawMessage   `json:"output"`
	// OutputKeys, when set, limits the comparison of the output to these
	// top-level keys (for values such as timestamps that vary per run).
	OutputKeys []string `json:"outputKeys"`
	Error      string   `json:"error"`
}

type fixtureRequest struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Query   map[string]string `json:"query"`
	Headers map[string]string `json:"headers"`
	JSON    json.RawMessage   `json:"json"`
	Form    map[string]string `json:"form"`
	NoBody  bool              `json:"noBody"`
}

type fixtureResponse struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	JSON    json.RawMessage   `json:"json"`
	Text    *string           `json:"text"`
}

// bindingState is KV, R2 and D1 content: seeded before a case, or expected
// after it.
type bindingState struct {
	KV map[string]string   `json:"kv,omitempty"`
	R2 map[string]r2Object `json:"r2,omitempty"`
	D1 json.RawMessage     `json:"d1,omitempty"` // seed: SQL statements; after: [{sql, rows}]
}

type r2Object struct {
	Text        string  `json:"text"`
	ContentType *string `json:"contentType"`
}

type d1Check struct {
	SQL  string          `json:"sql"`
	Rows json.RawMessage `json:"rows"`
}

// nodeVersion is one node version of the repository's registry with its
// fixture.
type nodeVersion struct {
	key      string // id@version
	dir      string
	bundle   registry.Bundle
	fixture  fixture
	template string // path of template.ts
}

func loadNodeVersions(t *testing.T) []nodeVersion {
	t.Helper()
	c, err := registry.Load(os.DirFS(registryDir))
	if err != nil {
		t.Fatalf("load registry: %v", err)
	}
	var out []nodeVersion
	for _, n := range c.Nodes() {
		for _, v := range n.Versions {
			b, err := c.Bundle(n.ID, v.Version)
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(registryDir, "nodes", n.ID, v.Version)
			nv := nodeVersion{key: n.ID + "@" + v.Version, dir: dir, bundle: b, template: filepath.Join(dir, "template.ts")}
			data, err := os.ReadFile(filepath.Join(dir, "fixture.json"))
			if err != nil {
				t.Errorf("%s: every node version needs a fixture.json: %v", nv.key, err)
				continue
			}
			if err := strictUnmarshal(data, &nv.fixture); err != nil {
				t.Errorf("%s: fixture.json: %v", nv.key, err)
				continue
			}
			out = append(out, nv)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// resolvedConfig is what the compiler passes as ctx.config for the case:
// the defaults of the config schema, overridden by the case's config, with
// $FAKE_URL replaced. Secret fields are never part of it.
func resolvedConfig(def registry.Definition, c fixtureCase, base string) map[string]any {
	cfg := map[string]any{}
	for name, f := range def.ConfigSchema {
		if f.Default != nil && f.Type != ir.FieldSecret {
			cfg[name] = f.Default
		}
	}
	for k, v := range c.Config {
		cfg[k] = replaceFake(v, base)
	}
	return cfg
}

func resolvedEnv(c fixtureCase, base string) map[string]string {
	env := map[string]string{}
	for k, v := range c.Env {
		env[k] = strings.ReplaceAll(v, fakeURL, base)
	}
	return env
}

func replaceFake(v any, base string) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, fakeURL, base)
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = replaceFake(e, base)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = replaceFake(e, base)
		}
		return out
	}
	return v
}

// TestFixturesDescribeEveryNode checks that every node version has a
// fixture the behaviour test can run: configs use only the node's fields
// and give every required one, HTTP nodes point at the fake service and
// describe the exact request, secrets come from env.
func TestFixturesDescribeEveryNode(t *testing.T) {
	t.Parallel()
	for _, nv := range loadNodeVersions(t) {
		def := nv.bundle.Definition
		binding := false
		for _, tag := range def.Tags {
			binding = binding || strings.HasPrefix(tag, "binding:")
		}
		_, hasBaseURL := def.ConfigSchema["baseUrl"]
		if !binding && !hasBaseURL && len(def.SecretEnvVars()) == 0 {
			t.Errorf("%s: an HTTP node needs a baseUrl field (or a URL secret) so tests can point it at a fake", nv.key)
		}
		if len(nv.fixture.Cases) == 0 {
			t.Errorf("%s: fixture.json has no cases", nv.key)
		}
		success := 0
		for _, c := range nv.fixture.Cases {
			name := nv.key + "/" + c.Name
			if (c.Error == "") == (c.Output == nil) {
				t.Errorf("%s: give exactly one of output and error", name)
			}
			if c.Error == "" {
				success++
			}
			for k := range c.Config {
				f, ok := def.ConfigSchema[k]
				switch {
				case !ok:
					t.Errorf("%s: config key %q is not a field of the node", name, k)
				case f.Type == ir.FieldSecret:
					t.Errorf("%s: secret %q must come from env, not config", name, k)
				}
			}
			cfg := resolvedConfig(def, c, "http://fake")
			for fname, f := range def.ConfigSchema {
				if _, ok := cfg[fname]; f.Required && f.Type != ir.FieldSecret && !ok {
					t.Errorf("%s: required field %q is missing", name, fname)
				}
			}
			if binding {
				if c.Request != nil {
					t.Errorf("%s: a binding node sends no HTTP request", name)
				}
				continue
			}
			for _, env := range def.SecretEnvVars() {
				if c.Env[env] == "" {
					t.Errorf("%s: env %s (a secret of the node) is not set", name, env)
				}
			}
			if c.Request == nil || c.Response == nil {
				t.Errorf("%s: an HTTP node's case needs request and response", name)
				continue
			}
			if c.Request.Method == "" || !strings.HasPrefix(c.Request.Path, "/") {
				t.Errorf("%s: request needs a method and a path starting with /", name)
			}
			if hasBaseURL && c.Config["baseUrl"] != fakeURL {
				t.Errorf("%s: config.baseUrl must be %s", name, fakeURL)
			}
		}
		if success == 0 {
			t.Errorf("%s: no successful case", nv.key)
		}
	}
}
