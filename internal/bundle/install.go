package bundle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// InstallError is a failed npm install of a workflow's dependencies.
type InstallError struct {
	// Missing is set when npm is not on PATH.
	Missing bool
	Message string
}

// Error says that installing the dependencies failed and why.
func (e *InstallError) Error() string { return "install dependencies: " + e.Message }

// installTimeout bounds one npm command.
const installTimeout = 3 * time.Minute

// installedMarker is written into a cache entry once it is complete.
const installedMarker = ".edgeflow-installed"

// Install installs the dependency set deps and returns the directory whose
// node_modules holds it, and the function to call once the caller no longer
// reads that directory: until then this process never removes it from the
// cache. Every dependency must pass
// registry.CheckDependency (a registry package with a semver range or
// dist-tag); anything else is an *InstallError naming it.
//
// Each call works in a directory of its own under <cacheDir>/builds: npm
// resolves the set to exact versions there (package-lock.json, lifecycle
// scripts disabled, no .npmrc but the operator's), every locked package
// must come from the registry with an integrity hash, and the lock's exact
// content (paths, versions, integrity) keys the shared cache
// <cacheDir>/npm/<sha256>. A set not yet cached is installed by `npm ci
// --ignore-scripts --no-bin-links` in the call's own directory, symlinks
// leading out of it are removed, its files are made read-only, and it is
// renamed into the cache, so a half-finished install or another build's
// install is never read. Builds only read cache entries. After a new
// install the cache is trimmed to limit bytes (TrimCache; 0 means
// DefaultCacheLimit, a negative limit none). It fails with an
// *InstallError when npm is missing or a step fails; messages show no
// server paths.
func Install(ctx context.Context, cacheDir string, limit int64, deps map[string]string) (string, func(), error) {
	if cacheDir == "" {
		return "", nil, &InstallError{Message: "no cache directory for npm dependencies"}
	}
	if limit == 0 {
		limit = DefaultCacheLimit
	}
	names := make([]string, 0, len(deps))
	for k := range deps {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := registry.CheckDependency(name, deps[name]); err != nil {
			return "", nil, &InstallError{Message: fmt.Sprintf("dependency %q: %v", name, err)}
		}
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", nil, &InstallError{Missing: true, Message: "npm is not installed; it is needed to bundle npm dependencies"}
	}
	builds := filepath.Join(cacheDir, "builds")
	if err := os.MkdirAll(builds, 0o755); err != nil {
		return "", nil, &InstallError{Message: "cannot create the build directory"}
	}
	work, err := os.MkdirTemp(builds, "build-")
	if err != nil {
		return "", nil, &InstallError{Message: "cannot create the build directory"}
	}
	defer os.RemoveAll(work)
	pkg, _ := json.MarshalIndent(map[string]any{"name": "edgeflow-deps", "version": "0.0.0", "private": true, "dependencies": deps}, "", "  ")
	if err := os.WriteFile(filepath.Join(work, "package.json"), pkg, 0o644); err != nil {
		return "", nil, &InstallError{Message: "cannot write package.json"}
	}
	hide := []string{work, cacheDir}
	if err := runNPM(ctx, npm, work, hide, "install", "--package-lock-only"); err != nil {
		return "", nil, err
	}
	key, err := lockKey(filepath.Join(work, "package-lock.json"))
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Join(cacheDir, "npm", key)
	done := filepath.Join(dir, installedMarker)
	use, release := uses.acquire(dir)
	kept := false
	defer func() {
		if !kept {
			release()
		}
	}()
	if _, err := os.Stat(done); err == nil {
		markUsed(done)
		kept = true
		return dir, release, nil
	}
	use.install.Lock()
	defer use.install.Unlock()
	if _, err := os.Stat(done); err == nil {
		markUsed(done)
		kept = true
		return dir, release, nil
	}
	if err := runNPM(ctx, npm, work, hide, "ci", "--no-bin-links", "--omit=dev"); err != nil {
		return "", nil, err
	}
	if _, err := removeSymlinks(work); err != nil {
		return "", nil, &InstallError{Message: "cannot check the installed files"}
	}
	if err := os.WriteFile(filepath.Join(work, installedMarker), markerText(key, dirSize(work)), 0o444); err != nil {
		return "", nil, &InstallError{Message: "cannot mark the install complete"}
	}
	if err := readOnlyFiles(work); err != nil {
		return "", nil, &InstallError{Message: "cannot make the installed files read-only"}
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", nil, &InstallError{Message: "cannot create the dependency cache"}
	}
	_ = os.RemoveAll(dir) // a leftover without the marker is never in use
	if err := os.Rename(work, dir); err != nil {
		if _, statErr := os.Stat(done); statErr == nil {
			kept = true
			return dir, release, nil // another process installed the same set meanwhile
		}
		return "", nil, &InstallError{Message: "cannot move the install into the dependency cache"}
	}
	kept = true
	_, _ = TrimCache(cacheDir, limit) // this entry is in use: it stays
	return dir, release, nil
}

