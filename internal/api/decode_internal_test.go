package api

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var plainJSONSeeds = []string{
	``, ` `, `{}`, `[]`, `{"ir":{}}`, ` {"ir" : {"a":[1,2,{"b":null}]}} `, `{"ir":null}`, `{"ir":1}{}`,
	`{"ir":{},}`, `{"ir":{}} x`, `{"IR":{}}`, `{"ir":{},"ir":[1]}`, `{"ir":{},"x":1}`, `{"\u0069r":{}}`,
	`[1,2,3]`, `"a\"b\\c\/\b\f\n\r\t\u00e9"`, `"\x"`, `"\u12"`, `"a` + "\x01" + `"`, "\"\xff\xfe\"",
	`-0`, `-0.5e+10`, `01`, `1.`, `.5`, `-`, `1e`, `1E-2`, `+1`, `tru`, `true`, `truex`, `nul`, `null`,
	`false`, `fals`, `[1 2]`, `{"a" 1}`, `{"a":}`, `{,}`, `[,]`, `[1,]`, `{"a":1,}`, `{1:2}`, `]`, `}`,
	`[[[[[]]]]]`, `{"a":{"b":{"c":[]}}}`, `[{}]`, `[{]`, `{]`, `[}`, "\t\n\r{}\r\n", `{"ir":{}}` + "\x00",
	`{"ir":{"a":"}"}}`, `{"ir":{"a":[}}`, `{"ir":{]}`, `{"ir":{"a":1}}}`, `{"ir" {}}`, `{"ir":{}`, `{"ir":{"x":"\"}"}}`,
	` { "ir" : { } } `, `{"ir":{"a":1 2}}`, `{"ir":{"a":tru}}`, `{"ir":{"a":"b` + "\xff" + `"}}`,
	strings.Repeat("[", maxPlainDepth) + strings.Repeat("]", maxPlainDepth),
	strings.Repeat("[", maxPlainDepth+1) + strings.Repeat("]", maxPlainDepth+1),
}

// checkPlainJSON checks that plainJSON never accepts what encoding/json
// refuses, accepts what it accepts (short of the depth limit), and that
// decodeSingleField answers exactly what decode into the struct answers.
func checkPlainJSON(t *testing.T, b []byte) {
	t.Helper()
	got, want := plainJSON(b), json.Valid(b)
	if got && !want {
		t.Fatalf("plainJSON(%q) = true, json.Valid = false", b)
	}
	if want && !got && depthOf(b) <= maxPlainDepth {
		t.Fatalf("plainJSON(%q) = false for valid JSON", b)
	}

	var slow versionSubmitRequest
	slowErr := decodeBytes(b, &slow)
	var req versionSubmitRequest
	fast, fastErr := decodeSingleField(b, "ir", &req, func(q *versionSubmitRequest) json.RawMessage { return q.IR })
	if (slowErr == nil) != (fastErr == nil) || slowErr != nil && slowErr.Error() != fastErr.Error() {
		t.Fatalf("body %q: decodeSingleField error %v, decode error %v", b, fastErr, slowErr)
	}
	if slowErr == nil && !bytes.Equal(fast, slow.IR) {
		t.Fatalf("body %q: decodeSingleField = %q, decode = %q", b, fast, slow.IR)
	}

	if v, ok := objectEnvelope(b, "ir"); ok {
		if json.Valid(v) != want {
			t.Fatalf("body %q: objectEnvelope value %q is valid %v, the body %v", b, v, json.Valid(v), want)
		}
		// decode refuses a valid body only for what strictCheck finds, and
		// then the value alone holds it (the IR reader refuses it too).
		if want && slowErr != nil && strictCheck(v, nil) == nil {
			t.Fatalf("body %q: decode refuses it (%v), but its value passes strictCheck", b, slowErr)
		}
		if want && slowErr == nil && !bytes.Equal(v, slow.IR) {
			t.Fatalf("body %q: objectEnvelope = %q, decode = %q (%v)", b, v, slow.IR, slowErr)
		}
	}
}

// depthOf is the deepest nesting of brackets outside strings (an upper
// bound for malformed input).
func depthOf(b []byte) int {
	d, max, inStr := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '[' || c == '{'):
			d++
			if d > max {
				max = d
			}
		case !inStr && (c == ']' || c == '}'):
			d--
		}
	}
	return max
}

func TestPlainJSON(t *testing.T) {
	t.Parallel()
	for _, s := range plainJSONSeeds {
		checkPlainJSON(t, []byte(s))
	}
}

func FuzzPlainJSON(f *testing.F) {
	for _, s := range plainJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkPlainJSON)
}

func TestSingleField(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body string
		want string
		ok   bool
	}{
		{`{}`, "", true},
		{`{"ir":{"a":1}}`, `{"a":1}`, true},
		{` { "ir" : [ 1 ] } `, `[ 1 ]`, true},
		{`{"ir":1,"ir":"two"}`, "", false},
		{`{"ir":null}`, `null`, true},
		{`{"Ir":{}}`, "", false},
		{`{"ir":{},"other":1}`, "", false},
		{`{"i\u0072":{}}`, "", false},
		{`[]`, "", false},
		{`"ir"`, "", false},
	}
	for _, tt := range tests {
		got, ok := singleField([]byte(tt.body), "ir")
		if ok != tt.ok || ok && string(got) != tt.want {
			t.Errorf("singleField(%s) = %q, %v; want %q, %v", tt.body, got, ok, tt.want, tt.ok)
		}
	}
}
