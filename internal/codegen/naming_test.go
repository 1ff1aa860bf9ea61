package codegen_test

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/codegen"
)

func TestNames(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 80)
	tests := []struct {
		id, script, class string
	}{
		{"wf_1a2b", "ef-wf-1a2b", "Wf1a2bWorkflow"},
		{"WF-Order.Sync", "ef-wf-order-sync", "WFOrderSyncWorkflow"},
		{"9lives", "ef-9lives", "W9livesWorkflow"},
		{"__", "ef---", "WWorkflow"},
		{long, "ef-" + strings.Repeat("x", 49) + "-", "X" + strings.Repeat("x", 79) + "Workflow"},
	}
	for _, tt := range tests {
		s := codegen.ScriptName(tt.id)
		if !strings.HasPrefix(s, tt.script) || len(s) > 63 {
			t.Errorf("ScriptName(%q) = %q, want prefix %q and at most 63 bytes", tt.id, s, tt.script)
		}
		if w := codegen.WorkflowName(tt.id); w != s {
			t.Errorf("WorkflowName(%q) = %q, want %q", tt.id, w, s)
		}
		if c := codegen.ClassName(tt.id); c != tt.class {
			t.Errorf("ClassName(%q) = %q, want %q", tt.id, c, tt.class)
		}
	}
	if codegen.ScriptName(long) == codegen.ScriptName(long+"y") {
		t.Error("shortened names of different ids collide")
	}
}

// TestSecretsStayOut compiles with env vars and checks that only their names
// reach the code, and that bindings list them with their kind.
func TestSecretsStayOut(t *testing.T) {
	t.Parallel()
	f := loadFixture(t, "http_request")
	out, err := codegen.Generate(f.ir, f.opts)
	if err != nil {
		t.Fatal(err)
	}
	code := out.Files[codegen.MainModule]
	for _, want := range []string{"API_TOKEN: string;", "env.API_TOKEN", "API_BASE: string;"} {
		if !strings.Contains(code, want) {
			t.Errorf("code lacks %q", want)
		}
	}
	var secret, plain bool
	for _, b := range out.Bindings {
		secret = secret || b.Name == "API_TOKEN" && b.Type == codegen.BindingSecretText
		plain = plain || b.Name == "API_BASE" && b.Type == codegen.BindingPlainText
	}
	if !secret || !plain {
		t.Errorf("bindings %+v lack API_TOKEN as secret_text or API_BASE as plain_text", out.Bindings)
	}
}
