package codegen

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// What user code imports is checked where it can be seen, before anything
// is bundled: every literal specifier of a static import or export … from,
// a dynamic import() or a require() must pass registry.CheckImportSpecifier (npm
// packages and cloudflare:/node: modules; no paths, no '..', no schemes). A
// template literal with substitutions is checked up to its first "${": it
// may not start a path. Specifiers computed at run time cannot reach the
// server's files: they are not bundled, and workerd loads only uploaded
// modules.

var (
	importFrom    = regexp.MustCompile(`\b(?:import|export)\b[^;"'` + "`" + `]*?\bfrom\s*(?:"([^"\n]*)"|'([^'\n]*)')`)
	importBare    = regexp.MustCompile(`\bimport\s*(?:"([^"\n]*)"|'([^'\n]*)')`)
	importCall    = regexp.MustCompile(`\b(?:import|require)\s*\(\s*(?:"([^"\n]*)"|'([^'\n]*)'|` + "`" + `([^` + "`" + `]*)` + "`" + `)`)
	requireResolv = regexp.MustCompile(`\brequire\s*\.\s*resolve\s*\(`)
)

// CheckImports checks the module specifiers written in src, a piece of user
// code (step code, a condition, an expression field, triggerCode), and
// returns the first refused one as an error saying why, or nil.
func CheckImports(src string) error {
	if !strings.Contains(src, "import") && !strings.Contains(src, "require") && !strings.Contains(src, "from") {
		return nil
	}
	if requireResolv.MatchString(src) {
		return fmt.Errorf("require.resolve is not available: code may import only its npm dependencies and cloudflare:/node: modules")
	}
	for _, re := range []*regexp.Regexp{importFrom, importBare, importCall} {
		for _, m := range re.FindAllStringSubmatch(src, -1) {
			spec, template := m[1], false
			switch {
			case m[1] != "":
			case m[2] != "":
				spec = m[2]
			case len(m) > 3 && m[3] != "":
				spec, template = m[3], true
			}
			if template {
				if i := strings.Index(spec, "${"); i >= 0 {
					if err := checkTemplatePrefix(spec[:i]); err != nil {
						return err
					}
					continue
				}
			}
			if err := registry.CheckImportSpecifier(spec); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkTemplatePrefix refuses a computed specifier whose fixed start is a
// path: esbuild would expand it against the files there.
func checkTemplatePrefix(prefix string) error {
	if strings.HasPrefix(prefix, "/") || strings.HasPrefix(prefix, ".") || strings.HasPrefix(prefix, "\\") ||
		strings.Contains(prefix, "..") || strings.Contains(prefix, ":") && !strings.HasPrefix(prefix, "node:") && !strings.HasPrefix(prefix, "cloudflare:") {
		return fmt.Errorf("import of `%s${…}` names a path: code may import only its npm dependencies and cloudflare:/node: modules", prefix)
	}
	return nil
}

// NodePointer returns the path of a problem of a node field as a JSON
// pointer into the IR ("nodes[2].data.branches[0].condition" becomes
// "/nodes/2/data/branches/0/condition"), or "" when the path does not
// start at a node's index.
func (e *Error) NodePointer() string {
	if !strings.HasPrefix(e.Path, "nodes[") {
		return ""
	}
	return "/" + strings.NewReplacer("[", "/", "].", "/", "]", "", ".", "/").Replace(e.Path)
}
