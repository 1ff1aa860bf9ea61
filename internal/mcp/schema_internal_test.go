package mcp

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBundle: a schema is made self-contained: the components it reaches,
// directly or through another, under $defs with the references rewritten;
// OpenAPI's example keyword dropped, but not a property named "example";
// a schema that is only a reference becomes the component.
func TestBundle(t *testing.T) {
	t.Parallel()
	d, err := parseDoc([]byte(`{"paths": {}, "components": {"schemas": {
		"Run": {"type": "object", "example": {"id": "run_1"}, "properties": {"id": {"type": "string"}, "step": {"$ref": "#/components/schemas/Step"}}},
		"Step": {"type": "object", "properties": {"example": {"type": "string"}, "error": {"$ref": "#/components/schemas/StepError"}}},
		"StepError": {"type": "object", "properties": {"message": {"type": "string"}}},
		"Unused": {"type": "string"}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := d.bundle(map[string]any{"$ref": "#/components/schemas/Run"})
	want := `{"type": "object", "properties": {"id": {"type": "string"}, "step": {"$ref": "#/$defs/Step"}},
		"$defs": {
			"Step": {"type": "object", "properties": {"example": {"type": "string"}, "error": {"$ref": "#/$defs/StepError"}}},
			"StepError": {"type": "object", "properties": {"message": {"type": "string"}}}}}`
	var w map[string]any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(w, got); diff != "" {
		t.Fatalf("bundle (-want +got):\n%s", diff)
	}
	// The document's own schema is left as it was.
	if d.schemas["Run"].(map[string]any)["example"] == nil {
		t.Fatal("bundle changed the document")
	}
}
