package deploy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// TestSensitiveOutputNeverLeavesTheProviderLayer: a step whose config marks
// its output sensitive is "[REDACTED]" in the instance edgeflow stores, even
// when the provider answered the value; its detail says so; a restart from
// a later step does not replay it (the new run executes it again); a step
// not marked keeps its output.
func TestSensitiveOutputNeverLeavesTheProviderLayer(t *testing.T) {
	t.Parallel()
	var st cloudflare.InstanceStatus
	raw := `{"status":"complete","steps":[
		{"type":"step","name":"Issue token","success":true,"output":{"token":"tok-4711"},"config":{"sensitive":"output","retries":{"limit":1}}},
		{"type":"step","name":"Digest","success":true,"output":"digest-abc","config":{"retries":{"limit":1}}},
		{"type":"step","name":"Last","success":true,"output":1}]}`
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatal(err)
	}
	in := instanceOf(st)
	if strings.Contains(string(in.Steps), "tok-4711") {
		t.Fatalf("stored steps hold the sensitive value: %s", in.Steps)
	}
	names := map[string]string{"Issue token": "token", "Digest": "digest", "Last": "last"}
	steps := DescribeSteps(in.Steps, names, nil, edgeflow.RunComplete)
	if len(steps) != 3 {
		t.Fatalf("steps = %+v", steps)
	}
	if !steps[0].Sensitive || string(steps[0].Output) != `"[REDACTED]"` {
		t.Errorf("sensitive step = %+v, output %s", steps[0], steps[0].Output)
	}
	if steps[1].Sensitive || string(steps[1].Output) != `"digest-abc"` {
		t.Errorf("plain step = %+v, output %s", steps[1], steps[1].Output)
	}
	// A stored step list from before (the provider's own answer, not
	// redacted by instanceOf) is redacted when described too.
	steps = DescribeSteps(json.RawMessage(`[{"type":"step","name":"Issue token","success":true,"output":"tok-4711","config":{"sensitive":"output"}}]`),
		names, nil, edgeflow.RunComplete)
	if string(steps[0].Output) != `"[REDACTED]"` {
		t.Errorf("described output = %s", steps[0].Output)
	}
	past := pastSteps(&edgeflow.Run{Steps: in.Steps}, names)
	if len(past) != 3 || !past[0].sensitive || past[1].sensitive {
		t.Fatalf("past steps = %+v", past)
	}
}