// runNPM runs one npm command in dir with lifecycle scripts off. Its
// output, on failure, is shown with the paths in hide and any other
// absolute path taken out.
func runNPM(ctx context.Context, npm, dir string, hide []string, args ...string) error {
	ctx, cancel := context.WithTimeout(ctx, installTimeout)
	defer cancel()
	args = append(args, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", "--no-update-notifier")
	cmd := exec.CommandContext(ctx, npm, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "npm_config_ignore_scripts=true", "npm_config_audit=false", "npm_config_fund=false")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return &InstallError{Message: "npm " + args[0] + " timed out"}
		}
		return &InstallError{Message: fmt.Sprintf("npm %s failed: %s", args[0], npmOutput(out.String(), hide))}
	}
	return nil
}

// npmOutput keeps the lines of npm's output that say what failed, without
// server paths.
func npmOutput(out string, hide []string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.Contains(l, "complete log of this run") || strings.Contains(l, "_logs") {
			continue
		}
		for _, h := range hide {
			l = strings.ReplaceAll(l, h, "<dependencies>")
		}
		lines = append(lines, scrubPaths(l))
	}
	msg := strings.Join(lines, "; ")
	if len(msg) > 1000 {
		msg = msg[:1000] + "…"
	}
	if msg == "" {
		msg = "no output"
	}
	return msg
}

// lockEntry is a package of package-lock.json (lockfileVersion 2 or 3).
type lockEntry struct {
	Version   string `json:"version"`
	Resolved  string `json:"resolved"`
	Integrity string `json:"integrity"`
	Link      bool   `json:"link"`
	InBundle  bool   `json:"inBundle"`
}

// lockKey checks the lock npm wrote (every package from the registry, by
// version, with an integrity hash, at a node_modules path) and returns the
// hex SHA-256 of its exact content: path, version and integrity of each
// package.
func lockKey(file string) (string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return "", &InstallError{Message: "npm wrote no package-lock.json"}
	}
	var lock struct {
		Packages map[string]lockEntry `json:"packages"`
	}
	if err := json.Unmarshal(data, &lock); err != nil || lock.Packages == nil {
		return "", &InstallError{Message: "npm wrote a package-lock.json that cannot be read"}
	}
	paths := make([]string, 0, len(lock.Packages))
	for p := range lock.Packages {
		if p != "" {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		e := lock.Packages[p]
		if err := checkLockEntry(p, e); err != nil {
			return "", &InstallError{Message: err.Error()}
		}
		fmt.Fprintf(h, "%s\x00%s\x00%s\n", p, e.Version, e.Integrity)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func checkLockEntry(p string, e lockEntry) error {
	if !strings.HasPrefix(p, "node_modules/") || strings.Contains(p, "\\") {
		return fmt.Errorf("the resolved dependencies hold a package outside node_modules (%q)", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("the resolved dependencies hold a package at an invalid path (%q)", p)
		}
	}
	name := p[strings.LastIndex(p, "node_modules/")+len("node_modules/"):]
	switch {
	case e.Link:
		return fmt.Errorf("package %s is a link, not a registry package", name)
	case e.Version == "":
		return fmt.Errorf("package %s has no version", name)
	case e.Resolved != "" && !(strings.HasPrefix(e.Resolved, "https://") || strings.HasPrefix(e.Resolved, "http://")):
		return fmt.Errorf("package %s does not come from the registry", name)
	case e.Integrity == "" && !e.InBundle:
		return fmt.Errorf("package %s has no integrity hash: only registry packages can be installed", name)
	}
	if _, err := registry.ParseVersion(strings.SplitN(e.Version, "+", 2)[0]); err != nil {
		return fmt.Errorf("package %s: %v", name, err)
	}
	return nil
}

// readOnlyFiles takes the write permission off every regular file under
// dir; directories stay writable by their owner so that the cache can be
// cleaned.
func readOnlyFiles(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.Chmod(p, info.Mode().Perm()&^0o222)
	})
}
