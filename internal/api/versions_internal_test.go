package api

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkWithVersion checks that withVersion changes metadata.version of raw
// to n and nothing else.
func checkWithVersion(t *testing.T, raw string, n int) {
	t.Helper()
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
