package localedge_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/localedge"
)

// fakeNode writes an executable that answers --version with version, at dir/node.
func fakeNode(t *testing.T, dir, version string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "node")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho "+version+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindNode(t *testing.T) {
	edgeDir := t.TempDir()
	script := filepath.Join(edgeDir, "server.mjs")
	runtimeBin := filepath.Join(edgeDir, localedge.RuntimeDir, "node_modules", ".bin")
	installed := fakeNode(t, runtimeBin, "v24.22.3")
	old := fakeNode(t, t.TempDir(), "v20.20.2")
	current := fakeNode(t, t.TempDir(), "v22.12.0")
	oldOnPath := filepath.Dir(fakeNode(t, t.TempDir(), "v20.20.2"))
	ctx := context.Background()

	t.Run("explicit wins", func(t *testing.T) {
		got, err := localedge.FindNode(ctx, current, script)
		if err != nil || got != current {
			t.Fatalf("FindNode = %q, %v; want %q", got, err, current)
		}
	})
	t.Run("explicit too old is refused with its version", func(t *testing.T) {
		_, err := localedge.FindNode(ctx, old, script)
		if err == nil || !strings.Contains(err.Error(), "v20.20.2") || !strings.Contains(err.Error(), "22 or newer") {
			t.Fatalf("err = %v; want one naming v20.20.2 and the minimum", err)
		}
	})
	t.Run("explicit missing", func(t *testing.T) {
		_, err := localedge.FindNode(ctx, "/nonexistent/node", script)
		if err == nil || !strings.Contains(err.Error(), "is Node.js installed") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("the edge's node-runtime before PATH", func(t *testing.T) {
		t.Setenv("PATH", oldOnPath)
		got, err := localedge.FindNode(ctx, "", script)
		if err != nil || got != installed {
			t.Fatalf("FindNode = %q, %v; want %q", got, err, installed)
		}
	})
	t.Run("an old node on PATH is refused with how to get one", func(t *testing.T) {
		t.Setenv("PATH", oldOnPath)
		_, err := localedge.FindNode(ctx, "", filepath.Join(t.TempDir(), "server.mjs"))
		for _, want := range []string{"v20.20.2", "22 or newer", "make run", "--node", localedge.EnvNode} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Fatalf("err = %v; want it to mention %q", err, want)
			}
		}
	})
	t.Run("no node at all", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := localedge.FindNode(ctx, "", filepath.Join(t.TempDir(), "server.mjs"))
		if err == nil || !strings.Contains(err.Error(), "none is installed") {
			t.Fatalf("err = %v", err)
		}
	})
}
