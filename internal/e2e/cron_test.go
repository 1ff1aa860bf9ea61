package e2e_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// A workflow with a cron trigger is deployed with its schedule, and the
// edge's scheduler starts an instance at a matching minute; redeploying it
// without the trigger clears the schedule. The instance the scheduler
// started is discovered as a run and completes.
func TestCronTriggerSchedules(t *testing.T) {
	requireEdge(t)
	t.Parallel()
	s := newServer(t, serverOptions{refresherInterval: 50 * time.Millisecond})
	ir := chain("cron", step("tick", "return { fired: true };"))
	// 00:05 on January 1st: the test fires it with a fake time, and the
	// edge's real-time scheduler cannot start a second instance meanwhile
	// (as "*/5 * * * *" did when the test ran across a multiple of five
	// minutes).
	const expr = "5 0 1 1 *"
	ir["trigger"] = map[string]any{"type": "cron", "expression": expr}
	id, _ := s.workflow("cron", "workflow", ir)
	d := s.deploy(id)

	if got := edgeSchedules(t, s.connectionAccount(), d.WorkflowName); len(got) != 1 || got[0] != expr {
		t.Fatalf("schedules on the edge = %v, want [%s]", got, expr)
	}
	started := fireCron(t, "2026-01-01T00:05:00Z")
	if !strings.Contains(started, d.WorkflowName) {
		t.Fatalf("the scheduler at 00:05 started %s, want an instance of %s", started, d.WorkflowName)
	}
	if started := fireCron(t, "2026-01-01T00:07:00Z"); strings.Contains(started, d.WorkflowName) {
		t.Fatalf("the scheduler at 00:07 started %s; %s must not match", started, expr)
	}

	// The instance the scheduler started becomes a run of the workflow
	// (cron discovery in the refresher loop), once, and completes with the
	// step's output.
	var found run
	testenv.WaitFor(t, 60*time.Second, 200*time.Millisecond, "the cron-started instance to be listed as a run", func() (bool, string) {
		for _, r := range s.runs(id) {
			found = r
		}
		return found.ID != "", "no run"
	})
	if found.ID == "" {
		t.Fatal("the cron-started instance never appeared in GET /api/workflows/:id/runs")
	}
	if found.InstanceID == "" || found.InstanceID == found.ID || !strings.HasPrefix(found.ID, "run_") {
		t.Fatalf("discovered run %+v: want a new run id and the provider's instance id", found)
	}
	done := s.waitStatus(id, found.ID, "complete", 60*time.Second)
	if !strings.Contains(string(done.Output), `"fired":true`) {
		t.Fatalf("output of the cron run = %s, want the step's {fired: true}", done.Output)
	}
	time.Sleep(time.Second) // let further discovery passes run
	if got := s.runs(id); len(got) != 1 {
		t.Fatalf("runs after more discovery passes = %d, want exactly 1 (no duplicates)", len(got))
	}

	delete(ir, "trigger")
	s.version(id, ir)
	s.deploy(id)
	if got := edgeSchedules(t, s.connectionAccount(), d.WorkflowName); len(got) != 0 {
		t.Fatalf("schedules after redeploying without a cron trigger = %v, want none", got)
	}
}

func edgeRequest(t *testing.T, method, url string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+shared.edge.Token())
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, body)
	}
	return body
}

func edgeSchedules(t *testing.T, account, workflow string) []string {
	t.Helper()
	body := edgeRequest(t, "GET", shared.edge.APIBaseURL()+"/accounts/"+account+"/workflows/"+workflow)
	var env struct {
		Result struct {
			Schedules []struct {
				Cron string `json:"cron"`
			} `json:"schedules"`
		} `json:"result"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("workflow %s: %v in %s", workflow, err, body)
	}
	var out []string
	for _, s := range env.Result.Schedules {
		out = append(out, s.Cron)
	}
	return out
}

// fireCron asks the edge to run the schedules due at the given minute and
// returns its answer.
func fireCron(t *testing.T, at string) string {
	t.Helper()
	base := strings.TrimSuffix(shared.edge.APIBaseURL(), "/client/v4")
	return string(edgeRequest(t, "POST", base+"/__edge/cron?time="+at))
}
