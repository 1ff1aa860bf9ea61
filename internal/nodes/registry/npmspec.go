package registry

import (
	"fmt"
	"path/filepath"
	"strings"

	"golang.org/x/mod/semver"
)

// npm dependencies: a workflow's `dependencies` and a marketplace node's
// both map a package name to a version spec. Only what installs from the
// npm registry by name is accepted: a registry package name, and a semver
// range (npm's range grammar, docs/security.md) or a dist-tag. Every other
// spec npm understands (file:, link:, git URLs, http(s) tarballs, npm:
// aliases, workspace:, paths, github shorthands) is refused, because it
// installs something other than a published registry package, may run
// prepare scripts or reads the server's file system.

// Limits of a dependency.
const (
	maxPackageName = 214
	maxVersionSpec = 256
	maxDistTag     = 64
)

// CheckPackageName checks name against npm's rules for registry package
// names: at most 214 characters, lower case, an optional "@scope/", no
// leading '.' or '_' (in the scope or the name), and only the URL-safe
// characters a-z, 0-9, '-', '.', '_' and '~'. The error says what is wrong.
func CheckPackageName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("package name is empty")
	case len(name) > maxPackageName:
		return fmt.Errorf("package name is longer than %d characters", maxPackageName)
	case name == "node_modules" || name == "favicon.ico":
		return fmt.Errorf("%q is not an allowed package name", name)
	}
	rest := name
	if strings.HasPrefix(name, "@") {
		scope, pkg, ok := strings.Cut(name[1:], "/")
		if !ok {
			return fmt.Errorf("scoped package name %q must be @scope/name", name)
		}
		if err := checkNamePart(scope, "scope"); err != nil {
			return err
		}
		rest = pkg
	}
	return checkNamePart(rest, "name")
}

func checkNamePart(s, what string) error {
	if s == "" {
		return fmt.Errorf("package %s is empty", what)
	}
	if s[0] == '.' || s[0] == '_' {
		return fmt.Errorf("package %s %q must not start with '.' or '_'", what, s)
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '-', c == '.', c == '_', c == '~':
		case c >= 'A' && c <= 'Z':
			return fmt.Errorf("package %s %q must be lower case", what, s)
		default:
			return fmt.Errorf("package %s %q may hold only a-z, 0-9, '-', '.', '_' and '~'", what, s)
		}
	}
	return nil
}

// CheckVersionSpec checks that spec is a semver range in npm's grammar
// ("1.2.3", "^1.2", "~1.2.3", ">=1 <2", "1.x || 2", "1.0.0 - 1.4", "*") or
// a dist-tag ("latest", "next": a letter, then letters, digits, '.', '_'
// or '-', at most 64 characters). Any other spec (file:, link:, git…:,
// http(s):, npm: aliases, workspace:, paths, tarballs, owner/repo) is
// refused with an error saying why.
func CheckVersionSpec(spec string) error {
	switch {
	case strings.TrimSpace(spec) == "":
		return fmt.Errorf("version is empty: give a semver range (e.g. ^1.2.0) or a dist-tag (e.g. latest)")
	case len(spec) > maxVersionSpec:
		return fmt.Errorf("version is longer than %d characters", maxVersionSpec)
	}
	for i := 0; i < len(spec); i++ {
		if c := spec[i]; c < ' ' || c > '~' {
			return fmt.Errorf("version may hold only printable ASCII characters and spaces")
		}
	}
	rangeErr := checkRange(spec)
	if rangeErr == nil || isDistTag(spec) {
		return nil
	}
	if kind := foreignSpec(spec); kind != "" {
		return fmt.Errorf("%s are not allowed: give a semver range (e.g. ^1.2.0) or a dist-tag of a registry package", kind)
	}
	return fmt.Errorf("%q is neither a semver range nor a dist-tag: %v", spec, rangeErr)
}

