package sqlstore

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode"
)

// The bounds of the words a run's step list adds to its search index
// (StepWords; docs/runs.md, "Finding runs").
const (
	// MaxStepWordsPerOutput is how much text (bytes) one step's output adds.
	MaxStepWordsPerOutput = 2 << 10
	// MaxStepWords is how much text (bytes) all of a run's steps add.
	MaxStepWords = 16 << 10
	// maxStepWordsSteps is how many steps of a list are looked at.
	maxStepWordsSteps = 1000
	// maxStepWordsRead is how much of one output's JSON is read.
	maxStepWordsRead = 8 << 10
)

// wordStep is what StepWords reads of a step of the provider's list.
type wordStep struct {
	Output json.RawMessage `json:"output"`
	Config *struct {
		Sensitive any `json:"sensitive"`
	} `json:"config"`
}

// sensitive reports whether the step's config marks it sensitive, whatever
// the value's form ("output", as the generated code writes it, or any
// other value but false, null and ""): such an output is never indexed,
// even when a provider sent it unredacted.
func (s wordStep) sensitive() bool {
	if s.Config == nil {
		return false
	}
	switch v := s.Config.Sensitive.(type) {
	case nil:
		return false
	case bool:
		return v
	case string:
		return v != ""
	default:
		return true
	}
}

// StepWords is the text that a run's steps (the provider's step list, as
// stored in Run.Steps) add to the run's search index: the keys and values
// (strings, numbers, booleans) of each step's output in order, the output
// of a waitForEvent step being the event's payload as the run received it.
// A sensitive step's output adds nothing. Each output adds at most
// MaxStepWordsPerOutput bytes and the whole at most MaxStepWords, cut
// after a whole word; only the first 1,000 steps and the first 8 KiB of
// each output's JSON are read, so the cost of a write is bounded whatever
// the list holds. "" when there is nothing to add (or the list does not
// parse).
func StepWords(steps json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(steps))
	if t, err := dec.Token(); err != nil || t != json.Delim('[') {
		return ""
	}
	var b strings.Builder
	for n := 0; n < maxStepWordsSteps && dec.More() && b.Len() < MaxStepWords; n++ {
		var st wordStep
		if err := dec.Decode(&st); err != nil {
			var mistyped *json.UnmarshalTypeError
			if errors.As(err, &mistyped) {
				continue // a step of another shape (its config unread): left out
			}
			break
		}
		if st.sensitive() || len(st.Output) == 0 {
			continue
		}
		addOutputWords(&b, st.Output, min(MaxStepWordsPerOutput, MaxStepWords-b.Len()))
	}
	return b.String()
}

// addOutputWords appends to b the keys and scalar values of the JSON out
// (its first maxStepWordsRead bytes), space separated, at most limit bytes
// and ending at a whole word.
func addOutputWords(b *strings.Builder, out json.RawMessage, limit int) {
	if len(out) > maxStepWordsRead {
		out = out[:maxStepWordsRead] // the tokens before the cut still read
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	added := 0
	for added < limit {
		t, err := dec.Token()
		if err != nil {
			return
		}
		var text string
		switch v := t.(type) {
		case string:
			text = v
		case json.Number:
			text = v.String()
		case bool:
			text = "true"
			if !v {
				text = "false"
			}
		default:
			continue // delimiters and null
		}
		if text == "" {
			continue
		}
		if added+len(text)+1 > limit {
			text = cutAtWord(text, limit-added-1)
			if text == "" {
				return
			}
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(text)
		added += len(text) + 1
	}
}

// cutAtWord is the longest start of s of at most n bytes that ends where a
// word ends (before a character that is neither a letter nor a digit, as
// the engines' tokenizers split), so that no cut word is indexed.
func cutAtWord(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	end := 0
	for i, r := range s {
		if i > n {
			break
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			end = i
		}
	}
	return s[:end]
}

// stepWordsArg is the step_words column's value for a run's steps: the
// words StepWords takes from them, which the engine's search index adds to
// the run's (the SQLite triggers of migration 0025, PostgreSQL's generated
// search column); NULL when there are none.
func stepWordsArg(steps json.RawMessage) any {
	if w := StepWords(steps); w != "" {
		return w
	}
	return nil
}
