package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// notesIR is a valid workflow with two sticky notes (decision 683); the
// notes' text is marked so that a test can look for it in generated code.
const notesIR = `{"metadata":{"name":"Noted"},
"nodes":[
 {"id":"start","type":"step","name":"Start","position":{"x":0,"y":0},"data":{"code":"return {n: 1};"}},
 {"id":"finish","type":"step","name":"Finish","position":{"x":260,"y":0},"data":{"code":"return {m: {{start.n}}};"}}
],
"edges":[{"id":"e1","source":"start","target":"finish"}],"entryNodeId":"start",
"notes":[
 {"id":"note_1","text":"NOTE_MARKER_ONE: ask finance\nbefore changing */ this","position":{"x":10,"y":-120},"width":220,"height":90},
 {"id":"note_2","text":"NOTE_MARKER_TWO ${alert(1)}","position":{"x":300,"y":140}}
]}`

// TestVersionIRNotes: sticky notes are stored with a version and read back as
// sent; the code compiled from the IR is the same with or without them and
// holds none of their text; bad notes are refused with their path and rule.
func TestVersionIRNotes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Noted"}`, a.keyAll).str(t, "id")
	vid := w.submitVersion(a, wf, notesIR)

	var v struct{ IR json.RawMessage }
	if err := json.Unmarshal(w.must(200, "GET", "/api/workflows/"+wf+"/versions/"+vid, "", a.keyRead).body, &v); err != nil {
		t.Fatal(err)
	}
	var stored, sent struct{ Notes []map[string]any }
	if err := json.Unmarshal(v.IR, &stored); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(notesIR), &sent); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(sent.Notes, stored.Notes); diff != "" {
		t.Errorf("stored notes differ (-sent +stored):\n%s", diff)
	}

	withNotes := w.must(200, "POST", "/api/ir/compile", `{"ir":`+notesIR+`}`, a.keyRead).str(t, "code")
	i := strings.Index(notesIR, `,
"notes"`)
	without := w.must(200, "POST", "/api/ir/compile", `{"ir":`+notesIR[:i]+`}}`, a.keyRead).str(t, "code")
	if withNotes != without {
		t.Errorf("the notes changed the generated code")
	}
	for _, marker := range []string{"NOTE_MARKER", "ask finance", "note_1"} {
		if strings.Contains(withNotes, marker) {
			t.Errorf("generated code holds %q from a note", marker)
		}
	}

	long := strings.Repeat("x", 10001)
	for _, c := range []struct{ notes, path, rule string }{
		{`[{"id":"n","text":"a"},{"id":"n","text":"b"}]`, "/notes/1/id", "note"},
		{`[{"id":"","text":"a"}]`, "/notes/0/id", "note"},
		{`[{"id":"n","text":"` + long + `"}]`, "/notes/0/text", "note"},
		{`[{"id":"n","text":"a","color":"red"}]`, "/notes/0/color", "schema"},
		{`[{"id":"n"}]`, "/notes/0/text", "schema"},
		{`{"id":"n"}`, "/notes", "schema"},
	} {
		body := `{"ir":` + notesIR[:i] + `,"notes":` + c.notes + `}}`
		valid, errs := validateIR(t, w, body, a.keyRead)
		if valid {
			t.Errorf("notes %.60s: valid", c.notes)
			continue
		}
		findIRError(t, errs, c.path, c.rule)
		r := w.do("POST", "/api/workflows/"+wf+"/versions", body, a.keyAll)
		if r.status != 400 || !strings.Contains(string(r.body), c.path) {
			t.Errorf("notes %.60s: version submit = %d %s", c.notes, r.status, r.body)
		}
	}
	var many []string
	for n := range 201 {
		many = append(many, fmt.Sprintf(`{"id":"n%d","text":"t"}`, n))
	}
	_, errs := validateIR(t, w, `{"ir":`+notesIR[:i]+`,"notes":[`+strings.Join(many, ",")+`]}}`, a.keyRead)
	findIRError(t, errs, "/notes", "note")
	_, errs = validateIR(t, w, `{"ir":`+notesIR[:i]+`,"notes":[`+strings.Join(many[:200], ",")+`]}}`, a.keyRead)
	if len(errs) != 0 {
		t.Errorf("200 notes: %+v", errs)
	}
}
