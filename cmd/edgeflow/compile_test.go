package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCompile(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		ir        string
		args      []string
		code      int
		stdout    []string
		stderr    []string
		files     []string
		inBundle  []string
		notInCode []string
	}{
		{
			name: "workflow with a marketplace node",
			ir:   "../../internal/codegen/testdata/marketplace.ir.json",
			args: []string{"--id", "wf_42", "--secret", "SLACK_BOT_TOKEN"},
			code: 0, stdout: []string{"script ef-wf-42", "class Wf42Workflow"},
			files:    []string{"src/index.ts", "src/nodes/slack-message@2.0.0.ts", "src/nodes/kv-put@1.0.0.ts", "index.js"},
			inBundle: []string{"Wf42Workflow = class extends WorkflowEntrypoint", "slackMessage", `from "cloudflare:workers"`},
		},
		{
			name: "function",
			ir:   "../../internal/codegen/testdata/script_exports.ir.json",
			code: 0, stdout: []string{"script ef-script-exports"},
			files:     []string{"src/index.ts", "index.js"},
			notInCode: []string{"WorkflowEntrypoint"},
		},
		{
			name: "invalid IR lists every problem",
			ir:   "invalid",
			code: 1, stderr: []string{"is not a valid IR", "(node b)", "entryNodeId"},
		},
		{name: "missing file", ir: "nope.ir.json", code: 1, stderr: []string{"no such file"}},
		{name: "bad dependency flag", ir: "../../internal/codegen/testdata/step_basic.ir.json", args: []string{"--dep", "kleur"}, code: 2, stderr: []string{"want NAME@RANGE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := tt.ir
			if file == "invalid" {
				file = filepath.Join(dir, "bad.ir.json")
				bad := `{"metadata": {"name": "x", "version": 1, "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"},
 "nodes": [{"id": "b", "type": "step", "name": "B", "position": {"x": 0, "y": 0}, "version": "1.0.0", "provider": "cloudflare", "data": {"code": "return {{nope.x}};"}}],
 "edges": [], "entryNodeId": "zzz"}`
				if err := os.WriteFile(file, []byte(bad), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			out := filepath.Join(dir, "out")
			var stdout, stderr bytes.Buffer
			args := append([]string{"compile", file, "--out", out, "--cache", filepath.Join(dir, "cache")}, tt.args...)
			code := dispatch(context.Background(), args, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, tt.code, stdout.String(), stderr.String())
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout lacks %q: %s", s, stdout.String())
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr lacks %q: %s", s, stderr.String())
				}
			}
			for _, f := range tt.files {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("missing output: %v", err)
				}
			}
			if len(tt.inBundle)+len(tt.notInCode) == 0 {
				return
			}
			js, err := os.ReadFile(filepath.Join(out, "index.js"))
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tt.inBundle {
				if !strings.Contains(string(js), s) {
					t.Errorf("bundle lacks %q", s)
				}
			}
			for _, s := range tt.notInCode {
				if strings.Contains(string(js), s) {
					t.Errorf("bundle has %q", s)
				}
			}
		})
	}
}
