package n8n

import (
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// n8n parameter values that are strings starting with "=" are expressions:
// text with {{ ... }} parts, each a JavaScript expression. A value that is
// one {{ ... }} and nothing else is that expression's value; any other is a
// string, each part's value written as text. Expressions may appear at any
// depth of a node's parameters.

// uses records what a node's expressions and code read, so that the step
// defines only what it needs.
type uses struct {
	item    bool            // $json, $itemIndex, $input.item, .item...: the code runs per item
	runtime bool            // $(), $node, $input, $items, $now...: the step needs the n8n runtime
	text    bool            // $text, which writes a value into a string as n8n's templates do
	nodes   map[string]bool // names of nodes read through $(), $node, $items
	envs    map[string]bool // names read as $env.NAME
	approx  []string        // what only approximates n8n
}

func (u *uses) node(name string) {
	if u.nodes == nil {
		u.nodes = map[string]bool{}
	}
	u.nodes[name] = true
}

func (u *uses) approximate(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	for _, a := range u.approx {
		if a == s {
			return
		}
	}
	u.approx = append(u.approx, s)
}

// translator turns n8n parameter values and code into JavaScript. script
// says that the IR is a function, where {{event.instanceId}} is not
// available.
type translator struct {
	u      *uses
	script bool
}

// isExpression reports whether v is an n8n expression string.
func isExpression(v any) bool {
	s, ok := v.(string)
	return ok && strings.HasPrefix(s, "=")
}

// param is the JavaScript expression of a parameter value: literals as
// literals, expressions as code, objects and lists with their members
// translated.
func (t *translator) param(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		return jsNumber(x)
	case string:
		if strings.HasPrefix(x, "=") {
			return t.template(x[1:])
		}
		return jsString(x)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = t.param(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = jsKey(k) + ": " + t.param(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return "null"
}

func jsNumber(f float64) string {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return "null"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// segment is a part of an expression template: text, or code.
type segment struct {
	code bool
	text string
}

// splitTemplate splits the text of an expression (without its "=") into
// text and {{ ... }} code parts. A "}}" inside a string or inside braces of
// the code does not end it.
func splitTemplate(s string) []segment {
	var out []segment
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			if s != "" {
				out = append(out, segment{text: s})
			}
			return out
		}
		end := codeEnd(s[i+2:])
		if end < 0 {
			out = append(out, segment{text: s})
			return out
		}
		if i > 0 {
			out = append(out, segment{text: s[:i]})
		}
		out = append(out, segment{code: true, text: s[i+2 : i+2+end]})
		s = s[i+2+end+2:]
	}
}

// codeEnd finds the "}}" that closes the code starting at s[0], or -1.
func codeEnd(s string) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			}
			continue
		}
		switch c {
		case '"', '\'', '`':
			quote = c
		case '{':
			depth++
		case '}':
			if depth == 0 && i+1 < len(s) && s[i+1] == '}' {
				return i
			}
			if depth > 0 {
				depth--
			}
		}
	}
	return -1
}

// template is the JavaScript of an expression template.
func (t *translator) template(s string) string {
	segs := splitTemplate(s)
	if len(segs) == 1 && segs[0].code {
		code := strings.TrimSpace(segs[0].text)
		if code == "" {
			return "undefined"
		}
		return "(" + t.code(code) + ")"
	}
	if len(segs) == 0 {
		return `""`
	}
	parts := make([]string, 0, len(segs))
	for _, sg := range segs {
		if sg.code {
			code := strings.TrimSpace(sg.text)
			if code == "" {
				continue
			}
			parts = append(parts, "$text("+t.code(code)+")")
			t.u.text = true
			continue
		}
		parts = append(parts, jsString(sg.text))
	}
	if len(parts) == 0 {
		return `""`
	}
	if len(parts) == 1 && !strings.HasPrefix(parts[0], "$text(") {
		return parts[0]
	}
	if strings.HasPrefix(parts[0], "$text(") {
		parts = append([]string{`""`}, parts...)
	}
	return strings.Join(parts, " + ")
}

