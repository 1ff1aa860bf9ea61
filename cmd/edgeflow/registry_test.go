package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRegistryBuildAndVerify(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../../registry")); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := dispatch(context.Background(), args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}

	if code, out, errOut := run("registry", "verify", "-dir", dir); code != 0 || !strings.Contains(out, "checksums verified") {
		t.Fatalf("verify of the repository's registry: code %d, %s%s", code, out, errOut)
	}
	if code, out, _ := run("registry", "build", "-dir", dir); code != 0 || !strings.Contains(out, "(unchanged)") {
		t.Errorf("build of an up-to-date registry: code %d, %s", code, out)
	}

	tmpl := filepath.Join(dir, "nodes", "slack-message", "1.0.0", "template.ts")
	data, err := os.ReadFile(tmpl)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmpl, append(data, []byte("// changed\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := run("registry", "verify", "-dir", dir); code != 1 || !strings.Contains(errOut, "checksum mismatch") || !strings.Contains(errOut, "nodes/slack-message/1.0.0") {
		t.Errorf("verify of a changed template: code %d, stderr %s", code, errOut)
	}
	if code, out, errOut := run("registry", "build", "-dir", dir); code != 0 || !strings.Contains(out, "(written)") {
		t.Errorf("rebuild: code %d, %s%s", code, out, errOut)
	}
	if code, _, errOut := run("registry", "verify", "-dir", dir); code != 0 {
		t.Errorf("verify after rebuild: code %d, %s", code, errOut)
	}
	if code, _, _ := run("registry", "publish"); code != 2 {
		t.Errorf("unknown subcommand: code %d, want 2", code)
	}
}
