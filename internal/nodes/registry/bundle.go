package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// Bundle is one version of a node as edgeflow installs it: the definition,
// the node.json text the checksum covers, the template source and the
// checksum. Install snapshots a Bundle into the database (MarshalJSON) and
// reads it back with DecodeBundle, which verifies the checksum again.
type Bundle struct {
	// Definition is the parsed and checked node.json.
	Definition Definition
	// NodeJSON is node.json as published (compacted when decoded from a
	// snapshot). Serve this rather than re-encoding Definition to keep the
	// author's order of config fields.
	NodeJSON json.RawMessage
	// Template is the source of template.ts.
	Template string
	// Checksum is Checksum(NodeJSON, Template).
	Checksum string
}

// NewBundle parses and checks node.json and the template (format rules of
// docs/registry.md) and computes the checksum. Errors wrap ErrInvalidNode.
func NewBundle(nodeJSON []byte, template string) (Bundle, error) {
	def, err := ParseDefinition(nodeJSON)
	if err != nil {
		return Bundle{}, fmt.Errorf("%w: %v", ErrInvalidNode, err)
	}
	if err := CheckTemplate(template, def.Dependencies); err != nil {
		return Bundle{}, fmt.Errorf("%w: %v", ErrInvalidNode, err)
	}
	sum, err := Checksum(nodeJSON, template)
	if err != nil {
		return Bundle{}, fmt.Errorf("%w: %v", ErrInvalidNode, err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, nodeJSON); err != nil {
		return Bundle{}, fmt.Errorf("%w: node.json: %v", ErrInvalidNode, err)
	}
	return Bundle{Definition: def, NodeJSON: compact.Bytes(), Template: template, Checksum: sum}, nil
}

// VerifyBundle is NewBundle that also requires the computed checksum to
// equal want; a difference is ErrChecksumMismatch.
func VerifyBundle(nodeJSON []byte, template, want string) (Bundle, error) {
	b, err := NewBundle(nodeJSON, template)
	if err != nil {
		return Bundle{}, err
	}
	if b.Checksum != want {
		return Bundle{}, fmt.Errorf("%w: %s %s: expected %s, the files hash to %s", ErrChecksumMismatch, b.Definition.ID, b.Definition.Version, want, b.Checksum)
	}
	return b, nil
}

type bundleJSON struct {
	Definition json.RawMessage `json:"definition"`
	Template   string          `json:"template"`
	Checksum   string          `json:"checksum"`
}

// MarshalJSON encodes the bundle as {"definition", "template", "checksum"},
// the snapshot format stored at install time.
func (b Bundle) MarshalJSON() ([]byte, error) {
	return json.Marshal(bundleJSON{Definition: b.NodeJSON, Template: b.Template, Checksum: b.Checksum})
}

// DecodeBundle reads a snapshot written by MarshalJSON and verifies it: the
// definition must pass the format rules and hash with the template to the
// stored checksum (ErrChecksumMismatch otherwise), whatever key order or
// whitespace the storage gave the definition.
func DecodeBundle(data []byte) (Bundle, error) {
	var raw bundleJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Bundle{}, fmt.Errorf("%w: bundle: %v", ErrInvalidNode, err)
	}
	if len(raw.Definition) == 0 {
		return Bundle{}, fmt.Errorf("%w: bundle has no definition", ErrInvalidNode)
	}
	return VerifyBundle(raw.Definition, raw.Template, raw.Checksum)
}

var (
	importFrom    = regexp.MustCompile(`(?m)^\s*(?:import|export)\b[^'";]*?\bfrom\s*["']([^"']+)["']`)
	importBare    = regexp.MustCompile(`(?m)^\s*import\s*["']([^"']+)["']`)
	importDynamic = regexp.MustCompile(`\bimport\s*\(\s*["']([^"']+)["']\s*\)`)
	requireCall   = regexp.MustCompile(`\brequire\s*\(\s*["']([^"']+)["']\s*\)`)
	defaultExport = regexp.MustCompile(`(?m)^export\s+default\s+async\s+function\b`)
)

// CheckTemplate checks the template contract that can be seen in the
// source: an `export default async function`, and imports of declared npm
// dependencies (or `cloudflare:` runtime modules) only — no relative,
// `node:` or undeclared imports, no require.
func CheckTemplate(src string, deps map[string]string) error {
	var errs []string
	if strings.TrimSpace(src) == "" {
		return fmt.Errorf("template.ts is empty")
	}
	if !defaultExport.MatchString(src) {
		errs = append(errs, "template.ts must have `export default async function` at the start of a line")
	}
	if requireCall.MatchString(src) {
		errs = append(errs, "template.ts must use import, not require")
	}
	specs := map[string]bool{}
	for _, re := range []*regexp.Regexp{importFrom, importBare, importDynamic} {
		for _, m := range re.FindAllStringSubmatch(src, -1) {
			specs[m[1]] = true
		}
	}
	names := make([]string, 0, len(specs))
	for s := range specs {
		names = append(names, s)
	}
	sort.Strings(names)
	for _, s := range names {
		switch {
		case strings.HasPrefix(s, "cloudflare:"):
		case strings.HasPrefix(s, ".") || strings.HasPrefix(s, "/"):
			errs = append(errs, fmt.Sprintf("template.ts imports %q: a template is one file and may import only its npm dependencies", s))
		case strings.HasPrefix(s, "node:"):
			errs = append(errs, fmt.Sprintf("template.ts imports %q: Node built-ins are not available in Workers without nodejs_compat", s))
		default:
			if err := CheckImportSpecifier(s); err != nil {
				errs = append(errs, "template.ts: "+err.Error())
			} else if _, ok := deps[packageName(s)]; !ok {
				errs = append(errs, fmt.Sprintf("template.ts imports %q, which is not in dependencies", s))
			}
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

// packageName returns the npm package of an import specifier:
// "@scope/pkg/sub" → "@scope/pkg", "pkg/sub" → "pkg".
func packageName(spec string) string {
	parts := strings.Split(spec, "/")
	if strings.HasPrefix(spec, "@") && len(parts) >= 2 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}
