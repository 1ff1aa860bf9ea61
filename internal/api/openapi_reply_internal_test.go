package api

import (
	"reflect"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

// TestReplyFields: answer schemas follow encoding/json: a shallower field
// hides an embedded one of its name (apiKeyView's projectId is its own
// *string, null for an organization key), omitempty makes a field optional
// and a pointer without it nullable.
func TestReplyFields(t *testing.T) {
	s := newSchemaSet(nil)
	s.reply(reflect.TypeFor[apiKeyView]())
	key := s.components["APIKey"].(map[string]any)
	props := key["properties"].(map[string]any)
	if diff := cmp.Diff(map[string]any{"type": []string{"string", "null"}}, props["projectId"]); diff != "" {
		t.Errorf("APIKey.projectId (-want +got):\n%s", diff)
	}
	if props["hash"] != nil || props["Hash"] != nil {
		t.Errorf("APIKey shows the key's hash: %v", props)
	}
	s.reply(reflect.TypeFor[edgeflow.VersionSummary]())
	version := s.components["Version"].(map[string]any)
	required := version["required"].([]string)
	if diff := cmp.Diff([]string{"id", "workflowId", "version", "locked", "nodeTypes", "createdAt"}, required); diff != "" {
		t.Errorf("Version required (-want +got):\n%s", diff)
	}
	if code := version["properties"].(map[string]any)["code"]; !reflect.DeepEqual(code, map[string]any{"type": "string"}) {
		t.Errorf("Version.code, a *string with omitempty: %v", code)
	}
}

// TestReplyNameConflict: two answer types of one schema name are refused
// unless their schemas are equal, and so is a type named like a schema of
// the document's own (Error, the IR's).
func TestReplyNameConflict(t *testing.T) {
	type Member struct {
		UserID string `json:"userId"`
	}
	s := newSchemaSet(nil)
	s.component(reflect.TypeFor[Member](), func() map[string]any { return s.object(reflect.TypeFor[Member]()) })
	s.reply(reflect.TypeFor[struct {
		M Member `json:"m"`
	}]())
	if s.err != nil {
		t.Fatalf("one type twice: %v", s.err)
	}
	s = newSchemaSet(map[string]any{"Member": map[string]any{"type": "object"}})
	s.component(reflect.TypeFor[Member](), func() map[string]any { return s.object(reflect.TypeFor[Member]()) })
	if s.err == nil || !strings.Contains(s.err.Error(), "schemaNames") {
		t.Errorf("a type named like a reserved schema: err = %v", s.err)
	}
}
