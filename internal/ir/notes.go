package ir

import (
	"strconv"
	"unicode/utf8"
)

// notes checks the sticky notes (decision 683): non-empty ids unique among
// the notes, text of at most MaxNoteText characters, at most MaxNotes
// notes. Nothing else about them matters: they are never executed.
func (v *validator) notes() {
	if len(v.a.Notes) > MaxNotes {
		v.addf("/notes", "", RuleNote, "an IR has at most %d notes, this one has %d", MaxNotes, len(v.a.Notes))
		return
	}
	seen := make(map[string]bool, len(v.a.Notes))
	for i, n := range v.a.Notes {
		at := "/notes/" + strconv.Itoa(i)
		switch {
		case n.ID == "":
			v.addf(at+"/id", "", RuleNote, "a note needs an id")
		case seen[n.ID]:
			v.addf(at+"/id", "", RuleNote, "another note has the id %q", n.ID)
		}
		seen[n.ID] = true
		if c := utf8.RuneCountInString(n.Text); c > MaxNoteText {
			v.addf(at+"/text", "", RuleNote, "a note's text is at most %d characters, this one has %d", MaxNoteText, c)
		}
	}
}
