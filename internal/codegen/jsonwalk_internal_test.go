package codegen

import (
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
)

// referenceJSON is the JavaScript of a JSON text without expressions, built
// with encoding/json's tokenizer: what jsonField must produce for it.
func referenceJSON(s string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var out strings.Builder
	var value func() error
	value = func() error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			closing := "]"
			if t == '{' {
				closing = " }"
			}
			out.WriteString(string(t))
			n := 0
			for ; dec.More(); n++ {
				switch {
				case t == '{' && n == 0:
					out.WriteString(" ")
				case n > 0:
					out.WriteString(", ")
				}
				if t == '{' {
					k, err := dec.Token()
					if err != nil {
						return err
					}
					out.WriteString(jsString(k.(string)) + ": ")
				}
				if err := value(); err != nil {
					return err
				}
			}
			if _, err := dec.Token(); err != nil {
				return err
			}
			if n == 0 {
				closing = string(closing[len(closing)-1])
			}
			out.WriteString(closing)
		case string:
			out.WriteString(jsString(t))
		case json.Number:
			out.WriteString(t.String())
		case bool:
			out.WriteString(strconv.FormatBool(t))
		case nil:
			out.WriteString("null")
		}
		return nil
	}
	if value() != nil {
		return "", false
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", false
	}
	return out.String(), true
}

var jsonFieldCases = []string{
	`{}`, `[]`, `{"a": 1}`, `{"a": {"b": [1, 2, {"c": null}]}, "d": true, "e": false}`,
	`[1, -0.5, 1e10, -2E-3, 0]`, `"plain"`, `"esc \" \\ \/ \b \f \n \r \t"`, `"\u00e9\u4e2d\ud83d\ude00"`,
	`"lone \ud800 surrogate"`, `{"key with \"quote\"": "v"}`, " \n\t{ \"a\" : [ ] , \"b\" : { } } \r\n",
	`{"a": 1,}`, `[1 2]`, `{"a" 1}`, `01`, `1.`, `-`, `1e`, `tru`, `nul`, `"unterminated`, `{"a": 1} x`,
	"\"ctl \x00\"", `"bad \x escape"`, `[`, `{`, `{"a":`, `"\u12"`,
}

// TestJSONFieldMatchesEncodingJSON: without expressions, jsonField accepts
// exactly the texts encoding/json accepts and writes the same literal.
func TestJSONFieldMatchesEncodingJSON(t *testing.T) {
	for _, s := range jsonFieldCases {
		checkJSONField(t, s)
	}
}

func FuzzJSONField(f *testing.F) {
	for _, s := range jsonFieldCases {
		f.Add(s)
	}
	f.Fuzz(checkJSONField)
}

func checkJSONField(t *testing.T, s string) {
	if strings.Contains(s, "{{") || strings.ContainsAny(s, markOpen+markText+markValue) || strings.Contains(strings.ToLower(s), `\u000`) {
		return // expressions and markers are covered by the golden and behaviour tests
	}
	g := &gen{helpers: [helperCount]bool{}}
	got, err := g.jsonField(s, &scope{})
	want, ok := referenceJSON(s)
	switch {
	case ok && err != nil:
		t.Fatalf("jsonField(%q) refused valid JSON: %v", s, err)
	case !ok && err == nil:
		t.Fatalf("jsonField(%q) accepted invalid JSON as %s", s, got)
	case ok && got != want:
		t.Fatalf("jsonField(%q) = %s, want %s", s, got, want)
	}
}
