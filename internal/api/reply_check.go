package api

import (
	"bytes"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// CheckReply checks an answer of the route against the response schema the
// OpenAPI document declares for it, with a JSON Schema validator: a JSON
// answer against the JSON schema, each event of an event stream against the
// events' schema. Answers of other media (metrics, an R2 object's bytes)
// are not checked. With partial, fields the schemas require may be missing
// (a shortened example). The route examples' tests call it on every
// example and on every real answer to one, so that the declared types
// cannot drift from what the handlers write.
func (rt Route) CheckReply(body []byte, partial bool) error {
	docs, err := replyDocuments()
	if err != nil {
		return err
	}
	doc := docs.full
	if partial {
		doc = docs.partial
	}
	trimmed := bytes.TrimSpace(body)
	if bytes.HasPrefix(trimmed, []byte("event: ")) || bytes.HasPrefix(trimmed, []byte(": ")) {
		if rt.Events == nil {
			return fmt.Errorf("%s declares no events, and answered an event stream", rt.key())
		}
		sch, err := doc.compile(rt, eventStream)
		if err != nil {
			return err
		}
		for _, e := range parseEvents(string(body)) {
			v := map[string]any{"event": e.name}
			if e.id != "" {
				v["id"] = e.id
			}
			data, err := jsonschema.UnmarshalJSON(strings.NewReader(e.data))
			if err != nil {
				return fmt.Errorf("the event %s (id %s): %v", e.name, e.id, err)
			}
			v["data"] = data
			if err := sch.Validate(v); err != nil {
				return fmt.Errorf("the event %s (id %s) does not fit the events of %s: %v\n%s", e.name, e.id, rt.key(), err, e.data)
			}
		}
		return nil
	}
	if _, isMedia := rt.Reply.(Media); isMedia || rt.Reply == nil {
		if rt.Reply == nil && len(trimmed) > 0 {
			return fmt.Errorf("%s declares no answer body, and answered %s", rt.key(), body)
		}
		return nil
	}
	sch, err := doc.compile(rt, "application/json")
	if err != nil {
		return err
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("the answer of %s is not JSON: %v", rt.key(), err)
	}
	if err := sch.Validate(v); err != nil {
		return fmt.Errorf("the answer does not fit the response schema of %s: %v\n%s", rt.key(), err, body)
	}
	return nil
}

// replyDocs are the OpenAPI document of the route table, whole and with no
// field required (for Partial examples), each with its compiled schemas.
type replyDocs struct{ full, partial *replyDoc }

var replyDocuments = sync.OnceValues(func() (replyDocs, error) {
	b, err := OpenAPI()
	if err != nil {
		return replyDocs{}, err
	}
	full, err := newReplyDoc(b, false)
	if err != nil {
		return replyDocs{}, err
	}
	partial, err := newReplyDoc(b, true)
	return replyDocs{full, partial}, err
})

// replyDoc compiles the response schemas of one document as they are asked
// for.
type replyDoc struct {
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	schemas  map[string]*jsonschema.Schema
}

const replyDocURL = "https://edgeflow.invalid/api/openapi.json"

func newReplyDoc(openapi []byte, partial bool) (*replyDoc, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(openapi))
	if err != nil {
		return nil, err
	}
	if partial {
		doc = withoutRequired(doc)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(replyDocURL, doc); err != nil {
		return nil, err
	}
	return &replyDoc{compiler: c, schemas: map[string]*jsonschema.Schema{}}, nil
}

// compile is the schema of the route's success answer in media.
func (d *replyDoc) compile(rt Route, media string) (*jsonschema.Schema, error) {
	segments := []string{"paths", pathParam.ReplaceAllString(rt.Pattern, "{$1}"), strings.ToLower(rt.Method), "responses",
		strconv.Itoa(rt.Status), "content", media, "schema"}
	escape := strings.NewReplacer("~", "~0", "/", "~1")
	for i, seg := range segments {
		segments[i] = escape.Replace(seg)
	}
	loc := replyDocURL + "#" + (&url.URL{Fragment: "/" + strings.Join(segments, "/")}).EscapedFragment()
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.schemas[loc]; ok {
		return s, nil
	}
	s, err := d.compiler.Compile(loc)
	if err != nil {
		return nil, fmt.Errorf("the %s response schema of %s: %w", media, rt.key(), err)
	}
	d.schemas[loc] = s
	return s, nil
}

// withoutRequired is the document with no schema requiring a property.
func withoutRequired(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			if _, isList := v.([]any); k == "required" && isList {
				continue
			}
			out[k] = withoutRequired(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = withoutRequired(v)
		}
		return out
	}
	return v
}
