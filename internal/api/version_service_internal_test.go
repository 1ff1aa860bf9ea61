package api

import (
	"hash/maphash"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// TestNumberGuesses checks the hints the version service builds with: a new
// workflow is guessed 1, concurrent submissions guess the numbers after one
// another, a failure or another replica's numbers are learnt from what the
// store answered, and a workflow with versions the service has not seen is
// not guessed until one submission through it is done.
func TestNumberGuesses(t *testing.T) {
	g := &numberGuesses{seed: maphash.MakeSeed()}
	fresh := &edgeflow.Workflow{ID: "wf_fresh"}
	if got := g.take(fresh); got != 1 {
		t.Fatalf("new workflow guessed %d, want 1", got)
	}
	g.done(fresh.ID, true, 1)
	a, b, c := g.take(fresh), g.take(fresh), g.take(fresh)
	if a != 2 || b != 3 || c != 4 {
		t.Fatalf("three concurrent submissions guessed %d, %d, %d; want 2, 3, 4", a, b, c)
	}
	g.done(fresh.ID, true, 0)  // one failed
	g.done(fresh.ID, true, 2)  // stored as 2
	g.done(fresh.ID, true, 10) // another replica took 3..9 meanwhile
	if got := g.take(fresh); got != 11 {
		t.Fatalf("after numbers up to 10, guessed %d, want 11", got)
	}
	g.done(fresh.ID, true, 11)

	known := &edgeflow.Workflow{ID: "wf_known", CurrentVersionID: "ver_x"}
	if got := g.take(known); got != 0 {
		t.Fatalf("workflow with unseen versions guessed %d, want none", got)
	}
	g.done(known.ID, false, 7)
	if got := g.take(known); got != 8 {
		t.Fatalf("after storing 7 unguessed, guessed %d, want 8", got)
	}
	g.done(known.ID, true, 8)
}

// TestNumberGuessesSharedSlot: two workflows in one slot do not mix their
// numbers; a busy slot is not taken over.
func TestNumberGuessesSharedSlot(t *testing.T) {
	g := &numberGuesses{seed: maphash.MakeSeed()}
	first := &edgeflow.Workflow{ID: "wf_first"}
	var second *edgeflow.Workflow
	for i := 0; second == nil; i++ { // find another id in the same slot
		id := "wf_" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26))
		if id != first.ID && g.slot(id) == g.slot(first.ID) {
			second = &edgeflow.Workflow{ID: id}
		}
	}
	if got := g.take(first); got != 1 {
		t.Fatalf("first guessed %d", got)
	}
	if got := g.take(second); got != 0 {
		t.Fatalf("second workflow in a busy slot guessed %d, want none", got)
	}
	g.done(second.ID, false, 1)
	g.done(first.ID, true, 1)
	if got := g.take(second); got != 1 {
		t.Fatalf("second workflow in the free slot guessed %d, want 1", got)
	}
	g.done(second.ID, true, 1)
	if got := g.take(&edgeflow.Workflow{ID: first.ID, CurrentVersionID: "ver_1"}); got != 0 {
		t.Fatalf("first workflow, forgotten, guessed %d, want none", got)
	}
}

// TestRenumberMatchesBuild: a version built for one number and renumbered
// is byte for byte the version built for the other, whether the stored IR is
// the document as sent (spliced) or written from the parsed IR (defaults
// filled in).
func TestRenumberMatchesBuild(t *testing.T) {
	sent := `{"metadata":{"name":"Orders","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
"nodes":[{"id":"start","type":"step","name":"Start","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"code":"return {ok: true};"}}],
"edges":[],"entryNodeId":"start"}`
	filled := `{"metadata":{"name":"Orders"},"nodes":[{"id":"start","type":"step","name":"Start","data":{"code":"return 1;"}}],
"edges":[],"entryNodeId":"start"}`
	for _, raw := range []string{sent, filled} {
		prepare := func() *versionBuild {
			a, graph, problems := ir.ValidateGraph([]byte(raw), ir.Options{Nodes: nodes.BuiltinCatalog()})
			if len(problems) > 0 {
				t.Fatalf("%+v", problems)
			}
			return &versionBuild{raw: []byte(raw), a: a, filled: fillServerMetadata(a, time.Unix(0, 0)),
				opts: codegen.Options{WorkflowID: "wf_x", DisplayName: "Orders", Graph: graph}}
		}
		b := prepare()
		v3, err := b.build(3)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := b.renumber(v3, 3, 7)
		if !ok {
			t.Fatalf("renumber refused the build of %s", raw)
		}
		want, err := prepare().build(7)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.IR) != string(want.IR) || got.Code != want.Code {
			t.Errorf("renumbered 3 → 7:\nIR %s\nwant %s\ncode header %q", got.IR, want.IR, strings.SplitN(got.Code, "\n", 2)[0])
		}
	}
}
