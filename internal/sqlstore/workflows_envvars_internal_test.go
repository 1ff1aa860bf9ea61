package sqlstore

import (
	"encoding/json"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/google/go-cmp/cmp"
)

// TestDecodeEnvVars checks the fast path against encoding/json: whatever it
// accepts must decode exactly as json.Unmarshal does.
func TestDecodeEnvVars(t *testing.T) {
	t.Parallel()
	inputs := []string{
		`[]`, `[{"name":"A","value":"1","isSecret":false}]`,
		`[{"name":"A","value":"","isSecret":true},{"name":"B_2","value":"x y, z}{","isSecret":false}]`,
		`[{"name":"A","value":"a\"b","isSecret":false}]`, `[{"name":"A","value":"\u003c","isSecret":false}]`,
		`[{"value":"1","name":"A","isSecret":false}]`, `[ {"name":"A","value":"1","isSecret":false} ]`,
		`[{"name":"A","value":"1","isSecret":false},]`, `[{"name":"A","value":"1","isSecret":0}]`,
		`[{"name":"A","value":"1","isSecret":false}{"name":"B","value":"1","isSecret":false}]`,
		`[{"name":"A","value":"1","isSecret":false,"x":1}]`, `{}`, `[`, ``, `null`,
	}
	for _, in := range inputs {
		got, ok := decodeEnvVars(in)
		var want []edgeflow.WorkflowEnvVar
		err := json.Unmarshal([]byte(in), &want)
		if !ok {
			continue
		}
		if err != nil {
			t.Errorf("%s: fast path accepted what encoding/json refuses (%v)", in, err)
			continue
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: (-json +fast)\n%s", in, d)
		}
	}
	for _, vars := range [][]edgeflow.WorkflowEnvVar{{}, {{Name: "A", Value: "1"}, {Name: "S", Value: "c2VhbGVk", IsSecret: true}}} {
		b, _ := json.Marshal(vars)
		got, ok := decodeEnvVars(string(b))
		if !ok {
			t.Errorf("%s: fast path refused json.Marshal output", b)
		}
		if d := cmp.Diff(vars, got); d != "" {
			t.Errorf("%s: (-want +got)\n%s", b, d)
		}
	}
}

func FuzzDecodeEnvVars(f *testing.F) {
	f.Add(`[{"name":"A","value":"1","isSecret":false}]`)
	f.Fuzz(func(t *testing.T, in string) {
		got, ok := decodeEnvVars(in)
		if !ok {
			return
		}
		var want []edgeflow.WorkflowEnvVar
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%q: accepted, json refuses: %v", in, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Fatalf("%q: (-json +fast)\n%s", in, d)
		}
	})
}
