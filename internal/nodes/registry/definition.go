package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"github.com/edgeflow/edgeflow/internal/ir"
)

// Definition is a marketplace node definition: the content of a version's
// node.json. It is edgeflow's one node definition type, ir.NodeDefinition,
// which the builtin nodes use too (docs/registry.md, "node.json");
// ParseDefinition and CheckDefinition add the rules a marketplace node must
// follow on top of the shape.
type (
	Definition  = ir.NodeDefinition
	ConfigField = ir.ConfigField
	OutputField = ir.OutputField
	Validation  = ir.Validation
)

var (
	fieldTypes   = []string{ir.FieldString, ir.FieldNumber, ir.FieldBoolean, ir.FieldSelect, ir.FieldMultiselect, ir.FieldSecret, ir.FieldCode, ir.FieldJSON, ir.FieldExpression, ir.FieldTextarea}
	outputTypes  = []string{"string", "number", "boolean", "object", "array", "null", "any"}
	formats      = []string{"email", "url", "uuid", "date", "date-time", "duration"}
	stringTyped  = []string{ir.FieldString, ir.FieldSecret, ir.FieldCode, ir.FieldJSON, ir.FieldExpression, ir.FieldTextarea, ir.FieldSelect}
	builtinTypes = []string{"step", "sleep", "sleep_until", "branch", "parallel", "race", "http_request", "wait_for_event", "try_catch", "loop", "break", "sub_workflow", "agent"}

	// Categories are the categories a node may declare.
	Categories = []string{"AI", "Messaging", "Email", "Developer Tools", "Project Management", "Productivity", "Database", "Storage", "Payments", "CRM", "Data", "HTTP", "Utilities"}

	idPattern        = regexp.MustCompile(`^[a-z][a-z0-9-]{0,63}$`)
	fieldNamePattern = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`)
	envNamePattern   = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	tagPattern       = regexp.MustCompile(`^[a-z0-9][a-z0-9:._-]{0,39}$`)
)

// ParseDefinition decodes a node.json document strictly (unknown keys and
// trailing data are errors) and checks it with Check. The error lists every
// problem found.
func ParseDefinition(data []byte) (Definition, error) {
	var d Definition
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return Definition{}, fmt.Errorf("node.json: %w", err)
	}
	if dec.More() {
		return Definition{}, fmt.Errorf("node.json: trailing data after the JSON object")
	}
	if err := CheckDefinition(&d); err != nil {
		return Definition{}, err
	}
	return d, nil
}

// CheckDefinition validates a marketplace definition against the rules of
// docs/registry.md and returns one error listing every problem, or nil.
func CheckDefinition(d *Definition) error {
	var errs []string
	add := func(path, format string, args ...any) {
		errs = append(errs, path+": "+fmt.Sprintf(format, args...))
	}
	if !idPattern.MatchString(d.ID) {
		add("id", "%q must be lowercase letters, digits and '-', starting with a letter, at most 64 characters", d.ID)
	}
	if contains(builtinTypes, d.ID) {
		add("id", "%q is a builtin node type", d.ID)
	}
	if d.Builtin {
		add("builtin", "only edgeflow's own node types are builtin; a marketplace node leaves it out or sets false")
	}
	checkText(add, "name", d.Name, 100)
	checkText(add, "description", d.Description, 300)
	if !contains(Categories, d.Category) {
		add("category", "%q is not one of %s", d.Category, strings.Join(Categories, ", "))
	}
	seenTags := map[string]bool{}
	for i, t := range d.Tags {
		if !tagPattern.MatchString(t) {
			add(fmt.Sprintf("tags[%d]", i), "%q must be lowercase letters, digits and ':._-', at most 40 characters", t)
		}
		if seenTags[t] {
			add(fmt.Sprintf("tags[%d]", i), "duplicate tag %q", t)
		}
		seenTags[t] = true
	}
	checkText(add, "author", d.Author, 100)
	checkText(add, "license", d.License, 100)
	if _, err := ParseVersion(d.Version); err != nil {
		add("version", "%v", err)
	}
	checkChangelog(add, d.Changelog)
	if d.ConfigSchema == nil {
		add("configSchema", "required (use {} for a node without configuration)")
	}
	for _, name := range sortedKeys(d.ConfigSchema) {
		checkConfigField(add, "configSchema."+name, name, d.ConfigSchema[name])
	}
	if d.OutputSchema == nil {
		add("outputSchema", "required (use {} for a node without a value)")
	}
	for _, name := range sortedKeys(d.OutputSchema) {
		checkOutputField(add, "outputSchema."+name, d.OutputSchema[name], 0)
	}
	for _, name := range sortedKeys(d.Dependencies) {
		if err := CheckDependency(name, d.Dependencies[name]); err != nil {
			add("dependencies."+name, "%v", err)
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// Changelog limits: plain text of at most MaxChangelogLength characters on
// at most MaxChangelogLines lines.
const (
	MaxChangelogLength = 1000
	MaxChangelogLines  = 20
)

// checkChangelog checks a version's changelog: optional; plain text (no
// control characters but line feeds, no HTML tags, no Markdown headings,
// lists, links or emphasis markers at the start of a line), no blank first
// or last line, bounded in length and lines.
func checkChangelog(add func(string, string, ...any), s string) {
	if s == "" {
		return
	}
	if strings.TrimSpace(s) != s {
		add("changelog", "must not start or end with spaces or blank lines")
	}
	if n := len([]rune(s)); n > MaxChangelogLength {
		add("changelog", "longer than %d characters (%d)", MaxChangelogLength, n)
	}
	lines := strings.Split(s, "\n")
	if len(lines) > MaxChangelogLines {
		add("changelog", "more than %d lines (%d)", MaxChangelogLines, len(lines))
	}
	for i, line := range lines {
		for _, r := range line {
			if r == '\t' || unicode.IsControl(r) {
				add("changelog", "line %d holds a control character (%U); the changelog is plain text with line feeds only", i+1, r)
				break
			}
		}
		if m := changelogMarkup.FindString(line); m != "" {
			add("changelog", "line %d starts with %q: the changelog is plain text, without Markdown or HTML", i+1, strings.TrimSpace(m))
		}
	}
	if changelogTag.MatchString(s) {
		add("changelog", "holds an HTML tag or a Markdown link: the changelog is plain text")
	}
}

var (
	changelogMarkup = regexp.MustCompile(`^\s*(#{1,6}\s|[-*+]\s|>\s?|\d+[.)]\s|\x60{3}|\*\*|__)`)
	changelogTag    = regexp.MustCompile(`</?[A-Za-z][A-Za-z0-9-]*(\s[^<>]*)?/?>|\[[^\]]*\]\([^)]*\)`)
)

func checkText(add func(string, string, ...any), path, s string, max int) {
	switch {
	case strings.TrimSpace(s) == "":
		add(path, "required")
	case len([]rune(s)) > max:
		add(path, "longer than %d characters", max)
	}
}

func checkConfigField(add func(string, string, ...any), path, name string, f ConfigField) {
	if !fieldNamePattern.MatchString(name) {
		add(path, "field name must be a JavaScript identifier (letters, digits, '_'), at most 64 characters")
	}
	if !contains(fieldTypes, f.Type) {
		add(path+".type", "%q is not one of %s", f.Type, strings.Join(fieldTypes, ", "))
		return
	}
	checkText(add, path+".label", f.Label, 100)
	if f.Schema != nil {
		add(path+".schema", "is for the builtin nodes' structured fields only")
	}
	switch f.Type {
	case ir.FieldSelect, ir.FieldMultiselect:
		if len(f.Options) == 0 {
			add(path+".options", "required for a %s field", f.Type)
		}
		seen := map[string]bool{}
		for _, o := range f.Options {
			if seen[o] {
				add(path+".options", "duplicate option %q", o)
			}
			seen[o] = true
		}
	default:
		if len(f.Options) > 0 {
			add(path+".options", "only select and multiselect fields have options")
		}
	}
	if f.Type == ir.FieldSecret {
		if !envNamePattern.MatchString(f.EnvVarName) {
			add(path+".envVarName", "a secret field names the env var it is read from, matching ^[A-Z][A-Z0-9_]*$ (got %q)", f.EnvVarName)
		}
		if f.Default != nil {
			add(path+".default", "a secret field has no default")
		}
	} else if f.EnvVarName != "" {
		add(path+".envVarName", "only secret fields name an env var")
	}
	if f.Default != nil {
		checkDefault(add, path+".default", f)
	}
	if v := f.Validation; v != nil {
		if (v.Min != nil || v.Max != nil || v.Integer) && f.Type != ir.FieldNumber {
			add(path+".validation", "min, max and integer apply to number fields")
		}
		if v.Min != nil && v.Max != nil && *v.Min > *v.Max {
			add(path+".validation", "min is greater than max")
		}
		if (v.MinLength != nil || v.MaxLength != nil || v.Pattern != "" || v.Format != "") && !contains(stringTyped, f.Type) {
			add(path+".validation", "minLength, maxLength, pattern and format apply to text fields")
		}
		if v.MinLength != nil && *v.MinLength < 0 || v.MaxLength != nil && *v.MaxLength < 0 {
			add(path+".validation", "lengths must not be negative")
		}
		if v.MinLength != nil && v.MaxLength != nil && *v.MinLength > *v.MaxLength {
			add(path+".validation", "minLength is greater than maxLength")
		}
		if v.Pattern != "" {
			if _, err := regexp.Compile(v.Pattern); err != nil {
				add(path+".validation.pattern", "%v", err)
			}
		}
		if v.Format != "" && !contains(formats, v.Format) {
			add(path+".validation.format", "%q is not one of %s", v.Format, strings.Join(formats, ", "))
		}
	}
}

func checkDefault(add func(string, string, ...any), path string, f ConfigField) {
	switch f.Type {
	case ir.FieldNumber:
		if _, ok := f.Default.(float64); !ok {
			add(path, "must be a number")
		}
	case ir.FieldBoolean:
		if _, ok := f.Default.(bool); !ok {
			add(path, "must be a boolean")
		}
	case ir.FieldSelect:
		s, ok := f.Default.(string)
		if !ok || !contains(f.Options, s) {
			add(path, "must be one of the options")
		}
	case ir.FieldMultiselect:
		list, ok := f.Default.([]any)
		if !ok {
			add(path, "must be an array of options")
			return
		}
		for _, x := range list {
			if s, ok := x.(string); !ok || !contains(f.Options, s) {
				add(path, "%v is not one of the options", x)
			}
		}
	case ir.FieldJSON:
		// A JSON field holds JSON text, like http_request's headers.
		s, ok := f.Default.(string)
		if !ok || !json.Valid([]byte(s)) {
			add(path, "must be a string holding JSON")
		}
	default:
		if _, ok := f.Default.(string); !ok {
			add(path, "must be a string")
		}
	}
}

func checkOutputField(add func(string, string, ...any), path string, f OutputField, depth int) {
	if depth > 8 {
		add(path, "nested deeper than 8 levels")
		return
	}
	if !contains(outputTypes, f.Type) {
		add(path+".type", "%q is not one of %s", f.Type, strings.Join(outputTypes, ", "))
	}
	if f.Items != nil {
		if f.Type != "array" {
			add(path+".items", "only array fields have items")
		}
		checkOutputField(add, path+".items", *f.Items, depth+1)
	}
	if len(f.Properties) > 0 && f.Type != "object" {
		add(path+".properties", "only object fields have properties")
	}
	for _, name := range sortedKeys(f.Properties) {
		checkOutputField(add, path+".properties."+name, f.Properties[name], depth+1)
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

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
