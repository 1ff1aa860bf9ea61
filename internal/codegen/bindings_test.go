package codegen_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/codegen"
)

// TestCodeBindings: env names of the convention in step code, conditions and
// trigger code become KV, D1 and R2 bindings of the output (in both
// outputs); a declared variable of such a name stays a variable.
func TestCodeBindings(t *testing.T) {
	t.Parallel()
	f := loadFixture(t, "code_bindings")
	want := []codegen.Binding{
		{Name: "BUCKET_FILES", Type: codegen.BindingR2},
		{Name: "D1_ARCHIVE", Type: codegen.BindingD1},
		{Name: "DB", Type: codegen.BindingD1},
		{Name: codegen.TriggerSecretBinding, Type: codegen.BindingSecretText},
		{Name: codegen.WorkerTokenBinding, Type: codegen.BindingSecretText},
		{Name: "KV", Type: codegen.BindingKV},
		{Name: "KV_CACHE", Type: codegen.BindingKV},
		{Name: "KV_PREFIX", Type: codegen.BindingPlainText},
		{Name: "KV_TOKEN", Type: codegen.BindingSecretText},
		{Name: "KV_TRIGGER", Type: codegen.BindingKV},
		{Name: "R2_LOGS", Type: codegen.BindingR2},
	}
	for _, js := range []bool{false, true} {
		opts := f.opts
		opts.JavaScript = js
		opts.TriggerCode = "await env.KV_TRIGGER.put('last', 'now'); return new Response('ok');"
		opts.EnvVars = append(opts.EnvVars, codegen.EnvVar{Name: "KV_TOKEN", Secret: true})
		out, err := codegen.Generate(f.ir, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []codegen.Binding
		for _, b := range out.Bindings {
			if b.Type != codegen.BindingWorkflow {
				got = append(got, b)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("JavaScript %v: bindings (-want +got):\n%s", js, diff)
		}
	}
}

// TestAgentAIBinding: an agent of the workers-ai provider declares the
// Workers AI binding (env.AI) in the output, so the deployment uploads it;
// the other providers declare none.
func TestAgentAIBinding(t *testing.T) {
	t.Parallel()
	for provider, want := range map[string]bool{"workers-ai": true, "anthropic": false, "openai": false} {
		f := loadFixture(t, "agent_function")
		f.ir.Nodes[0].Data["provider"] = provider
		if provider == "workers-ai" {
			delete(f.ir.Nodes[0].Data, "apiKey")
		}
		out, err := codegen.Generate(f.ir, f.opts)
		if err != nil {
			t.Fatalf("%s: %v", provider, err)
		}
		got := false
		for _, b := range out.Bindings {
			if b.Type == codegen.BindingAI {
				got = b == codegen.Binding{Name: codegen.AIBinding, Type: codegen.BindingAI}
			}
		}
		if got != want {
			t.Errorf("%s: the AI binding declared %v, want %v (bindings %+v)", provider, got, want, out.Bindings)
		}
	}
}
