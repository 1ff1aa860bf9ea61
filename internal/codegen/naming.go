package codegen

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
)

// maxScriptName is Cloudflare's limit on Worker script names; Workflow names
// allow 64, so the shorter limit serves both.
const maxScriptName = 63

// ScriptName is the Worker script name of the workflow or function with the
// given id: "ef-" followed by the id in lower case with every character other
// than a letter or digit turned into "-" (wf_1a2b → ef-wf-1a2b). It depends on
// the id only, so renaming a workflow never changes where it is deployed. Ids
// that would exceed 63 characters are shortened with a hash suffix.
func ScriptName(id string) string {
	var b strings.Builder
	b.WriteString("ef-")
	for _, r := range strings.ToLower(id) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	s := b.String()
	if len(s) > maxScriptName {
		sum := sha256.Sum256([]byte(id))
		h := hex.EncodeToString(sum[:])[:10]
		s = s[:maxScriptName-11] + "-" + h
	}
	return s
}

// WorkflowName is the Cloudflare Workflow name of the workflow with the given
// id. It equals ScriptName(id): one Workflow per script.
func WorkflowName(id string) string { return ScriptName(id) }

// ClassName is the name of the generated WorkflowEntrypoint class of the
// workflow with the given id: the id's letter-and-digit runs in PascalCase
// followed by "Workflow" (wf_1a2b → Wf1a2bWorkflow). It is always a valid
// JavaScript identifier.
func ClassName(id string) string {
	var b strings.Builder
	upper := true
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z':
			if upper {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			upper = false
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			upper = false
		default:
			upper = true
		}
	}
	s := b.String()
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		s = "W" + s
	}
	return s + "Workflow"
}

// reservedWords are JavaScript and TypeScript words that cannot name a
// variable, plus the names the generated module itself declares or reads.
var reservedWords = func() map[string]bool {
	words := strings.Fields(`
		break case catch class const continue debugger default delete do else enum export extends
		false finally for function if import in instanceof new null return super switch this throw
		true try typeof var void while with yield let static implements interface package private
		protected public await async arguments eval undefined NaN Infinity globalThis
		any unknown never object string number boolean symbol bigint type declare namespace module
		as from of get set is keyof readonly infer satisfies abstract constructor require
		env event step request ctx self window console fetch Response Request Headers URL JSON Promise
		Object Array String Number Boolean Error Date Math Symbol Map Set RegExp
		Env Params Graph FunctionEvent WorkflowEntrypoint WorkflowStep WorkflowEvent ExportedHandler
		toText errorInfo httpResult startSubWorkflow runSubWorkflow runGraph readJSON BreakSignal
		sleepFor replaying restarted traceHeaders runTrace`)
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}()

// namer hands out unique JavaScript identifiers.
type namer struct {
	taken map[string]bool
	// next is, per base name that collided, the suffix to try first: every
	// smaller one is taken already, so that many ids on one base cost one
	// look each rather than one per earlier id.
	next map[string]int
}

func newNamer(size int) *namer {
	return &namer{taken: make(map[string]bool, size), next: map[string]int{}}
}

// reserve marks name as used without handing it out.
func (n *namer) reserve(name string) { n.taken[name] = true }

// ident returns a fresh identifier derived from s: characters other than
// letters, digits, "_" and "$" become "_", a leading digit gets "n_" in front,
// and a reserved or already used name gets a numeric suffix.
func (n *namer) ident(s string) string {
	base := s
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$') {
			base = identChars(s)
			break
		}
	}
	if base == "" || base[0] >= '0' && base[0] <= '9' {
		base = "n_" + base
	}
	name := base
	if reservedWords[name] || n.taken[name] {
		i := max(n.next[base], 2)
		for name = base + "_" + strconv.Itoa(i); reservedWords[name] || n.taken[name]; name = base + "_" + strconv.Itoa(i) {
			i++
		}
		n.next[base] = i + 1
	}
	n.taken[name] = true
	return name
}

// identChars replaces the characters of s that cannot be in an identifier
// with "_".
func identChars(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '$' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// camel turns a node type and version into a template function name:
// "slack-message", "2.0.0" → "slackMessage_2_0_0".
func camel(typ, version string) string {
	var b strings.Builder
	upper := false
	for _, r := range typ {
		switch {
		case r >= 'a' && r <= 'z':
			if upper {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			upper = false
		case r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			b.WriteRune(r)
			upper = false
		default:
			upper = b.Len() > 0
		}
	}
	b.WriteByte('_')
	for _, r := range version {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}
