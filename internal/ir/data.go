package ir

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// FieldBranches is the type of the branch node's "branches" field: a list
// of {label, condition} objects (a builtin-only field type).
const FieldBranches = "branches"

var (
	uuidPattern  = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	emailPattern = regexp.MustCompile(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
	patternCache sync.Map // pattern string -> *regexp.Regexp (nil when invalid)
)

func cachedPattern(p string) *regexp.Regexp {
	if re, ok := patternCache.Load(p); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(p)
	if err != nil {
		re = nil
	}
	patternCache.Store(p, re)
	return re
}

// schemaField is one config field of a definition.
type schemaField struct {
	name  string
	field *ConfigField
}

// schemaFields returns the definition's config fields sorted by name; cached
// per definition for the duration of one validation.
func (v *validator) schemaFields(def *NodeDefinition) []schemaField {
	if v.fieldCache == nil {
		v.fieldCache = make(map[*NodeDefinition][]schemaField)
	}
	fields, ok := v.fieldCache[def]
	if !ok {
		names := sortedKeys(def.ConfigSchema)
		copies := make([]ConfigField, len(names))
		fields = make([]schemaField, len(names))
		for j, name := range names {
			copies[j] = def.ConfigSchema[name]
			fields[j] = schemaField{name: name, field: &copies[j]}
		}
		v.fieldCache[def] = fields
	}
	return fields
}

// data checks a node's data against its definition's config schema: keys
// the definition does not have first, then each field in name order.
func (v *validator) data(i int, n *Node, def *NodeDefinition) {
	mark, full := len(v.problems), v.full
	if v.dataFields(i, n, def) == len(n.Data) {
		return // every key of the data is a field of the definition
	}
	// Some key is not: report those keys first, then the fields again.
	v.problems, v.full = v.problems[:mark], full
	for _, k := range sortedKeys(n.Data) {
		if _, ok := def.ConfigSchema[k]; !ok {
			v.addf(nodePath(i, "data", k), n.ID, RuleNodeData, "%s nodes have no field %q", n.Type, k)
		}
	}
	v.dataFields(i, n, def)
}

// dataFields checks each field of the definition and returns how many of
// them the data has.
func (v *validator) dataFields(i int, n *Node, def *NodeDefinition) (present int) {
	for _, sf := range v.schemaFields(def) {
		name, f := sf.name, sf.field
		val, ok := n.Data[name]
		if ok {
			present++
		}
		path := func() string { return nodePath(i, "data", name) }
		if f.Type == FieldSecret {
			if ok {
				v.addf(path(), n.ID, RuleNodeData, "%s is a secret read from the env var %s at run time; it must not be stored in the IR", name, f.EnvVarName)
			}
			continue
		}
		if !ok || val == nil {
			if f.Required && f.Default == nil {
				v.addf(path(), n.ID, RuleNodeData, "%s is required", name)
			}
			continue
		}
		v.field(path, n, name, f, val)
	}
	return present
}

func (v *validator) field(path func() string, n *Node, name string, f *ConfigField, val any) {
	switch f.Type {
	case FieldNumber:
		x, ok := val.(float64)
		if !ok {
			v.addf(path(), n.ID, RuleNodeData, "%s must be a number", name)
			return
		}
		if vd := f.Validation; vd != nil {
			if vd.Integer && x != math.Trunc(x) {
				v.addf(path(), n.ID, RuleNodeData, "%s must be a whole number", name)
			}
			if vd.Min != nil && x < *vd.Min {
				v.addf(path(), n.ID, RuleNodeData, "%s must be at least %v", name, *vd.Min)
			}
			if vd.Max != nil && x > *vd.Max {
				v.addf(path(), n.ID, RuleNodeData, "%s must be at most %v", name, *vd.Max)
			}
		}
	case FieldBoolean:
		if _, ok := val.(bool); !ok {
			v.addf(path(), n.ID, RuleNodeData, "%s must be true or false", name)
		}
	case FieldSelect:
		s, ok := val.(string)
		if !ok {
			v.addf(path(), n.ID, RuleNodeData, "%s must be a string, one of: %s", name, strings.Join(f.Options, ", "))
			return
		}
		if !slices.Contains(f.Options, s) {
			v.addf(path(), n.ID, RuleSelectOption, "%q is not an option of %s; options: %s", s, name, strings.Join(f.Options, ", "))
		}
	case FieldMultiselect:
		list, ok := val.([]any)
		if !ok {
			v.addf(path(), n.ID, RuleNodeData, "%s must be an array of options", name)
			return
		}
		for k, x := range list {
			s, ok := x.(string)
			if !ok || !slices.Contains(f.Options, s) {
				v.addf(fmt.Sprintf("%s/%d", path(), k), n.ID, RuleSelectOption, "%v is not an option of %s; options: %s", x, name, strings.Join(f.Options, ", "))
			}
		}
		if f.Required && len(list) == 0 {
			v.addf(path(), n.ID, RuleNodeData, "%s needs at least one option", name)
		}
	case FieldString, FieldCode, FieldExpression, FieldTextarea, FieldJSON:
		s, ok := val.(string)
		if x, isNum := val.(float64); isNum && f.Validation != nil && f.Validation.Format == FormatDuration {
			if _, err := DurationOf(x); err != nil {
				v.addf(path(), n.ID, RuleDuration, "%v", err)
			}
			return
		}
		if !ok {
			what := "a string"
			if f.Type == FieldJSON {
				what = "a string holding JSON"
			}
			v.addf(path(), n.ID, RuleNodeData, "%s must be %s", name, what)
			return
		}
		if f.Required && strings.TrimSpace(s) == "" {
			v.addf(path(), n.ID, RuleNodeData, "%s is required and must not be empty", name)
			return
		}
		if f.Type == FieldJSON && s != "" {
			if _, err := validJSONWithExpressions(s); err != nil {
				v.addf(path(), n.ID, RuleNodeData, "%s must hold valid JSON (expressions count as values): %v", name, err)
			}
		}
		if vd := f.Validation; vd != nil {
			v.stringRules(path, n, name, s, vd)
		}
	case FieldSecretRef:
		if s, ok := val.(string); !ok || !secretRefPattern.MatchString(s) {
			v.addf(path(), n.ID, RuleNodeData, "%s must be a reference to a secret, {{env.NAME}}: a literal value would be stored in the IR and in the generated code", name)
		}
	case FieldJSONSchema:
		v.jsonSchema(path(), n.ID, name, val)
	case FieldToolNames:
		list, ok := val.([]any)
		if !ok {
			v.addf(path(), n.ID, RuleNodeData, "%s must be an array of tool names", name)
			return
		}
		for k, x := range list {
			if _, ok := x.(string); !ok {
				v.addf(fmt.Sprintf("%s/%d", path(), k), n.ID, RuleNodeData, "%s holds tool names (strings)", name)
			}
		}
	default:
		// Builtin-only field types (branches, agentTools) are checked by
		// builtinData.
	}
}

func (v *validator) stringRules(path func() string, n *Node, name, s string, vd *Validation) {
	l := utf8.RuneCountInString(s)
	if vd.MinLength != nil && l < *vd.MinLength {
		v.addf(path(), n.ID, RuleNodeData, "%s must have at least %d characters", name, *vd.MinLength)
	}
	if vd.MaxLength != nil && l > *vd.MaxLength {
		v.addf(path(), n.ID, RuleNodeData, "%s must have at most %d characters", name, *vd.MaxLength)
	}
	if hasExpr(s) {
		if vd.Format == FormatURL && !strings.HasPrefix(s, "{{") && !hasHTTPScheme(s) {
			v.addf(path(), n.ID, RuleNodeData, "%s must be an http or https URL", name)
		}
		return // the rest is known only at run time
	}
	if vd.Pattern != "" {
		if re := cachedPattern(vd.Pattern); re != nil && !re.MatchString(s) {
			v.addf(path(), n.ID, RuleNodeData, "%s %q does not match %s", name, s, vd.Pattern)
		}
	}
	switch vd.Format {
	case FormatURL:
		u, err := url.Parse(s)
		if err != nil || !hasHTTPScheme(s) || u.Host == "" {
			v.addf(path(), n.ID, RuleNodeData, "%s %q is not an http or https URL", name, s)
		}
	case FormatEmail:
		if !emailPattern.MatchString(s) {
			v.addf(path(), n.ID, RuleNodeData, "%s %q is not an email address", name, s)
		}
	case FormatUUID:
		if !uuidPattern.MatchString(s) {
			v.addf(path(), n.ID, RuleNodeData, "%s %q is not a UUID", name, s)
		}
	case FormatDate:
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			v.addf(path(), n.ID, RuleNodeData, "%s %q is not a date such as 2026-01-31", name, s)
		}
	case FormatDateTime:
		if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			v.addf(path(), n.ID, RuleNodeData, "%s %q is not an ISO 8601 date-time such as 2026-01-31T12:00:00Z", name, s)
		}
	case FormatDuration:
		if _, err := ParseDuration(s); err != nil {
			v.addf(path(), n.ID, RuleDuration, "%v", err)
		}
	}
}