// CheckDependency checks one dependency: the package name and its version
// spec (CheckPackageName, CheckVersionSpec).
func CheckDependency(name, spec string) error {
	if err := CheckPackageName(name); err != nil {
		return err
	}
	return CheckVersionSpec(spec)
}

// foreignSpec names the kind of a non-registry spec npm would accept, or "".
func foreignSpec(spec string) string {
	s := strings.ToLower(strings.TrimSpace(spec))
	switch {
	case strings.HasPrefix(s, "file:"), strings.HasPrefix(s, "link:"):
		return "local file and link dependencies"
	case strings.HasPrefix(s, "npm:"):
		return "npm: aliases"
	case strings.HasPrefix(s, "workspace:"):
		return "workspace: dependencies"
	case strings.HasPrefix(s, "git"), strings.HasPrefix(s, "github:"), strings.HasPrefix(s, "gitlab:"), strings.HasPrefix(s, "bitbucket:"), strings.HasPrefix(s, "gist:"):
		return "git dependencies"
	case strings.HasPrefix(s, "http:"), strings.HasPrefix(s, "https:"), strings.Contains(s, "://"):
		return "URL and tarball dependencies"
	case strings.HasPrefix(s, "/"), strings.HasPrefix(s, "."), strings.HasPrefix(s, "~/"), strings.Contains(s, "\\"):
		return "path dependencies"
	case strings.HasSuffix(s, ".tgz"), strings.HasSuffix(s, ".tar.gz"), strings.HasSuffix(s, ".tar"):
		return "tarball dependencies"
	case strings.Contains(s, "/"):
		return "owner/repo (GitHub) shorthands"
	case strings.Contains(s, ":"):
		return "protocol dependencies"
	}
	return ""
}

