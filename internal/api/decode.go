package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// MaxBodyBytes is the largest request body the API reads (413 above),
// except for version submissions (MaxIRBodyBytes).
const MaxBodyBytes = 1 << 20

// MaxIRBodyBytes is the largest version submission: an IR of several
// thousand nodes is over a megabyte of JSON (testdata/bench's mixed-5000 is
// 1.4 MB), and its generated code still fits a Worker.
const MaxIRBodyBytes = 8 << 20

// decode reads the JSON body of r into v, which must be a pointer to a struct
// (or map). It refuses, with the codes of docs/api.md ("Errors"):
//   - a content type other than application/json: 400 bad_request;
//   - a body over MaxBodyBytes: 413 payload_too_large;
//   - malformed JSON, an empty body, or data after the JSON value: 400 bad_request;
//   - a value of the wrong type: 422 validation_failed, path of the field;
//   - a field v does not have, or has under another case: 422
//     validation_failed, path of the field;
//   - text that is not valid UTF-8, a key repeated in an object, or null
//     for the body: 400 bad_request, path of the value (strictCheck).
func decode(r *http.Request, v any) error {
	body, err := readBody(r)
	if err != nil {
		return err
	}
	defer body.release()
	return decodeBytes(body.Bytes(), v)
}

// decodeBytes decodes the whole body raw into v with decode's rules (all but
// the content type and size checks, which happen on reading).
func decodeBytes(raw []byte, v any) error {
	if !utf8.Valid(raw) {
		return invalidUTF8(raw)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err, raw)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errBadRequest("malformed JSON: unexpected data after the JSON value")
	}
	return strictCheck(raw, reflect.TypeOf(v))
}

// requestBody is a request body read into a pooled buffer. Its bytes are
// valid until release; nothing that outlives the handler may keep them.
type requestBody struct{ bytes.Buffer }

// bodyPool recycles request body buffers (up to MaxBodyBytes each).
var bodyPool = sync.Pool{New: func() any { return new(requestBody) }}

// release returns the buffer to the pool.
func (b *requestBody) release() {
	if b.Cap() > MaxBodyBytes+bytes.MinRead {
		return
	}
	b.Reset()
	bodyPool.Put(b)
}

// readBody checks the content type (400 unless application/json) and reads
// the body into a pooled buffer (413 over MaxBodyBytes). The caller must
// release it.
func readBody(r *http.Request) (*requestBody, error) { return readBodyLimit(r, MaxBodyBytes) }

// readBodyLimit is readBody with another size limit.
func readBodyLimit(r *http.Request, limit int64) (*requestBody, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return nil, errBadRequest("Content-Type must be application/json")
	}
	if ct != "application/json" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return nil, errBadRequest("Content-Type must be application/json")
		}
	}
	b := bodyPool.Get().(*requestBody)
	if n := r.ContentLength; n > 0 && n <= limit {
		b.Grow(int(n) + bytes.MinRead) // ReadFrom wants MinRead spare to see EOF without growing
	}
	if _, err := b.ReadFrom(http.MaxBytesReader(nil, r.Body, limit)); err != nil {
		b.release()
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return nil, decodeError(err, nil)
		}
		if bodyTimedOut(err) {
			return nil, edgeflow.Errorf(codeRequestTimeout, "the request body did not arrive within the read timeout")
		}
		return nil, errBadRequest("could not read the request body")
	}
	return b, nil
}

// decodeSingleField reads a body that is the JSON object {"<name>": value}
// and returns the raw bytes of value (nil when the key is absent), exactly as
// decode into a struct with one json.RawMessage field would, but without
// copying the value: the bytes point into body. Any body that is not plainly
// such an object (malformed, other or differently cased keys, escaped keys,
// trailing data, not an object) goes through decode's full path, so its error
// is the same as decode's; dst is then only used for that path and must be a
// pointer to that struct, whose field is returned by get.
func decodeSingleField[T any](body []byte, name string, dst *T, get func(*T) json.RawMessage) (json.RawMessage, error) {
	if plainJSON(body) {
		if v, ok := singleField(body, name); ok && strictCheck(v, nil) == nil {
			return v, nil
		}
	}
	if err := decodeBytes(body, dst); err != nil {
		return nil, err
	}
	return get(dst), nil
}