func hasHTTPScheme(s string) bool {
	l := strings.ToLower(s)
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// builtinData applies the rules of builtin node types that a config schema
// cannot express.
func (v *validator) builtinData(i int, n *Node) {
	str := func(key string) (string, bool) {
		s, ok := n.Data[key].(string)
		return s, ok
	}
	switch n.Type {
	case TypeSleep:
		v.durationLimit(i, "duration", n.ID, n.Data["duration"])
	case TypeWaitForEvent:
		if s, ok := str("eventType"); ok && !hasExpr(s) && !eventTypePattern.MatchString(s) {
			v.addf(nodePath(i, "data", "eventType"), n.ID, RuleEventType, "event type %q must be 1 to 100 letters, digits, _ or -", s)
		} else if ok && ReservedEventType(s) {
			v.addf(nodePath(i, "data", "eventType"), n.ID, RuleEventType, reservedEventTypeMessage, s)
		}
		v.durationLimit(i, "timeout", n.ID, n.Data["timeout"])
	case TypeHTTPRequest:
		if s, ok := str("headers"); ok && strings.TrimSpace(s) != "" {
			if isObj, err := validJSONWithExpressions(s); err == nil && !isObj {
				v.addf(nodePath(i, "data", "headers"), n.ID, RuleNodeData, "headers must hold a JSON object of header names to values")
			}
		}
	case TypeBranch:
		v.branches(i, n)
	case TypeAgent:
		v.agent(i, n)
	case TypeLoop:
		lt, _ := str("loopType")
		need := map[string]string{"forEach": "collection", "while": "condition", "times": "count"}[lt]
		if need != "" {
			if x, ok := n.Data[need]; !ok || x == nil || x == "" {
				v.addf(nodePath(i, "data", need), n.ID, RuleContainer, "a %s loop needs %s", lt, need)
			}
		}
	}
}

// durationLimit checks that a sleep or wait duration parses (reported by the
// format check otherwise) and stays within 365 days.
func (v *validator) durationLimit(i int, field, nodeID string, val any) {
	var d time.Duration
	var err error
	switch x := val.(type) {
	case string:
		if hasExpr(x) {
			return
		}
		d, err = ParseDuration(x)
	case float64:
		d, err = DurationOf(x)
	default:
		return
	}
	if err == nil && d > MaxSleep {
		v.addf(nodePath(i, "data", field), nodeID, RuleLimits, "%v is longer than the limit of 365 days", val)
	}
}

// branchArms returns the labels of a branch node's arms, or nil when the
// branches field is malformed.
func branchArms(n *Node) []string {
	list, ok := n.Data["branches"].([]any)
	if !ok {
		return nil
	}
	labels := make([]string, 0, len(list))
	for _, b := range list {
		m, ok := b.(map[string]any)
		if !ok {
			continue
		}
		if l, ok := m["label"].(string); ok && l != "" {
			labels = append(labels, l)
		}
	}
	return labels
}

func (v *validator) branches(i int, n *Node) {
	raw, present := n.Data["branches"]
	if !present {
		return // reported as a missing required field
	}
	list, ok := raw.([]any)
	if !ok {
		v.addf(nodePath(i, "data", "branches"), n.ID, RuleNodeData, "branches must be an array of {\"label\", \"condition\"}")
		return
	}
	if len(list) == 0 {
		v.addf(nodePath(i, "data", "branches"), n.ID, RuleContainer, "a branch needs at least one arm")
	}
	seen := make(map[string]int, len(list))
	elseAt := -1
	for k, b := range list {
		p := func(field string) string {
			s := nodePath(i, "data", "branches") + "/" + fmt.Sprint(k)
			if field != "" {
				s += "/" + field
			}
			return s
		}
		m, ok := b.(map[string]any)
		if !ok {
			v.addf(p(""), n.ID, RuleNodeData, "an arm is an object {\"label\", \"condition\"}")
			continue
		}
		for key := range m {
			if key != "label" && key != "condition" {
				v.addf(p(key), n.ID, RuleNodeData, "an arm has only label and condition, not %q", key)
			}
		}
		label, ok := m["label"].(string)
		switch {
		case !ok:
			v.addf(p("label"), n.ID, RuleNodeData, "label must be a string")
		case strings.TrimSpace(label) == "":
			v.addf(p("label"), n.ID, RuleContainer, "an arm's label must not be empty")
		case label == LabelThen:
			v.addf(p("label"), n.ID, RuleContainer, "%q is reserved for the edge after the branch", LabelThen)
		default:
			if j, dup := seen[label]; dup {
				v.addf(p("label"), n.ID, RuleContainer, "label %q is already used by arm %d", label, j)
			} else {
				seen[label] = k
			}
		}
		cond, present := m["condition"]
		c, ok := cond.(string)
		if present && !ok {
			v.addf(p("condition"), n.ID, RuleNodeData, "condition must be a string of JavaScript")
			continue
		}
		if strings.TrimSpace(c) == "" {
			if elseAt >= 0 {
				v.addf(p("condition"), n.ID, RuleContainer, "arm %d is already the else arm (empty condition); a branch has at most one", elseAt)
			} else {
				elseAt = k
			}
		}
	}
	if elseAt >= 0 && elseAt != len(list)-1 {
		v.addf(nodePath(i, "data", "branches")+"/"+fmt.Sprint(elseAt)+"/condition", n.ID, RuleContainer, "the else arm (empty condition) must be the last arm")
	}
}
