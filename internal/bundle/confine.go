package bundle

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// A bundle reads only the generated sources (an in-memory file map) and the
// workflow's installed npm dependencies: every module esbuild resolves
// outside the file map must lie, symlinks resolved, inside the directory the
// dependencies were installed into. Absolute paths and ".." segments are
// refused in what the user's code imports (registry.CheckImportSpecifier), and what a
// package imports is checked after resolution, so
// require('ms/../../../etc/passwd') and a package's require('/etc/passwd')
// both fail instead of bundling a host file. Messages never show a server
// path.

// confiner holds the root a build may read packages from.
type confiner struct {
	// root is the real path (symlinks resolved) of the install directory,
	// "" when the build has no dependencies.
	root string
	// hide are the server paths replaced in messages.
	hide []string
}

func newConfiner(installDir string, hide ...string) (*confiner, error) {
	c := &confiner{}
	if installDir != "" {
		real, err := filepath.EvalSymlinks(installDir)
		if err != nil {
			return nil, &InstallError{Message: "the installed dependencies cannot be read"}
		}
		c.root = real
		c.hide = append(c.hide, real, installDir)
	}
	for _, h := range hide {
		if h != "" {
			c.hide = append(c.hide, h)
		}
	}
	return c, nil
}

// inside reports whether p, symlinks resolved, lies inside the root.
func (c *confiner) inside(p string) bool {
	if c.root == "" || !filepath.IsAbs(p) {
		return false
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(c.root, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// display names a file for a message: relative to the install directory
// when inside it, else a placeholder.
func (c *confiner) display(p string) string {
	if c.root != "" {
		if rel, err := filepath.Rel(c.root, p); err == nil && !strings.HasPrefix(rel, "..") && !filepath.IsAbs(rel) {
			return filepath.ToSlash(rel)
		}
	}
	if filepath.IsAbs(p) {
		return "(a file outside the dependencies)"
	}
	return p
}

var absPath = regexp.MustCompile(`(^|[\s'"(=\[,])(/[^\s'"(),\]]+)`)

// scrub takes server paths out of a message: the install and cache
// directories become "<dependencies>", any other absolute path "<path>".
func (c *confiner) scrub(msg string) string {
	for _, h := range c.hide {
		msg = strings.ReplaceAll(msg, h, "<dependencies>")
	}
	return scrubPaths(msg)
}

// scrubPaths replaces absolute file paths in msg with "<path>".
func scrubPaths(msg string) string {
	return absPath.ReplaceAllString(msg, "${1}<path>")
}

// resolving marks esbuild's own resolution done on behalf of the plugin, so
// that the plugin's hook lets it through instead of recursing.
type resolvingMark struct{}

var resolving = &resolvingMark{}

// resolvePackage resolves a package import with esbuild's resolver and
// checks that the file lies inside the install directory. From the user's
// code (namespace memNamespace) the specifier is checked first.
func (c *confiner) resolvePackage(b api.PluginBuild, args api.OnResolveArgs) (api.OnResolveResult, error) {
	if args.Namespace == memNamespace {
		if err := registry.CheckImportSpecifier(args.Path); err != nil {
			return api.OnResolveResult{}, err
		}
	}
	if c.root == "" {
		return api.OnResolveResult{}, fmt.Errorf("package %q is not among the workflow's dependencies", args.Path)
	}
	resolveDir := args.ResolveDir
	if args.Namespace == memNamespace || resolveDir == "" {
		resolveDir = c.root
	}
	r := b.Resolve(args.Path, api.ResolveOptions{Importer: args.Importer, Namespace: args.Namespace,
		ResolveDir: resolveDir, Kind: args.Kind, PluginData: resolving, With: args.With})
	if len(r.Errors) > 0 {
		return api.OnResolveResult{}, fmt.Errorf("cannot resolve %q: %s", args.Path, c.scrub(r.Errors[0].Text))
	}
	if r.External {
		return api.OnResolveResult{}, fmt.Errorf("cannot bundle %q: it is not a file of the installed dependencies", args.Path)
	}
	if r.Namespace != "file" || !c.inside(r.Path) {
		return api.OnResolveResult{}, fmt.Errorf("import %q%s resolves outside the workflow's installed dependencies", args.Path, c.from(args))
	}
	side := api.SideEffectsTrue
	if !r.SideEffects {
		side = api.SideEffectsFalse
	}
	return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, Suffix: r.Suffix, SideEffects: side, PluginData: r.PluginData}, nil
}

func (c *confiner) from(args api.OnResolveArgs) string {
	if args.Importer == "" {
		return ""
	}
	if args.Namespace == memNamespace {
		return " (in " + args.Importer + ")"
	}
	return " (in " + c.display(args.Importer) + ")"
}

// checkLoad refuses to load a file outside the install directory, whatever
// resolved it; it returns nothing for a file inside, so esbuild loads it.
func (c *confiner) checkLoad(args api.OnLoadArgs) (api.OnLoadResult, error) {
	if !c.inside(args.Path) {
		return api.OnLoadResult{}, fmt.Errorf("cannot bundle %s: only files of the workflow's installed dependencies can be bundled", c.display(args.Path))
	}
	return api.OnLoadResult{}, nil
}

// isSymlinkOutside reports whether the symlink at p points outside root.
func isSymlinkOutside(root, p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return true
	}
	rel, err := filepath.Rel(root, real)
	return err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// removeSymlinks deletes every symbolic link under dir that leads outside
// it (npm makes none with --no-bin-links; a package cannot ship one), and
// reports how many it removed.
func removeSymlinks(dir string) (int, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return 0, err
	}
	n := 0
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&os.ModeSymlink != 0 && isSymlinkOutside(root, p) {
			n++
			return os.Remove(p)
		}
		return nil
	})
	return n, err
}