// objectEnvelope returns the value of a body that is exactly the object
// {"<key>": {...}} (whitespace aside), without checking the value itself:
// when ok, the body is valid JSON if and only if the value is, and decode
// into a struct with one json.RawMessage field would give the value. The
// caller parses the value strictly and, if it is malformed, decodes the body
// with decodeBytes for the error decode gives. A body of another form (other
// keys, escapes in the key, a value that is not an object) is not ok.
func objectEnvelope(b []byte, key string) (value []byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	if len(b)-i < len(key)+2 || b[i] != '"' || string(b[i+1:i+1+len(key)]) != key || b[i+1+len(key)] != '"' {
		return nil, false
	}
	i = skipSpace(b, i+len(key)+2)
	if i >= len(b) || b[i] != ':' {
		return nil, false
	}
	v := skipSpace(b, i+1)
	if v >= len(b) || b[v] != '{' {
		return nil, false
	}
	end := skipValue(b, v)
	if end < 0 {
		return nil, false
	}
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != '}' || skipSpace(b, i+1) != len(b) {
		return nil, false
	}
	return b[v:end:end], true
}

// maxPlainDepth is the deepest nesting plainJSON accepts; deeper documents
// take decode's full path (encoding/json allows 10,000).
const maxPlainDepth = 256

// plainJSON reports whether b is one well-formed JSON value (RFC 8259,
// surrounded by optional whitespace) that encoding/json accepts. It is a
// fast, allocation-free check that may say false for a document that is
// acceptable (one nested deeper than maxPlainDepth), never true for one
// encoding/json refuses; callers fall back to encoding/json on false. Like
// encoding/json, it does not check that strings are valid UTF-8.
func plainJSON(b []byte) bool {
	var stack [maxPlainDepth]byte // '{' or '[' of each open container
	depth := 0
	i := skipSpace(b, 0)
	for {
		// A value at b[i].
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '{' || c == '[':
			if depth == maxPlainDepth {
				return false
			}
			stack[depth] = c
			depth++
			i = skipSpace(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				depth--
				i++
				break
			}
			if c == '{' {
				if i = plainKey(b, i); i < 0 {
					return false
				}
			}
			continue
		case c == '"':
			if i = plainString(b, i); i < 0 {
				return false
			}
		case c == '-' || c >= '0' && c <= '9':
			if i = plainNumber(b, i); i < 0 {
				return false
			}
		case c == 't' && len(b)-i >= 4 && string(b[i:i+4]) == "true",
			c == 'n' && len(b)-i >= 4 && string(b[i:i+4]) == "null":
			i += 4
		case c == 'f' && len(b)-i >= 5 && string(b[i:i+5]) == "false":
			i += 5
		default:
			return false
		}
		// After a value: a separator, the end of containers, or the end.
		for {
			i = skipSpace(b, i)
			if depth == 0 {
				return i == len(b)
			}
			if i >= len(b) {
				return false
			}
			open := stack[depth-1]
			if b[i] == open+2 {
				depth--
				i++
				continue
			}
			if b[i] != ',' {
				return false
			}
			i = skipSpace(b, i+1)
			if open == '{' {
				if i = plainKey(b, i); i < 0 {
					return false
				}
			}
			break
		}
	}
}

// plainKey reads `"key" :` at b[i] and returns the offset of the value
// after it, or -1.
func plainKey(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	if i = plainString(b, i); i < 0 {
		return -1
	}
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return -1
	}
	return skipSpace(b, i+1)
}

