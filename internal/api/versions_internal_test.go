package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// checkWithVersion checks that withVersion changes metadata.version of raw
// to n and nothing else.
func checkWithVersion(t *testing.T, raw string, n int) {
	t.Helper()
	if hasRepeatedKey([]byte(raw)) {
		return // the validator refuses such IRs
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(raw), &want); err != nil {
		t.Fatal(err)
	}
	meta, _ := want["metadata"].(map[string]any)
	_, has := meta["version"]
	out, ok := withVersion([]byte(raw), n)
	if !has {
		if ok {
			t.Fatalf("withVersion(%s) = %s without a metadata.version", raw, out)
		}
		return
	}
	if !ok {
		t.Fatalf("withVersion(%s) found no metadata.version", raw)
	}
	meta["version"] = float64(n)
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("withVersion(%s) = %s, not JSON: %v", raw, out, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("withVersion(%s) (-want +got):\n%s", raw, diff)
	}
}

// hasRepeatedKey reports whether an object of the JSON document raw has a
// key twice (after unescaping).
func hasRepeatedKey(raw []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	var walk func() bool
	walk = func() bool {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch tok {
		case json.Delim('{'):
			seen := map[string]bool{}
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return false
				}
				if seen[k.(string)] || walk() {
					return true
				}
				seen[k.(string)] = true
			}
			dec.Token()
		case json.Delim('['):
			for dec.More() {
				if walk() {
					return true
				}
			}
			dec.Token()
		}
		return false
	}
	return walk()
}

func TestWithVersion(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"metadata":{"version":1}}`,
		` { "metadata" : { "version" : 1.5e3 , "name" : "x" } } `,
		`{"nodes":[{"metadata":{"version":2}}],"version":3,"metadata":{"name":"{\"version\":4}","version":-1}}`,
		`{"a":"\\","met\u0061data":{"x":[{"version":1}],"version":null}}`,
		`{"metadata":{"name":"v"}}`,
		`{"metadata":[]}`,
		`{"metadata":{"version":1},"metadata":{"version":2,"version":3}}`,
	} {
		checkWithVersion(t, raw, 42)
	}
}

func FuzzWithVersion(f *testing.F) {
	f.Add(`{"metadata":{"version":1}}`)
	f.Add(`{"k":[1,{"a":"}"}],"metadata":{"n":"\"","version":"x"}}`)
	f.Fuzz(func(t *testing.T, raw string) {
		var m map[string]any
		if json.Unmarshal([]byte(raw), &m) != nil {
			return
		}
		var probe struct {
			Metadata json.RawMessage `json:"metadata"`
		}
		if json.Unmarshal([]byte(raw), &probe) != nil || len(probe.Metadata) == 0 || probe.Metadata[0] != '{' {
			return
		}
		checkWithVersion(t, raw, 7)
	})
}

// TestOrgCatalogLoadsOnlyForMarketplaceTypes checks that a submission's
// catalog reads the organization's installed nodes only for a type that is
// not builtin, once, and keeps a load error for the caller.
func TestOrgCatalogLoadsOnlyForMarketplaceTypes(t *testing.T) {
	t.Parallel()
	loads := 0
	c := &orgCatalog{load: func() (*nodes.Catalog, []codegen.NodeTemplate, error) {
		loads++
		return nodes.BuiltinCatalog(), []codegen.NodeTemplate{{Type: "x"}}, nil
	}}
	if _, ok := c.Lookup("step", "1.0.0"); !ok || len(c.Versions("branch")) == 0 {
		t.Fatal("builtin types not found")
	}
	if loads != 0 {
		t.Fatalf("%d loads for builtin types, want 0", loads)
	}
	if _, ok := c.Lookup("slack-message", "1.0.0"); ok {
		t.Fatal("slack-message found in a catalog without it")
	}
	c.Versions("slack-message")
	if loads != 1 || len(c.templates) != 1 {
		t.Fatalf("%d loads, %d templates after marketplace lookups, want 1 and 1", loads, len(c.templates))
	}

	failing := &orgCatalog{load: func() (*nodes.Catalog, []codegen.NodeTemplate, error) {
		return nil, nil, errors.New("boom")
	}}
	if _, ok := failing.Lookup("slack-message", "1.0.0"); ok || failing.err == nil {
		t.Fatalf("failing load: found %v, err %v", ok, failing.err)
	}
	if _, ok := failing.Lookup("step", "1.0.0"); !ok {
		t.Fatal("builtin type not found after a failed load")
	}
}