var (
	reEnvDot      = regexp.MustCompile(`\$env\.([A-Za-z_][A-Za-z0-9_]*)`)
	reEnvIndex    = regexp.MustCompile(`\$env\[\s*["']([^"'\\]+)["']\s*\]`)
	reNodeCall    = regexp.MustCompile(`\$\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|` + "`" + `([^` + "`" + `$\\]*)` + "`" + `)\s*\)`)
	reNodeIndex   = regexp.MustCompile(`\$node\[\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\]`)
	reNodeDot     = regexp.MustCompile(`\$node\.([A-Za-z_][A-Za-z0-9_]*)`)
	reItems       = regexp.MustCompile(`\$items\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')`)
	reExecution   = regexp.MustCompile(`\$execution\.id\b`)
	reItemScoped  = regexp.MustCompile(`\$json\b|\$itemIndex\b|\$data\b|\.item\b|\$node\b|\$binary\b|\$item\(|\$parameter\b`)
	reRuntime     = regexp.MustCompile(`\$\(|\$node\b|\$input\b|\$items\b|\$now\b|\$today\b|\$workflow\b|\$execution\b|\$prevNode\b|\$runIndex\b|\$position\b|\$item\(|\$parameter\b|\$vars\b|\$jmespath\b|\$getWorkflowStaticData\b|\$evaluateExpression\b|\$ifEmpty\b|\$max\b|\$min\b|\$fromAI\b|\bDateTime\b|\$binary\b`)
	reUnsupported = regexp.MustCompile(`\$(jmespath|getWorkflowStaticData|evaluateExpression|fromAI|binary|vars|parameter)\b`)
	reLuxon       = regexp.MustCompile(`\$(now|today)\b|\bDateTime\.`)
	reExtension   = regexp.MustCompile(`\.(isEmpty|isNotEmpty|toNumber|toBoolean|toDateTime|toDate|extractEmail|extractDomain|extractUrl|extractUrlPath|isEmail|isUrl|isDomain|hash|removeTags|removeMarkdown|toSnakeCase|toTitleCase|toSentenceCase|urlEncode|urlDecode|base64Encode|base64Decode|quote|sum|average|pluck|unique|compact|chunk|difference|intersection|union|removeDuplicates|randomItem|isEven|isOdd|toFormat|plus|minus|diffTo|diff|hasField|removeField|removeFieldsContaining|keepFieldsContaining|isBlank|isNumeric|toFloat|toInt|parseJson|smartJoin|renameKeys|toJsonString|toWholeNumber|format|beginningOf|endOfMonth|isBetween|isInLast|extract|toMillis)\(`)
)

// code translates one n8n JavaScript expression (or a Code node's source).
func (t *translator) code(src string) string {
	u := t.u
	for _, m := range reNodeCall.FindAllStringSubmatch(src, -1) {
		u.node(unquote(m[1] + m[2] + m[3]))
	}
	for _, m := range reNodeIndex.FindAllStringSubmatch(src, -1) {
		u.node(unquote(m[1] + m[2]))
	}
	for _, m := range reNodeDot.FindAllStringSubmatch(src, -1) {
		u.node(m[1])
	}
	for _, m := range reItems.FindAllStringSubmatch(src, -1) {
		u.node(unquote(m[1] + m[2]))
	}
	if reItemScoped.MatchString(src) {
		u.item = true
	}
	if reRuntime.MatchString(src) {
		u.runtime = true
	}
	for _, m := range reUnsupported.FindAllStringSubmatch(src, -1) {
		u.approximate("$%s is not available: code that reads it throws", m[1])
	}
	if reLuxon.MatchString(src) {
		u.approximate("$now and $today are JavaScript Dates in UTC (n8n: Luxon DateTimes in the workflow's time zone); Luxon's methods are not available")
	}
	if m := reExtension.FindStringSubmatch(src); m != nil {
		u.approximate("n8n's data transformation functions (such as .%s()) are not available: an expression using one throws", m[1])
	}
	out := reEnvDot.ReplaceAllStringFunc(src, func(s string) string { return t.env(reEnvDot.FindStringSubmatch(s)[1]) })
	out = reEnvIndex.ReplaceAllStringFunc(out, func(s string) string { return t.env(reEnvIndex.FindStringSubmatch(s)[1]) })
	if strings.Contains(out, "$env") {
		u.approximate("$env read as a whole is the worker's environment (env)")
		out = strings.ReplaceAll(out, "$env", "env")
	}
	out = reExecution.ReplaceAllStringFunc(out, func(string) string {
		if t.script {
			u.approximate("$execution.id in a function is a random id per call (a function has no instance)")
			return "crypto.randomUUID()"
		}
		return "{{event.instanceId}}"
	})
	return escapeBracesKeeping(out)
}

// env is the code of $env.NAME: an IR expression when NAME is an env var
// name edgeflow accepts, else a read of env.
func (t *translator) env(name string) string {
	if t.u.envs == nil {
		t.u.envs = map[string]bool{}
	}
	if envName.MatchString(name) {
		t.u.envs[name] = true
		return "{{env." + name + "}}"
	}
	t.u.approximate("$env.%s: edgeflow variable names are upper case (^[A-Z][A-Z0-9_]*$); the code reads env[%q], which no variable can set", name, name)
	return "env[" + jsString(name) + "]"
}

var envName = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)

// escapeBracesKeeping escapes the braces of code except the IR expressions
// this package wrote ({{env.X}}, {{event.instanceId}}).
func escapeBracesKeeping(code string) string {
	const mark = "\x00"
	var keep []string
	code = reIRRef.ReplaceAllStringFunc(code, func(s string) string {
		keep = append(keep, s)
		return mark + strconv.Itoa(len(keep)-1) + mark
	})
	code = escapeBraces(code)
	for i, k := range keep {
		code = strings.Replace(code, mark+strconv.Itoa(i)+mark, k, 1)
	}
	return code
}

var reIRRef = regexp.MustCompile(`\{\{(env\.[A-Z][A-Z0-9_]*|event\.instanceId)\}\}`)

// unquote undoes the backslash escapes of a quoted node name.
func unquote(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