// plainString returns the offset after the JSON string at b[i] (which is
// '"'), or -1.
func plainString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1
		case c < 0x20:
			return -1
		case c == '\\':
			i++
			if i >= len(b) {
				return -1
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(b)-i < 5 {
					return -1
				}
				for _, h := range b[i+1 : i+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

// plainNumber returns the offset after the JSON number at b[i], or -1.
func plainNumber(b []byte, i int) int {
	digits := func(i int) int {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
	if b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if i = digits(i); i < 0 {
		return -1
	}
	if i < len(b) && b[i] == '.' {
		if i = digits(i + 1); i < 0 {
			return -1
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i = digits(i); i < 0 {
			return -1
		}
	}
	return i
}

// singleField returns the value of key in the valid JSON document b when b
// is the object {"<key>": value}, the key written without escapes. ok is
// false for any other document (a repeated key too: decode refuses it).
func singleField(b []byte, key string) (value []byte, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		kEnd := skipValue(b, i)
		if kEnd < 0 || string(b[i+1:kEnd-1]) != key {
			return nil, false
		}
		v := skipSpace(b, skipSpace(b, kEnd)+1) // past the colon
		end := skipValue(b, v)
		if end < 0 {
			return nil, false
		}
		if value != nil {
			return nil, false
		}
		value = b[v:end:end]
		i = skipSpace(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return value, i < len(b) && b[i] == '}'
}

func decodeError(err error, raw []byte) error {
	var (
		maxErr    *http.MaxBytesError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &maxErr):
		return edgeflow.Errorf(edgeflow.EPayloadTooLarge, "request body is larger than %d bytes", maxErr.Limit)
	case errors.Is(err, io.EOF):
		return errBadRequest("request body is empty; send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errBadRequest("malformed JSON: unexpected end of input")
	case errors.As(err, &syntaxErr):
		return errBadRequest("malformed JSON at byte %d: %s", syntaxErr.Offset, syntaxErr.Error())
	case errors.As(err, &typeErr):
		path := jsonPath(typeErr.Field)
		if p, ok := locate(raw, typeErr.Field, typeErr.Value); ok {
			path = p
		}
		msg := fmt.Sprintf("must be %s, not %s", jsonTypeName(typeErr.Type.String()), typeErr.Value)
		if path == "/" {
			msg = fmt.Sprintf("request body must be a JSON object, not %s", typeErr.Value)
		}
		return &edgeflow.Error{Code: edgeflow.EInvalid, Message: path + " " + msg,
			Details: []edgeflow.FieldError{{Path: path, Message: msg}}}
	}
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		field, _ := strconv.Unquote(name)
		if field == "" {
			field = strings.Trim(name, `"`)
		}
		path := "/" + field
		return &edgeflow.Error{Code: edgeflow.EInvalid, Message: "unknown field " + path,
			Details: []edgeflow.FieldError{{Path: path, Message: "unknown field"}}}
	}
	return errBadRequest("malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
}

// locate finds the JSON pointer of the first value of JSON type kind at the
// dotted field path (which encoding/json gives without array indexes).
func locate(raw []byte, field, kind string) (string, bool) {
	var doc any
	if field == "" || json.Unmarshal(raw, &doc) != nil {
		return "", false
	}
	var walk func(v any, segs []string, path string) (string, bool)
	walk = func(v any, segs []string, path string) (string, bool) {
		if arr, ok := v.([]any); ok {
			for i, el := range arr {
				if p, ok := walk(el, segs, path+"/"+strconv.Itoa(i)); ok {
					return p, true
				}
			}
			if len(segs) > 0 {
				return "", false
			}
		}
		if len(segs) == 0 {
			return path, jsonKind(v) == kind || strings.HasPrefix(kind, "number") && jsonKind(v) == "number"
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		child, ok := obj[segs[0]]
		if !ok {
			return "", false
		}
		return walk(child, segs[1:], path+"/"+escapePointer(segs[0]))
	}
	return walk(doc, strings.Split(field, "."), "")
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}

// jsonPath turns encoding/json's "a.b.0" field path into a JSON pointer "/a/b/0".
func jsonPath(field string) string {
	if field == "" {
		return "/"
	}
	return "/" + strings.ReplaceAll(field, ".", "/")
}

func jsonTypeName(goType string) string {
	switch {
	case goType == "string":
		return "a string"
	case goType == "bool":
		return "a boolean"
	case strings.HasPrefix(goType, "int"), strings.HasPrefix(goType, "uint"), strings.HasPrefix(goType, "float"):
		return "a number"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map"), strings.HasPrefix(goType, "struct"), strings.Contains(goType, "."):
		return "an object"
	}
	return goType
}

// problems collects field errors so that a request hears about all of them at once.
type problems []edgeflow.FieldError

// add records a problem at path.
func (p *problems) add(path, message string) {
	*p = append(*p, edgeflow.FieldError{Path: path, Message: message})
}

// check records message at path unless ok.
func (p *problems) check(ok bool, path, message string) {
	if !ok {
		p.add(path, message)
	}
}

// err returns nil or one validation_failed error carrying every problem.
func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	msg := p[0].Path + ": " + p[0].Message
	if len(p) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(p)-1)
	}
	return &edgeflow.Error{Code: edgeflow.EInvalid, Message: msg, Details: []edgeflow.FieldError(p)}
}

// DefaultPageLimit and MaxPageLimit bound the limit query parameter.
const (
	DefaultPageLimit = 50
	MaxPageLimit     = 100
)

// parsePage reads the cursor and limit query parameters: limit is 1..100
// (default 50); anything else is 422 with path "?limit". The cursor must be
// a nextCursor of the same list (query.go): 422 when it is not one of ours,
// 400 when it comes from another list.
func parsePage(r *http.Request) (edgeflow.ListOptions, error) {
	q := r.URL.Query()
	opts := edgeflow.ListOptions{Cursor: q.Get("cursor"), Limit: DefaultPageLimit}
	if len(q["cursor"]) > 1 {
		return opts, edgeflow.Invalid("?cursor", "give one cursor")
	}
	if raw, ok := q["limit"]; ok {
		n, err := strconv.Atoi(raw[0])
		if err != nil || n < 1 || n > MaxPageLimit || len(raw) > 1 {
			return opts, edgeflow.Invalid("?limit", fmt.Sprintf("limit must be an integer from 1 to %d", MaxPageLimit))
		}
		opts.Limit = n
	}
	if len(opts.Cursor) > 1024 {
		return opts, edgeflow.Invalid("?cursor", "invalid cursor")
	}
	inner, err := openCursor(r, opts.Cursor, "")
	opts.Cursor = inner
	return opts, err
}

// newPage converts a store page of the list r asked for, mapping each item
// with f; its nextCursor is bound to that list.
func newPage[T, U any](r *http.Request, p edgeflow.Page[T], f func(T) U) edgeflow.ListPage[U] {
	out := edgeflow.ListPage[U]{Data: make([]U, 0, len(p.Items))}
	for _, it := range p.Items {
		out.Data = append(out.Data, f(it))
	}
	if p.NextCursor != "" {
		c := sealCursor(r, p.NextCursor, "")
		out.NextCursor = &c
	}
	return out
}

// pageOfSorted is one page of a list held in memory whose items are in
// ascending order of key (keys distinct): the items after the cursor's key,
// at most opts.Limit of them; the next cursor is the last item's key. Keyset
// rather than offsets, so a page stays right when items before it come or go
// between requests.
func pageOfSorted[T any](items []T, key func(T) string, opts edgeflow.ListOptions) edgeflow.Page[T] {
	start := 0
	if opts.Cursor != "" {
		start = sort.Search(len(items), func(i int) bool { return key(items[i]) > opts.Cursor })
	}
	limit := opts.Limit
	if limit <= 0 {
		limit = DefaultPageLimit
	}
	end := min(start+limit, len(items))
	p := edgeflow.Page[T]{Items: items[start:end]}
	if end < len(items) && end > start {
		p.NextCursor = key(items[end-1])
	}
	return p
}

// listError maps the store's invalid-cursor error to the query parameter.
func listError(err error) error {
	var e *edgeflow.Error
	if errors.As(err, &e) && e.Code == edgeflow.EInvalid {
		return edgeflow.Invalid("?cursor", "invalid cursor")
	}
	return err
}

// writeJSON answers v as JSON with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(`{"error":"internal error","code":"internal","details":[],"requestId":""}`)
		status = http.StatusInternalServerError
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(b)+1))
	w.WriteHeader(status)
	w.Write(append(b, '\n'))
}

// writeNoContent answers 204.
func writeNoContent(w http.ResponseWriter) { w.WriteHeader(http.StatusNoContent) }
