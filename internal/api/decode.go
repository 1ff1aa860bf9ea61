package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// MaxBodyBytes is the largest request body the API reads (413 above).
const MaxBodyBytes = 1 << 20

// decode reads the JSON body of r into v, which must be a pointer to a struct
// (or map). It refuses, with the codes of ARCHITECTURE.md §3:
//   - a content type other than application/json: 400 bad_request;
//   - a body over MaxBodyBytes: 413 payload_too_large;
//   - malformed JSON, an empty body, or data after the JSON value: 400 bad_request;
//   - a value of the wrong type: 422 validation_failed, path of the field;
//   - a field v does not have: 422 validation_failed, path of the field.
func decode(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return errBadRequest("Content-Type must be application/json")
		}
	} else {
		return errBadRequest("Content-Type must be application/json")
	}
	raw, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxBodyBytes))
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return decodeError(err, nil)
		}
		return errBadRequest("could not read the request body")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return decodeError(err, raw)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errBadRequest("malformed JSON: unexpected data after the JSON value")
	}
	return nil
}

func decodeError(err error, raw []byte) error {
	var (
		maxErr    *http.MaxBytesError
		syntaxErr *json.SyntaxError
		typeErr   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &maxErr):
		return edgeflow.Errorf(edgeflow.EPayloadTooLarge, "request body is larger than %d bytes", MaxBodyBytes)
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
// (default 50); anything else is 422 with path "?limit".
func parsePage(r *http.Request) (edgeflow.ListOptions, error) {
	q := r.URL.Query()
	opts := edgeflow.ListOptions{Cursor: q.Get("cursor"), Limit: DefaultPageLimit}
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
	return opts, nil
}

// pageBody is the JSON shape of every list: {data, nextCursor}.
type pageBody[T any] struct {
	Data       []T     `json:"data"`
	NextCursor *string `json:"nextCursor"`
}

// newPage converts a store page, mapping each item with f.
func newPage[T, U any](p edgeflow.Page[T], f func(T) U) pageBody[U] {
	out := pageBody[U]{Data: make([]U, 0, len(p.Items))}
	for _, it := range p.Items {
		out.Data = append(out.Data, f(it))
	}
	if p.NextCursor != "" {
		c := p.NextCursor
		out.NextCursor = &c
	}
	return out
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
