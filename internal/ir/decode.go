package ir

import (
	"errors"
	"strconv"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// shapeReader records what the fast reader (streamReader) found about the
// shape that schema.json describes. The fast reader is the path for valid
// documents; when it finds a shape problem the embedded JSON Schema is
// evaluated (schemaProblems) so that the reported shape problems are the
// schema's own. typeErr records problems that leave the typed IR unusable
// for the semantic checks (a wrong type or a missing required key).
type shapeReader struct {
	bad     bool
	typeErr bool
	notes   schemaNotes
}

func (r *shapeReader) fail(typeErr bool) {
	r.bad = true
	r.notes.fails++
	if typeErr {
		r.typeErr = true
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

var (
	topKeys      = []string{"kind", "metadata", "nodes", "edges", "entryNodeId", "trigger", "outputNodeId", "notes"}
	topRequired  = []string{"metadata", "nodes", "edges", "entryNodeId"}
	metaKeys     = []string{"name", "description", "version", "createdAt", "updatedAt"}
	metaRequired = []string{"name"}
	nodeKeys     = []string{"id", "type", "name", "position", "version", "provider", "data", "config"}
	nodeRequired = []string{"id", "type", "name", "data"}
	posKeys      = []string{"x", "y"}
	noteKeys     = []string{"id", "text", "position", "width", "height"}
	noteRequired = []string{"id", "text"}
	configKeys   = []string{"retries", "timeout", "rollback", "sensitive"}
	retryKeys    = []string{"limit", "delay", "backoff", "maxDelay"}
	rollbackKeys = []string{"code", "retries", "timeout"}
	rollbackReq  = []string{"code"}
	retryReq     = []string{"limit", "delay"}
	edgeKeys     = []string{"id", "source", "target", "label"}
	edgeRequired = []string{"id", "source", "target"}
	triggerKeys  = []string{"type", "path", "method", "expression", "eventType"}
)

var englishPrinter = message.NewPrinter(language.English)

// schemaProblems evaluates the embedded JSON Schema on doc and returns its
// findings as problems with rule RuleSchema.
func schemaProblems(doc any) []Problem {
	s, err := compiledSchema()
	if err != nil {
		return []Problem{{Path: "", Message: err.Error(), Rule: RuleSchema}}
	}
	err = s.Validate(doc)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	var out []Problem
	var walk func(e *jsonschema.ValidationError, depth int)
	walk = func(e *jsonschema.ValidationError, depth int) {
		if len(e.Causes) > 0 && depth < 64 {
			for _, c := range e.Causes {
				walk(c, depth+1)
			}
			return
		}
		path := pointer(e.InstanceLocation)
		switch k := e.ErrorKind.(type) {
		case *kind.AdditionalProperties:
			for _, p := range k.Properties {
				out = append(out, Problem{Path: path + "/" + escapePointer(p), Message: "unknown key " + strconv.Quote(p), Rule: RuleSchema})
			}
		case *kind.Required:
			for _, p := range k.Missing {
				out = append(out, Problem{Path: path + "/" + escapePointer(p), Message: "required key " + strconv.Quote(p) + " is missing", Rule: RuleSchema})
			}
		case *kind.Group, *kind.AllOf, *kind.Reference, *kind.Schema:
			// containers of other errors without causes: nothing to say
		default:
			out = append(out, Problem{Path: path, Message: e.ErrorKind.LocalizedString(englishPrinter), Rule: RuleSchema})
		}
	}
	walk(ve, 0)
	for i := range out {
		out[i].NodeID = ""
	}
	return out
}

func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return ""
	}
	n := 0
	for _, t := range tokens {
		n += len(t) + 1
	}
	b := make([]byte, 0, n)
	for _, t := range tokens {
		b = append(b, '/')
		b = append(b, escapePointer(t)...)
	}
	return string(b)
}

func escapePointer(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' || s[i] == '/' {
			goto escape
		}
	}
	return s
escape:
	b := make([]byte, 0, len(s)+2)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}
