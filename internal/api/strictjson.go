package api

import (
	"encoding"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
)

// strictCheck refuses what encoding/json lets through silently in a body it
// has already accepted as JSON (docs/decisions.md 86):
//   - a string or key that is not valid UTF-8 or holds an unpaired UTF-16
//     surrogate escape (encoding/json would rewrite it as U+FFFD): 400;
//   - a key repeated in one object, at any depth (encoding/json keeps the
//     last): 400;
//   - a key that matches a field of t only case-insensitively (encoding/json
//     would fill the field): 422 unknown field, like any unknown field;
//   - null where t needs an object: 400.
//
// Every error carries the JSON pointer of the bad value or key. t is the
// type the body is decoded into (nil: no field checks); where it is
// json.RawMessage, an interface or another type with its own UnmarshalJSON,
// only the UTF-8 and duplicate rules apply below that point. b must be one
// valid JSON value; strictCheck reports nothing for malformed input.
func strictCheck(b []byte, t reflect.Type) error {
	i := skipSpace(b, 0)
	if i < len(b) && b[i] == 'n' && needsObject(t) {
		return &edgeflow.Error{Code: edgeflow.EBadRequest, Message: "request body must be a JSON object, not null",
			Details: []edgeflow.FieldError{{Path: "/", Message: "must be a JSON object, not null"}}}
	}
	_, err := (&strictWalker{b: b}).value(i, t, "")
	return err
}

// needsObject reports whether t (through pointers) is decoded from an object.
func needsObject(t reflect.Type) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t != nil && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map) && !selfDecoding(t)
}

type strictWalker struct{ b []byte }

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// selfDecoding reports whether t decodes itself (json.RawMessage, time.Time, …).
func selfDecoding(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return t.Implements(jsonUnmarshalerType) || p.Implements(jsonUnmarshalerType) ||
		t.Kind() != reflect.String && (t.Implements(textUnmarshalerType) || p.Implements(textUnmarshalerType))
}

// guide returns the type to check a value against: t without pointers, or
// nil when the value is not checked field by field.
func guide(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() == reflect.Interface || selfDecoding(t) {
		return nil
	}
	return t
}

// fieldTypes maps the exact JSON names of a struct's fields to their types.
var fieldTypes sync.Map // reflect.Type → map[string]reflect.Type

func structFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldTypes.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(t) {
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				continue // its fields are promoted
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := m[name]; !dup || len(f.Index) == 1 {
			m[name] = f.Type
		}
	}
	fieldTypes.Store(t, m)
	return m
}

// value checks the value at b[i] and returns the offset after it.
func (w *strictWalker) value(i int, t reflect.Type, path string) (int, error) {
	b := w.b
	if i >= len(b) {
		return i, nil
	}
	t = guide(t)
	switch b[i] {
	case '{':
		return w.object(i, t, path)
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		i = skipSpace(b, i+1)
		for n := 0; i < len(b) && b[i] != ']'; n++ {
			var err error
			if i, err = w.value(i, elem, path+"/"+itoa(n)); err != nil {
				return i, err
			}
			i = skipSpace(b, i)
			if i < len(b) && b[i] == ',' {
				i = skipSpace(b, i+1)
			}
		}
		return i + 1, nil
	case '"':
		_, end, err := w.str(i, path)
		return end, err
	default:
		return skipValue(b, i), nil
	}
}

func (w *strictWalker) object(i int, t reflect.Type, path string) (int, error) {
	b := w.b
	var fields map[string]reflect.Type
	var elem reflect.Type
	if t != nil {
		switch t.Kind() {
		case reflect.Struct:
			fields = structFields(t)
		case reflect.Map:
			elem = t.Elem()
		}
	}
	var small [8]string
	keys := small[:0]
	var seen map[string]bool
	i = skipSpace(b, i+1)
	for i < len(b) && b[i] == '"' {
		key, end, err := w.str(i, path+"/")
		if err != nil {
			return end, err
		}
		kpath := path + "/" + escapePointer(key)
		if seen != nil {
			if seen[key] {
				return end, duplicateKey(kpath)
			}
			seen[key] = true
		} else {
			for _, k := range keys {
				if k == key {
					return end, duplicateKey(kpath)
				}
			}
			if keys = append(keys, key); len(keys) == len(small) {
				seen = make(map[string]bool, 2*len(small))
				for _, k := range keys {
					seen[k] = true
				}
			}
		}
		vt := elem
		if fields != nil {
			ft, ok := fields[key]
			if !ok {
				return end, &edgeflow.Error{Code: edgeflow.EInvalid, Message: "unknown field " + kpath +
					" (field names are case-sensitive)",
					Details: []edgeflow.FieldError{{Path: kpath, Message: "unknown field (field names are case-sensitive)"}}}
			}
			vt = ft
		}
		i = skipSpace(b, end)
		i = skipSpace(b, i+1) // the colon
		if i, err = w.value(i, vt, kpath); err != nil {
			return i, err
		}
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		}
	}
	return i + 1, nil
}

// invalidUTF8 is the 400 for a body that is not valid UTF-8, with the path
// of the first bad string when the body is otherwise valid JSON.
func invalidUTF8(raw []byte) error {
	if json.Valid(raw) {
		if err := strictCheck(raw, nil); err != nil {
			return err
		}
	}
	return badText("/", "is not valid UTF-8")
}

func duplicateKey(path string) error {
	return &edgeflow.Error{Code: edgeflow.EBadRequest, Message: "duplicate key " + path,
		Details: []edgeflow.FieldError{{Path: path, Message: "duplicate key: each key may appear once in an object"}}}
}

func badText(path, msg string) error {
	if path == "" {
		path = "/"
	}
	return &edgeflow.Error{Code: edgeflow.EBadRequest, Message: "request body: " + path + " " + msg,
		Details: []edgeflow.FieldError{{Path: path, Message: msg}}}
}

// str checks the JSON string at b[i] and returns its value (unescaped when
// it holds escapes) and the offset after it. path names the string in
// errors (for a key, the path of its object plus "/").
func (w *strictWalker) str(i int, path string) (string, int, error) {
	b := w.b
	end := skipString(b, i)
	if end < 0 {
		return "", len(b), nil
	}
	raw := b[i+1 : end-1]
	escaped := false
	for _, c := range raw {
		if c == '\\' {
			escaped = true
			break
		}
	}
	ascii := true
	for _, c := range raw {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if !ascii && !utf8.Valid(raw) {
		return "", end, badText(path, "is not valid UTF-8")
	}
	if !escaped {
		return string(raw), end, nil
	}
	for j := 0; j+5 < len(raw); j++ {
		if raw[j] != '\\' {
			continue
		}
		if raw[j+1] != 'u' {
			j++
			continue
		}
		r, _ := ir.Hex4(raw, j+2)
		switch {
		case r >= 0xDC00 && r <= 0xDFFF:
			return "", end, badText(path, "holds an unpaired UTF-16 surrogate escape")
		case r >= 0xD800 && r <= 0xDBFF:
			if j+12 > len(raw) || raw[j+6] != '\\' || raw[j+7] != 'u' {
				return "", end, badText(path, "holds an unpaired UTF-16 surrogate escape")
			}
			if r2, _ := ir.Hex4(raw, j+8); r2 < 0xDC00 || r2 > 0xDFFF {
				return "", end, badText(path, "holds an unpaired UTF-16 surrogate escape")
			}
			j += 11
		default:
			j += 5
		}
	}
	var s string
	if err := json.Unmarshal(b[i:end], &s); err != nil {
		return "", end, nil
	}
	return s, end, nil
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
