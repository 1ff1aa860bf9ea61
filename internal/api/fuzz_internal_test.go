package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// fuzzBody is a request type with the shapes handlers decode: strings,
// pointers, nested structs, slices of structs, maps and raw JSON.
type fuzzBody struct {
	Name     *string                    `json:"name"`
	Count    int                        `json:"count"`
	Flag     *bool                      `json:"flag"`
	Tags     []string                   `json:"tags"`
	EnvVars  *[]edgeflow.WorkflowEnvVar `json:"envVars"`
	Deps     *map[string]string         `json:"dependencies"`
	Route    *routeInput                `json:"route"`
	Params   json.RawMessage            `json:"params"`
	Anything any                        `json:"anything"`
}

// keysUnique reports whether no object in the valid JSON document b repeats
// a key, and whether every key is valid UTF-8, checked with encoding/json's
// tokenizer (independently of strictCheck).
func keysUnique(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type frame struct {
		obj     bool
		keys    map[string]bool
		wantKey bool
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return true // not JSON: not this function's question
		}
		top := len(stack) - 1
		if k, isKey := tok.(string); isKey && top >= 0 && stack[top].obj && stack[top].wantKey {
			if stack[top].keys[k] {
				return false
			}
			stack[top].keys[k] = true
			stack[top].wantKey = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{obj: true, keys: map[string]bool{}, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
			top--
		}
		if top >= 0 && stack[top].obj {
			stack[top].wantKey = true
		}
	}
}

// checkDecodeBody checks decodeBytes's promises on any input: no panic;
// every refusal a client error with a code of the table; every acceptance
// valid UTF-8 and JSON, an object, without repeated keys.
func checkDecodeBody(t *testing.T, b []byte) {
	var v fuzzBody
	err := decodeBytes(b, &v)
	if err != nil {
		var e *edgeflow.Error
		if !errors.As(err, &e) || (e.Code != edgeflow.EBadRequest && e.Code != edgeflow.EInvalid) {
			t.Fatalf("body %q: error %v is not bad_request or validation_failed", b, err)
		}
		return
	}
	if !utf8.Valid(b) || !json.Valid(b) {
		t.Fatalf("body %q accepted but not valid UTF-8 JSON", b)
	}
	if !keysUnique(b) {
		t.Fatalf("body %q accepted with a repeated key", b)
	}
	if i := skipSpace(b, 0); b[i] != '{' {
		t.Fatalf("body %q accepted but not an object", b)
	}
	// strictCheck on any valid JSON, with and without a type, never panics.
	strictCheck(b, nil)
}

var decodeBodySeeds = []string{
	`{}`, `{"name":"x"}`, `{"name":"x","name":"y"}`, `{"NAME":"x"}`, `{"Name":"x"}`, `null`, ` null `, `[]`,
	`{"envVars":[{"name":"A","value":"1","isSecret":false},{"name":"B","value":"2","isSecret":true,"name":"C"}]}`,
	`{"route":{"pattern":"a","zoneName":"b","Pattern":"c"}}`, `{"params":{"a":1,"a":2}}`, `{"anything":{"x":[{"y":1,"y":2}]}}`,
	"{\"name\":\"\xff\"}", "{\"\xc3\":1}", `{"name":"\ud800"}`, `{"name":"\udc00\ud800"}`, `{"name":"\ud83d\ude00"}`,
	`{"name":"\\ud800"}`, `{"n\u0061me":"x","name":"y"}`, `{"dependencies":{"a":"1","a":"2"}}`, `{"dependencies":{"A":"1","a":"2"}}`,
	`{"tags":["a","a"]}`, `{"count":1e400}`, `{"count":"1"}`, `{"flag":null}`, `{"params":null,"anything":null}`,
	`{"name":"x"} {}`, `{"name":`, `{"a":{"b":{"c":{"d":{"e":{"f":{}}}}}}}`, "{\"name\":\"caf\xc3\xa9\"}",
}

func FuzzDecodeBody(f *testing.F) {
	for _, s := range decodeBodySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkDecodeBody)
}

func TestDecodeBodySeeds(t *testing.T) {
	t.Parallel()
	for _, s := range decodeBodySeeds {
		checkDecodeBody(t, []byte(s))
	}
}

// checkQueryParsing checks checkQuery, parsePage and the cursor codec on
// any query string: no panic; an accepted query parses with net/url into
// UTF-8; parsePage refuses only with client errors; a cursor opens only in
// the list it was made for.
func checkQueryParsing(t *testing.T, rawQuery string) {
	sealer, _ := secret.New(bytes.Repeat([]byte{9}, secret.KeySize))
	r := httptest.NewRequest("GET", "/api/workflows", nil)
	r.URL.RawQuery = rawQuery
	r = withCursors(r, sealer)
	if err := checkQuery(r); err != nil {
		var e *edgeflow.Error
		if !errors.As(err, &e) || e.Code != edgeflow.EBadRequest {
			t.Fatalf("query %q: %v is not bad_request", rawQuery, err)
		}
		return
	}
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		t.Fatalf("query %q accepted, but net/url refuses it: %v", rawQuery, err)
	}
	for k, vs := range q {
		for _, v := range vs {
			if !utf8.ValidString(k) || !utf8.ValidString(v) {
				t.Fatalf("query %q accepted with text that is not UTF-8", rawQuery)
			}
		}
	}
	if _, err := parsePage(r); err != nil {
		var e *edgeflow.Error
		if !errors.As(err, &e) || e.Code != edgeflow.EBadRequest && e.Code != edgeflow.EInvalid {
			t.Fatalf("query %q: parsePage error %v", rawQuery, err)
		}
	}
	// Any text as an inner cursor comes back out of its own list, and not
	// out of another.
	inner := q.Get("cursor")
	if inner == "" {
		return
	}
	sealed := sealCursor(r, inner, "")
	if got, err := openCursor(r, sealed, ""); err != nil || got != inner {
		t.Fatalf("cursor %q: opened to %q, %v", inner, got, err)
	}
	other := withCursors(httptest.NewRequest("GET", "/api/projects", nil), sealer)
	if _, err := openCursor(other, sealed, ""); err == nil {
		t.Fatalf("cursor %q of /api/workflows opened on /api/projects", inner)
	}
	if _, err := openCursor(r, sealed, "conn"); err == nil {
		t.Fatalf("cursor %q opened with another connection", inner)
	}
	if len(sealed) > 1 {
		if got, err := openCursor(r, sealed[:len(sealed)-1], ""); err == nil && got == inner {
			t.Fatalf("cursor %q: a truncated cursor opened", inner)
		}
	}
}

var querySeeds = []string{
	"", "limit=5", "limit=5&cursor=abc", "limit=%zz", "cursor=%", "a;b", "limit=5;cursor=x", "x=%ff", "%ff=1",
	"cursor=" + strings.Repeat("A", 1100), "limit=1&limit=2", "cursor=a&cursor=b", "a+b=c+d", "=", "&&", "limit=",
	"cursor=%E2%9C%93", "cursor=\x00", "limit=0x10", "limit=-1", "limit=100", "limit=101",
}

func FuzzQuery(f *testing.F) {
	for _, s := range querySeeds {
		f.Add(s)
	}
	f.Fuzz(checkQueryParsing)
}

func TestQuerySeeds(t *testing.T) {
	t.Parallel()
	for _, s := range querySeeds {
		checkQueryParsing(t, s)
	}
}
