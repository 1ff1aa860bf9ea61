package bundle

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// InstallError is a failed npm install of a workflow's dependencies.
type InstallError struct {
	// Missing is set when npm is not on PATH.
	Missing bool
	Message string
}

// Error says that installing the dependencies failed and why.
func (e *InstallError) Error() string { return "install dependencies: " + e.Message }

// installTimeout bounds one npm install.
const installTimeout = 3 * time.Minute

var installLocks sync.Map // directory → *sync.Mutex

// Install makes sure the dependency set deps is installed under cacheDir and
// returns the directory whose node_modules holds it:
// <cacheDir>/npm/<sha256 of the sorted set>. A set is installed once (npm
// install --ignore-scripts into a temporary directory renamed into place),
// so concurrent and later bundles of the same set share it. It fails with an
// *InstallError when npm is missing or the install fails.
func Install(ctx context.Context, cacheDir string, deps map[string]string) (string, error) {
	if cacheDir == "" {
		return "", &InstallError{Message: "no cache directory for npm dependencies"}
	}
	names := make([]string, 0, len(deps))
	for k := range deps {
		names = append(names, k)
	}
	sort.Strings(names)
	var key bytes.Buffer
	for _, k := range names {
		fmt.Fprintf(&key, "%s@%s\n", k, deps[k])
	}
	sum := sha256.Sum256(key.Bytes())
	dir := filepath.Join(cacheDir, "npm", hex.EncodeToString(sum[:16]))
	done := filepath.Join(dir, ".edgeflow-installed")
	if _, err := os.Stat(done); err == nil {
		return dir, nil
	}
	mu, _ := installLocks.LoadOrStore(dir, &sync.Mutex{})
	mu.(*sync.Mutex).Lock()
	defer mu.(*sync.Mutex).Unlock()
	if _, err := os.Stat(done); err == nil {
		return dir, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", &InstallError{Missing: true, Message: "npm is not installed; it is needed to bundle npm dependencies"}
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", &InstallError{Message: err.Error()}
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".install-")
	if err != nil {
		return "", &InstallError{Message: err.Error()}
	}
	defer os.RemoveAll(tmp)
	pkg, _ := json.MarshalIndent(map[string]any{"name": "edgeflow-deps", "private": true, "dependencies": deps}, "", "  ")
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), pkg, 0o644); err != nil {
		return "", &InstallError{Message: err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, installTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--ignore-scripts", "--install-links", "--no-audit", "--no-fund", "--omit=dev", "--loglevel=error")
	cmd.Dir = tmp
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if len(msg) > 2000 {
			msg = msg[:2000]
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			msg = "npm install timed out"
		}
		return "", &InstallError{Message: fmt.Sprintf("npm install failed: %v: %s", err, msg)}
	}
	if err := os.WriteFile(filepath.Join(tmp, ".edgeflow-installed"), []byte(key.String()), 0o644); err != nil {
		return "", &InstallError{Message: err.Error()}
	}
	if _, err := os.Stat(done); err == nil {
		return dir, nil // another process installed the same set meanwhile
	}
	_ = os.RemoveAll(dir) // a leftover without the marker is never in use
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(done); statErr == nil {
			return dir, nil
		}
		return "", &InstallError{Message: err.Error()}
	}
	return dir, nil
}
