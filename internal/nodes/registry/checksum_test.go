package registry_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

func TestCanonicalJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want string
		wantErr  bool
	}{
		{in: `{"b": 1, "a": [true, null, "x"]}`, want: `{"a":[true,null,"x"],"b":1}`},
		{in: "{\n  \"z\": {\"y\": 1.50, \"x\": 1e2}\n}", want: `{"z":{"x":100,"y":1.5}}`},
		{in: `{"html": "<a href=\"x\">&</a>", "u": "\u00e9"}`, want: `{"html":"<a href=\"x\">&</a>","u":"é"}`},
		{in: `"text"`, want: `"text"`},
		{in: `{"a": 1, "a": 2}`, wantErr: true},
		{in: `{"a": 1} {}`, wantErr: true},
		{in: `{"a": }`, wantErr: true},
		{in: `{"a": 1e400}`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := registry.CanonicalJSON([]byte(tt.in))
		if (err != nil) != tt.wantErr {
			t.Errorf("CanonicalJSON(%s) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && string(got) != tt.want {
			t.Errorf("CanonicalJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestChecksumIgnoresKeyOrderAndWhitespace(t *testing.T) {
	t.Parallel()
	a := `{"id":"x","configSchema":{"a":{"type":"string","label":"A"},"b":{"type":"number","label":"B"}}}`
	b := "{\n  \"configSchema\": {\n    \"b\": {\"label\": \"B\", \"type\": \"number\"},\n    \"a\": {\"label\": \"A\", \"type\": \"string\"}\n  },\n  \"id\": \"x\"\n}\n"
	tmpl := "export default async function f() {\n  return 1;\n}\n"
	sumA, err := registry.Checksum([]byte(a), tmpl)
	if err != nil {
		t.Fatal(err)
	}
	sumB, err := registry.Checksum([]byte(b), strings.ReplaceAll(tmpl, "\n", "\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if sumA != sumB {
		t.Errorf("reordered node.json and CRLF template changed the checksum: %s vs %s", sumA, sumB)
	}
	if !strings.HasPrefix(sumA, "sha256:") || len(sumA) != len("sha256:")+64 {
		t.Errorf("checksum %q is not sha256:<64 hex>", sumA)
	}
	for name, changed := range map[string][2]string{
		"value":    {strings.Replace(a, `"A"`, `"A2"`, 1), tmpl},
		"template": {a, tmpl + " "},
	} {
		sum, err := registry.Checksum([]byte(changed[0]), changed[1])
		if err != nil {
			t.Fatal(err)
		}
		if sum == sumA {
			t.Errorf("a change of the %s kept the checksum", name)
		}
	}
}

func TestBundleSnapshotRoundTrip(t *testing.T) {
	t.Parallel()
	r := newEmbedded(t)
	b, err := r.Bundle(t.Context(), "slack-message", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	// A database such as PostgreSQL jsonb stores the definition with its
	// keys reordered; the checksum must still verify.
	var generic map[string]any
	if err := json.Unmarshal(data, &generic); err != nil {
		t.Fatal(err)
	}
	reordered, err := json.MarshalIndent(generic, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := registry.DecodeBundle(reordered)
	if err != nil {
		t.Fatalf("DecodeBundle of a reordered snapshot: %v", err)
	}
	if got.Checksum != b.Checksum || got.Template != b.Template || got.Definition.Version != "1.0.0" {
		t.Errorf("round trip changed the bundle: %+v", got)
	}

	generic["template"] = strings.Replace(generic["template"].(string), "chat.postMessage", "chat.delete", 1)
	tampered, err := json.Marshal(generic)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := registry.DecodeBundle(tampered); !errorIs(err, registry.ErrChecksumMismatch) {
		t.Errorf("DecodeBundle of a tampered snapshot: err = %v, want ErrChecksumMismatch", err)
	}
}
