package deploy

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func TestPlaceMockedFollowsTheGraphOrder(t *testing.T) {
	ir := json.RawMessage(`{"nodes":[{"id":"a"},{"id":"b"},{"id":"c"},{"id":"d"}]}`)
	steps := []edgeflow.RunStep{
		{NodeID: "b", State: edgeflow.StepReplayed},
		{NodeID: "d", State: edgeflow.StepReplayed},
		{NodeID: "a", State: edgeflow.StepComplete},
		{NodeID: "c", State: edgeflow.StepComplete},
	}
	var got []string
	for _, s := range placeMocked(steps, ir) {
		got = append(got, s.NodeID+":"+s.State)
	}
	if strings.Join(got, " ") != "a:complete b:mocked c:complete d:mocked" {
		t.Errorf("order = %v", got)
	}
}

func TestMockReplayRefusesWhatIsNotAStep(t *testing.T) {
	v := &edgeflow.Version{Number: 3, IR: json.RawMessage(`{"metadata":{"name":"x"},"nodes":[
		{"id":"load","type":"step","name":"Load","data":{"code":"return 1;"}},
		{"id":"pick","type":"branch","name":"Pick","data":{}}],"edges":[],"entryNodeId":"load"}`)}
	replay, shown, err := mockReplay(v, map[string]json.RawMessage{"load": json.RawMessage(`{"n":1}`)})
	if err != nil || len(replay) != 1 || len(shown) != 1 || shown[0].NodeID != "load" {
		t.Fatalf("mockReplay = %v %v %v", replay, shown, err)
	}
	for name := range replay {
		if string(replay[name]) != `{"n":1}` {
			t.Errorf("replay[%s] = %s", name, replay[name])
		}
	}
	_, _, err = mockReplay(v, map[string]json.RawMessage{"pick": json.RawMessage(`1`), "ghost": json.RawMessage(`1`), "a/b": json.RawMessage(`1`)})
	e, ok := err.(*edgeflow.Error)
	if !ok || e.Code != edgeflow.EInvalid {
		t.Fatalf("err = %v", err)
	}
	details, _ := json.Marshal(e.Details)
	for _, want := range []string{`/mocks/pick`, `/mocks/ghost`, `/mocks/a~1b`} {
		if !strings.Contains(string(details), want) {
			t.Errorf("details %s lack %s", details, want)
		}
	}
}

func TestWithPinsLeavesOutWhatTheIRDoesNotRun(t *testing.T) {
	v := &edgeflow.Version{IR: json.RawMessage(`{"metadata":{"name":"x"},"nodes":[
		{"id":"load","type":"step","name":"Load","data":{"code":"return 1;"}},
		{"id":"pick","type":"branch","name":"Pick","data":{"branches":[{"label":"a","condition":""}]}},
		{"id":"send","type":"step","name":"Send","data":{"code":"return 2;"}}],
		"edges":[{"id":"e1","source":"load","target":"pick"},{"id":"e2","source":"pick","target":"send","label":"a"}],"entryNodeId":"load"}`)}
	pins := map[string]json.RawMessage{
		"send": json.RawMessage(`{"pinned":true}`), "load": json.RawMessage(`1`),
		"pick": json.RawMessage(`2`), "gone": json.RawMessage(`3`),
	}
	mocks := map[string]json.RawMessage{"load": json.RawMessage(`"mock"`)}
	out, used := withPins(v, mocks, pins)
	if strings.Join(used, ",") != "send" {
		t.Errorf("pins used = %v, want send only (load is mocked, pick is no step, gone is no node)", used)
	}
	if len(out) != 2 || string(out["load"]) != `"mock"` || string(out["send"]) != `{"pinned":true}` {
		t.Errorf("mocks with pins = %v", out)
	}
	if len(mocks) != 1 {
		t.Errorf("the request's mocks were changed: %v", mocks)
	}
	if out, used := withPins(v, mocks, nil); len(used) != 0 || len(out) != 1 {
		t.Errorf("without pins: %v %v", out, used)
	}
}
