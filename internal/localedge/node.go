package localedge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// MinNodeMajor is the oldest Node.js major version the local edge runs on: the edge's miniflare requires it.
const MinNodeMajor = 22

// EnvNode names the environment variable that names the node executable the edge runs on (serve and edge
// --node).
const EnvNode = "EDGEFLOW_NODE"

// RuntimeDir is the directory, inside the edge directory, where `make` installs a supported Node.js from the
// npm registry's Node binary packages on machines whose own Node is older (edge/node-runtime/package.json).
const RuntimeDir = "node-runtime"

// FindNode picks the node executable for the edge whose server.mjs is script: explicit (a flag or EnvNode)
// when set, else the Node installed into the edge directory's node-runtime, else `node` on PATH. The one it
// picks must be Node.js MinNodeMajor or newer; otherwise the error names the version found and where.
func FindNode(ctx context.Context, explicit, script string) (string, error) {
	if explicit != "" {
		p, err := exec.LookPath(explicit)
		if err != nil {
			return "", fmt.Errorf("node %q: %w (is Node.js installed? set --node or %s)", explicit, err, EnvNode)
		}
		return p, checkNode(ctx, p, "")
	}
	if script != "" {
		p := filepath.Join(filepath.Dir(script), RuntimeDir, "node_modules", ".bin", "node")
		if _, err := os.Stat(p); err == nil {
			return p, checkNode(ctx, p, "")
		}
	}
	p, err := exec.LookPath("node")
	if err != nil {
		return "", fmt.Errorf("the local edge needs Node.js %d or newer and none is installed (node not in PATH): "+
			"run `make run` in the repository, which installs one into edge/%s from the npm registry, or name one with --node or %s",
			MinNodeMajor, RuntimeDir, EnvNode)
	}
	return p, checkNode(ctx, p, fmt.Sprintf(": run `make run` in the repository, which installs a supported Node into edge/%s from the npm registry, or name one with --node or %s", RuntimeDir, EnvNode))
}

// checkNode runs `node --version` and refuses a version older than MinNodeMajor; hint ends the error.
func checkNode(ctx context.Context, node, hint string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "--version").Output()
	if err != nil {
		return fmt.Errorf("node %s --version: %w", node, err)
	}
	version := strings.TrimSpace(string(out))
	major, err := nodeMajor(version)
	if err != nil {
		return fmt.Errorf("node %s: %w", node, err)
	}
	if major < MinNodeMajor {
		return fmt.Errorf("the local edge needs Node.js %d or newer; %s is %s%s", MinNodeMajor, node, version, hint)
	}
	return nil
}

// nodeMajor reads the major version of `node --version`'s answer ("v24.22.3").
func nodeMajor(version string) (int, error) {
	v, ok := strings.CutPrefix(version, "v")
	if !ok {
		return 0, errors.New("unexpected version " + strconv.Quote(version))
	}
	major, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(major)
	if err != nil {
		return 0, errors.New("unexpected version " + strconv.Quote(version))
	}
	return n, nil
}