// isDistTag reports whether s reads as a dist-tag to npm: not a range, and
// not a name npm would take for a tarball file.
func isDistTag(s string) bool {
	if l := strings.ToLower(s); strings.HasSuffix(l, ".tgz") || strings.HasSuffix(l, ".tar") || strings.HasSuffix(l, ".tar.gz") {
		return false
	}
	if len(s) > maxDistTag || s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// checkRange parses spec with npm's range grammar:
//
//	range-set  ::= range ( '||' range )*
//	range      ::= partial ' - ' partial | comparator ( ' ' comparator )*
//	comparator ::= ( '<' | '>' | '>=' | '<=' | '=' | '~' | '~>' | '^' )? partial
//	partial    ::= 'v'? xr ( '.' xr ( '.' xr qualifier? )? )?
//	xr         ::= 'x' | 'X' | '*' | number
//	qualifier  ::= ( '-' identifiers )? ( '+' identifiers )?
//
// Spaces may follow an operator. An empty alternative is refused (npm reads
// it as "*"; write "*").
func checkRange(spec string) error {
	for _, alt := range strings.Split(spec, "||") {
		fields := strings.Fields(alt)
		if len(fields) == 0 {
			return fmt.Errorf("an alternative of the range is empty")
		}
		if len(fields) == 3 && fields[1] == "-" {
			for _, p := range []string{fields[0], fields[2]} {
				if err := checkPartial(p); err != nil {
					return err
				}
			}
			continue
		}
		for i := 0; i < len(fields); i++ {
			f := fields[i]
			op := comparatorOp(f)
			if op == "" && f == "-" {
				return fmt.Errorf("a hyphen range is 'A - B' with one version on each side")
			}
			v := f[len(op):]
			if v == "" && op != "" {
				// An operator followed by a space, then the version.
				if i+1 == len(fields) {
					return fmt.Errorf("operator %q has no version", op)
				}
				i++
				v = fields[i]
			}
			if err := checkPartial(v); err != nil {
				return err
			}
		}
	}
	return nil
}

func comparatorOp(f string) string {
	for _, op := range []string{"~>", ">=", "<=", "~", "^", ">", "<", "="} {
		if strings.HasPrefix(f, op) {
			return op
		}
	}
	return ""
}

// checkPartial checks a possibly partial version: "1", "1.2", "1.x",
// "1.2.3-beta.1+build.5", with an optional leading 'v'. Numbers follow the
// rules of ParseVersion (no leading zeros, at most 2^53-1); a pre-release or
// build part needs all three numbers and must be valid semver.
func checkPartial(s string) error {
	orig := s
	s = strings.TrimPrefix(s, "v")
	if s == "" {
		return fmt.Errorf("%q is not a version", orig)
	}
	core := s
	qualified := false
	if i := strings.IndexAny(s, "-+"); i >= 0 {
		core, qualified = s[:i], true
	}
	parts := strings.Split(core, ".")
	if len(parts) > 3 {
		return fmt.Errorf("%q has more than three numbers", orig)
	}
	numeric := true
	for _, p := range parts {
		if p == "x" || p == "X" || p == "*" {
			numeric = false
			continue
		}
		if err := versionNumber(p); err != nil {
			return fmt.Errorf("version %q: %v", orig, err)
		}
	}
	if qualified {
		if len(parts) != 3 || !numeric {
			return fmt.Errorf("version %q: a pre-release or build part needs MAJOR.MINOR.PATCH", orig)
		}
		if !semver.IsValid("v" + s) {
			return fmt.Errorf("version %q: pre-release and build identifiers are non-empty, of letters, digits and '-', numeric ones without leading zeros", orig)
		}
	}
	return nil
}

// CheckImportSpecifier checks a module specifier written in user code (an
// import, export … from, import() or require() argument): it must be a
// "cloudflare:" or "node:" module, or a registry package name
// (CheckPackageName) optionally followed by a subpath whose
// segments are neither empty, "." nor "..". Relative and absolute paths,
// URLs and other schemes are refused. The error says why.
func CheckImportSpecifier(spec string) error {
	switch {
	case strings.HasPrefix(spec, "cloudflare:") || strings.HasPrefix(spec, "node:"):
		_, mod, _ := strings.Cut(spec, ":")
		if mod == "" || mod[0] == '/' || strings.Contains(mod, "..") || strings.Trim(mod, "abcdefghijklmnopqrstuvwxyz0123456789_-/.") != "" {
			return fmt.Errorf("import %q is not a runtime module", spec)
		}
		return nil
	case spec == "":
		return fmt.Errorf("empty import specifier")
	case strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "\\") || filepath.IsAbs(spec):
		return fmt.Errorf("import %q is an absolute path: code may import only its npm dependencies and cloudflare:/node: modules", spec)
	case strings.HasPrefix(spec, "."):
		return fmt.Errorf("import %q is a relative path: code may import only its npm dependencies and cloudflare:/node: modules", spec)
	case strings.ContainsAny(spec, "\\\x00") || strings.Contains(spec, ":"):
		return fmt.Errorf("import %q is not a package: code may import only its npm dependencies and cloudflare:/node: modules", spec)
	}
	name, sub, hasSub := splitPackage(spec)
	if err := CheckPackageName(name); err != nil {
		return fmt.Errorf("import %q: %v", spec, err)
	}
	if !hasSub {
		return nil
	}
	for _, seg := range strings.Split(sub, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("import %q: a package subpath may not hold empty, '.' or '..' segments", spec)
		}
	}
	return nil
}

// splitPackage splits "pkg/sub/path" or "@scope/pkg/sub" into the package
// name and the subpath after it; hasSub is false when there is no '/'
// after the name.
func splitPackage(spec string) (name, sub string, hasSub bool) {
	n := 1
	if strings.HasPrefix(spec, "@") {
		n = 2
	}
	parts := strings.SplitN(spec, "/", n+1)
	if len(parts) <= n {
		return spec, "", false
	}
	return strings.Join(parts[:n], "/"), parts[n], true
}
