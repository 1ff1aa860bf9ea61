package storetest

import (
	"encoding/json"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testPinnedOutputs: a workflow's pinned outputs read as none until set,
// are replaced as a whole and read back value for value with who set them
// and when; an unknown workflow is not_found; they go with the workflow.
func testPinnedOutputs(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "pins")
	got, err := s.FindPinnedOutputs(ctx, w.ID)
	must(t, err)
	if len(got.Outputs) != 0 || got.UpdatedAt != nil || got.Outputs == nil {
		t.Fatalf("pinned outputs never set = %+v", got)
	}
	first := map[string]json.RawMessage{
		"load": json.RawMessage(`{"total": 42, "name": "ünïcode"}`),
		"ping": json.RawMessage(`"pong"`),
	}
	put, err := s.PutPinnedOutputs(ctx, w.ID, first, a.user.ID)
	must(t, err)
	got, err = s.FindPinnedOutputs(ctx, w.ID)
	must(t, err)
	if len(got.Outputs) != 2 || string(got.Outputs["load"]) != `{"total":42,"name":"ünïcode"}` || string(got.Outputs["ping"]) != `"pong"` {
		t.Fatalf("read back %s", mustJSON(t, got.Outputs))
	}
	if got.UpdatedBy != a.user.ID || got.UpdatedAt == nil || !got.UpdatedAt.Equal(*put.UpdatedAt) {
		t.Fatalf("read back by %q at %v, stored at %v", got.UpdatedBy, got.UpdatedAt, put.UpdatedAt)
	}
	_, err = s.PutPinnedOutputs(ctx, w.ID, map[string]json.RawMessage{"ping": json.RawMessage(`null`)}, a.user.ID)
	must(t, err)
	got, err = s.FindPinnedOutputs(ctx, w.ID)
	must(t, err)
	if len(got.Outputs) != 1 || string(got.Outputs["ping"]) != "null" {
		t.Fatalf("after replacing: %s", mustJSON(t, got.Outputs))
	}
	if _, err := s.PutPinnedOutputs(ctx, "wf_unknown", first, a.user.ID); edgeflow.ErrorCode(err) != edgeflow.ENotFound {
		t.Fatalf("pinning on an unknown workflow: %v, want not_found", err)
	}
	must(t, s.DeleteWorkflow(ctx, a.project.ID, w.ID))
	got, err = s.FindPinnedOutputs(ctx, w.ID)
	must(t, err)
	if len(got.Outputs) != 0 {
		t.Fatalf("pinned outputs of a deleted workflow = %+v", got)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	must(t, err)
	return string(b)
}
