package e2e_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestTriggerBatch: a batch of 100 runs with three bad entries (params that
// are not an object, an id that is not an instance id, an id named twice)
// answers 97 created and the three errors by index; the created runs are
// recorded with the instance ids asked for, and they complete on the local
// edge, which created them through its batch create.
func TestTriggerBatch(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	wf, _ := s.workflow("Batch", "workflow", chain("Batch", step("echo", "return {n: {{event.payload.n}}};")))
	s.deploy(wf)

	runs := make([]map[string]any, 100)
	for i := range runs {
		runs[i] = map[string]any{"params": map[string]any{"n": i}}
	}
	runs[10]["params"] = "not an object"
	runs[50]["id"] = "bad id!"
	runs[76]["id"] = "order-76"
	runs[77]["id"] = "order-76"
	r := s.must(201, "POST", "/api/workflows/"+wf+"/trigger/batch", map[string]any{"connectionId": s.conn, "runs": runs})
	var got struct {
		Created []struct {
			Index      int    `json:"index"`
			ID         string `json:"id"`
			InstanceID string `json:"instanceId"`
		} `json:"created"`
		Errors []struct {
			Index   int    `json:"index"`
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Created) != 97 || len(got.Errors) != 3 {
		t.Fatalf("created %d, errors %d: %s", len(got.Created), len(got.Errors), r.body)
	}
	for k, want := range []struct {
		index int
		path  string
	}{{10, "/runs/10/params"}, {50, "/runs/50/id"}, {77, "/runs/77/id"}} {
		e := got.Errors[k]
		if e.Index != want.index || e.Code != "validation_failed" || !strings.HasPrefix(e.Message, want.path) {
			t.Errorf("error %d = %+v; want index %d, validation_failed at %s", k, e, want.index, want.path)
		}
	}
	byIndex := map[int]string{}
	for _, c := range got.Created {
		byIndex[c.Index] = c.ID
		if c.Index == 76 && c.InstanceID != "order-76" {
			t.Errorf("entry 76: instance %q, want order-76", c.InstanceID)
		}
		if c.Index != 76 && c.InstanceID != c.ID {
			t.Errorf("entry %d: instance %q, want the run id %q", c.Index, c.InstanceID, c.ID)
		}
	}
	for _, i := range []int{0, 76, 99} {
		done := s.waitStatus(wf, byIndex[i], "complete", 120*time.Second)
		jsonEqual(t, done.Output, fmt.Sprintf(`{"n":%d}`, i))
	}
	var list struct {
		Data []run `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/runs?limit=100", nil).into(&list)
	if len(list.Data) != 97 {
		t.Errorf("the workflow has %d runs, want 97", len(list.Data))
	}

	// The same id again is refused by index: a run has it.
	again := s.must(201, "POST", "/api/workflows/"+wf+"/trigger/batch", map[string]any{"connectionId": s.conn,
		"runs": []map[string]any{{"params": map[string]any{"n": 1}, "id": "order-76"}, {"params": map[string]any{"n": 2}}}})
	if !strings.Contains(string(again.body), `"errors":[{"index":0,"code":"conflict"`) || !strings.Contains(string(again.body), `"created":[{"index":1,`) {
		t.Errorf("a taken id: %s", again.body)
	}
}

// TestPlanLimitsAtDeploy: a version whose runs can take 1 + 2 × 600 = 1,201
// steps is refused (422, naming the loop) on a connection of the Free plan
// and deployed on the same edge through a Paid one.
func TestPlanLimitsAtDeploy(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	ir := chain("Heavy", step("first", "return 1;"),
		node("each", "loop", "Each", map[string]any{"loopType": "times", "count": 600}))
	ir["nodes"] = append(ir["nodes"].([]any), step("work", "return 2;"), node("pause", "sleep", "Pause", map[string]any{"duration": 0}))
	ir["edges"] = append(ir["edges"].([]any),
		map[string]any{"id": "b1", "source": "each", "target": "work", "label": "body"},
		map[string]any{"id": "b2", "source": "work", "target": "pause"})
	wf, _ := s.workflow("Heavy", "workflow", ir)
	free := s.must(201, "POST", "/api/connections", map[string]any{"provider": "local", "name": "free edge", "plan": "free", "credentials": map[string]string{}}).str("id")
	r := s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": free})
	e := wantError(t, r, 422, "validation_failed")
	if !strings.Contains(fmt.Sprint(e), "/nodes/1") || !strings.Contains(string(r.body), `node \"each\"`) || !strings.Contains(string(r.body), "1201 steps") {
		t.Fatalf("free plan deploy: %s", r.body)
	}
	// The harness's connection is Paid by default: the deploy goes through
	// and sets the workflow's retention on the edge's Workflow.
	s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"deployConfig": map[string]any{"retention": map[string]any{"success": "1 day", "error": "30 days"}}})
	d := s.deploy(wf)
	req, _ := http.NewRequest("GET", shared.edge.APIBaseURL()+"/accounts/"+s.connectionAccount()+"/workflows/"+d.WorkflowName, nil)
	req.Header.Set("Authorization", "Bearer "+shared.edge.Token())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var got struct {
		Result struct {
			DefaultRetention map[string]int64 `json:"default_retention"`
		} `json:"result"`
	}
	if err := json.NewDecoder(res.Body).Decode(&got); err != nil || got.Result.DefaultRetention["success_retention"] != 86_400_000 ||
		got.Result.DefaultRetention["error_retention"] != 30*86_400_000 {
		t.Fatalf("the edge's Workflow: %+v, %v", got.Result, err)
	}
}

// TestCLIBatchAndPlan: `edgeflow trigger W --batch FILE.jsonl` starts a run
// per line and names the refused line (exit 1); `edgeflow deploy --plan`
// prints the estimate (two steps a run, a million runs: 2,000,000 steps,
// 1,500,000 billable, $12.00) and deploys nothing.
func TestCLIBatchAndPlan(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	wf, _ := s.workflow("lines", "workflow", chain("lines", step("one", "return 1;"), step("two", "return 2;")))

	out := u.must(0, "deploy", "lines", "--connection", "edge", "--plan", "--runs-per-month", "1000000")
	for _, want := range []string{"nothing was deployed", "paid plan", "steps per run:        2", "2000000 steps, 500000 included, 1500000 billable: $12.00", "pricing of 2026-07-07"} {
		if !strings.Contains(out, want) {
			t.Errorf("deploy --plan: no %q in\n%s", want, out)
		}
	}
	var deps struct{ Data []any }
	s.must(200, "GET", "/api/workflows/"+wf+"/deployments", nil).into(&deps)
	if len(deps.Data) != 0 {
		t.Fatalf("deploy --plan deployed: %+v", deps.Data)
	}

	u.must(0, "deploy", "lines", "--connection", "edge")
	u.write("runs.jsonl", []byte("{\"params\": {\"n\": 1}}\n\n{\"params\": [1]}\n{\"params\": {\"n\": 3}, \"id\": \"line-three\"}\n"))
	code, out, errOut := u.run("", nil, "trigger", "lines", "--batch", "runs.jsonl")
	if code != 1 || !strings.Contains(out, "2 runs started, 1 lines refused") || !strings.Contains(out, "line 3: validation_failed") ||
		!strings.Contains(out, "(instance line-three)") {
		t.Fatalf("trigger --batch: exit %d\n%s%s", code, out, errOut)
	}
}
