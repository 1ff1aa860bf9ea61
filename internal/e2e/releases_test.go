package e2e_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// releaseIR is the workflow of the pinning tests: a step, a wait for the
// "approval" event, and a step whose output names the version. name is
// the first step's name (its durable step's identity); version what the
// last step answers.
func releaseIR(name string, version int) map[string]any {
	return chain("Release",
		node("prepare", "step", name, map[string]any{"code": "return { ready: true };"}),
		node("approval", "wait_for_event", "approval", map[string]any{"eventType": "approval", "timeout": "1 hour"}),
		node("finish", "step", "finish", map[string]any{"code": "return { version: " + string(rune('0'+version)) + " };"}),
	)
}

type deploymentState struct {
	ID           string `json:"id"`
	VersionID    string `json:"versionId"`
	ScriptName   string `json:"scriptName"`
	URL          string `json:"url"`
	State        string `json:"state"`
	InFlight     *int   `json:"inFlight"`
	VersionNumbr int    `json:"versionNumber"`
}

func (s *server) deploymentStates(wf string) map[string]deploymentState {
	s.t.Helper()
	var page struct {
		Data []deploymentState `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/deployments", nil).into(&page)
	out := map[string]deploymentState{}
	for _, d := range page.Data {
		out[d.ID] = d
	}
	return out
}

// TestReleasesPinning (docs/releases.md): a run of v1 waits for an event; v2
// renames the step before the wait and changes the step after it. The plan
// says compatible: false naming the renamed step, and migrate is refused
// with the plan; the default deploy (pin) puts v2 beside v1: the event
// finishes the v1 run with v1's output while a new trigger runs v2, and v1's
// worker is retired once its run ended. A compatible change deployed with
// migrate then finishes a waiting run on the new code, and drain holds
// triggers until the old run ends.
func TestReleasesPinning(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{refresherInterval: 200 * time.Millisecond})
	wf, _ := s.workflow("Release", "workflow", releaseIR("prepare", 1))
	d1 := s.deploy(wf)
	old := s.trigger(wf, map[string]any{})
	s.waitWaiting(wf, old)

	ver2 := s.version(wf, releaseIR("prepare the order", 2))
	var plan deploy.DeployPlan
	s.must(200, "GET", "/api/workflows/"+wf+"/deploy-plan?connectionId="+s.conn+"&versionId="+ver2, nil).into(&plan)
	if plan.Compatible || plan.InFlight.Total != 1 || len(plan.InFlight.ByVersion) != 1 || plan.InFlight.ByVersion[0].Number != 1 {
		t.Fatalf("plan of v2: %+v", plan)
	}
	kinds := map[string]string{}
	for _, c := range plan.Changes {
		kinds[c.NodeID] += c.Kind + " "
	}
	if !strings.Contains(kinds["prepare"], "renamed") || !strings.Contains(kinds["finish"], "code-changed") ||
		len(plan.Reasons) != 1 || !strings.Contains(plan.Reasons[0], `"prepare"`) {
		t.Fatalf("plan of v2: changes %+v, reasons %q", plan.Changes, plan.Reasons)
	}

	// migrate is refused with the plan; nothing is deployed.
	m := wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": ver2,
		"inFlight": "migrate"}), 409, "conflict")
	if det, _ := m["details"].(map[string]any); det == nil || det["compatible"] != false {
		t.Fatalf("migrate refusal: %v", m)
	}
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": ver2,
		"inFlight": "sideways"}), 422, "validation_failed")

	// The default pins: v2 gets its own worker and Workflow.
	var d2 deployment
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": ver2}).into(&d2)
	if d2.ScriptName != deploy.VersionedName(wf, 2) || d2.WorkflowName != d2.ScriptName || d1.ScriptName == d2.ScriptName {
		t.Fatalf("v2 deployed as %+v beside v1 %+v", d2, d1)
	}
	states := s.deploymentStates(wf)
	if st := states[d1.ID]; st.State != "draining" || st.InFlight == nil || *st.InFlight != 1 {
		t.Fatalf("v1 after the deploy of v2: %+v", st)
	}
	if st := states[d2.ID]; st.State != "active" || st.VersionNumbr != 2 {
		t.Fatalf("v2: %+v", st)
	}

	fresh := s.trigger(wf, map[string]any{})
	s.waitWaiting(wf, fresh)
	s.approve(wf, fresh, "e2e")
	if r := s.waitStatus(wf, fresh, "complete", 60*time.Second); string(r.Output) != `{"version":2}` {
		t.Fatalf("the new run's output: %s", r.Output)
	}
	s.approve(wf, old, "e2e")
	if r := s.waitStatus(wf, old, "complete", 60*time.Second); string(r.Output) != `{"version":1}` {
		t.Fatalf("the v1 run's output: %s (it must finish on v1)", r.Output)
	}

	// v1 is retired: its worker is gone from the edge.
	testenv.WaitFor(t, 60*time.Second, 200*time.Millisecond, "v1 retired", func() (bool, string) {
		st := s.deploymentStates(wf)[d1.ID]
		return st.State == "retired", st.State
	})
	if res, err := http.Get(d1.URL); err != nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("v1's worker after retirement: %v %v", res, err)
	}

	// A compatible change with migrate: the waiting run finishes on the new code.
	waiting := s.trigger(wf, map[string]any{})
	s.waitWaiting(wf, waiting)
	ver3 := s.version(wf, releaseIR("prepare the order", 3))
	s.must(200, "GET", "/api/workflows/"+wf+"/deploy-plan?connectionId="+s.conn+"&versionId="+ver3, nil).into(&plan)
	if !plan.Compatible {
		t.Fatalf("plan of v3: %+v", plan)
	}
	var d3 deployment
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": ver3,
		"inFlight": "migrate"}).into(&d3)
	if d3.ScriptName != d2.ScriptName {
		t.Fatalf("migrate put v3 at %s, not over v2 at %s", d3.ScriptName, d2.ScriptName)
	}
	s.approve(wf, waiting, "e2e")
	if r := s.waitStatus(wf, waiting, "complete", 60*time.Second); string(r.Output) != `{"version":3}` {
		t.Fatalf("the migrated run's output: %s", r.Output)
	}

	// drain: triggers are held until the old run ends, then the deploy completes.
	held := s.trigger(wf, map[string]any{})
	s.waitWaiting(wf, held)
	ver4 := s.version(wf, releaseIR("prepare the order", 4))
	sawHold := false
	status, frames := s.deployStream(wf, map[string]any{"connectionId": s.conn, "versionId": ver4, "inFlight": "drain"}, func(f sseFrame) bool {
		if f.event == "progress" && strings.Contains(f.data, "Draining") && !sawHold {
			sawHold = true
			wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"connectionId": s.conn, "params": map[string]any{}}),
				409, "draining")
			wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger/batch", map[string]any{"connectionId": s.conn,
				"runs": []any{map[string]any{"params": map[string]any{}}}}), 409, "draining")
			s.approve(wf, held, "e2e")
		}
		return true
	})
	if status != 200 || !sawHold || len(frames) == 0 || frames[len(frames)-1].event != "result" {
		t.Fatalf("drain deploy: %d, held %v, frames %+v", status, sawHold, frames)
	}
	var d4 deployment
	json.Unmarshal([]byte(frames[len(frames)-1].data), &d4)
	if r := s.run(wf, held); r.Status != "complete" || string(r.Output) != `{"version":3}` {
		t.Fatalf("the drained run: %+v", r)
	}
	after := s.trigger(wf, map[string]any{})
	s.waitWaiting(wf, after)
	s.approve(wf, after, "e2e")
	if r := s.waitStatus(wf, after, "complete", 60*time.Second); string(r.Output) != `{"version":4}` || d4.ScriptName != d2.ScriptName {
		t.Fatalf("after the drain: %s on %s", r.Output, d4.ScriptName)
	}
}

// TestCLIDeployPlan: `edgeflow deploy --plan` prints the plan and deploys
// nothing; --in-flight migrate of an incompatible version is refused (1), a
// bad --in-flight is a usage error (2); a deploy prints the plan's summary
// first and pins the waiting run.
func TestCLIDeployPlan(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	wf, ver1 := s.workflow("cli-release", "workflow", releaseIR("prepare", 1))
	s.deploy(wf)
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/rollback", map[string]any{"connectionId": s.conn}), 409, "conflict")
	old := s.trigger(wf, map[string]any{})
	s.waitWaiting(wf, old)
	ver2 := s.version(wf, releaseIR("prepare the order", 2))

	out := u.must(0, "deploy", "cli-release", "--connection", s.conn, "--plan")
	if !strings.Contains(out, "Plan for version 2: 1 runs in flight; not compatible") || !strings.Contains(out, "renamed") ||
		!strings.Contains(out, "version 1: 1 in flight") {
		t.Fatalf("deploy --plan:\n%s", out)
	}
	if n := len(s.deploymentStates(wf)); n != 1 {
		t.Fatalf("--plan deployed something: %d deployments", n)
	}
	if code, _, errOut := u.run("", nil, "deploy", "cli-release", "--connection", s.conn, "--in-flight", "migrate"); code != 1 ||
		!strings.Contains(errOut, "cannot move onto this version") {
		t.Fatalf("migrate: exit %d %s", code, errOut)
	}
	u.must(2, "deploy", "cli-release", "--connection", s.conn, "--in-flight", "sideways")
	out = u.must(0, "deploy", "cli-release", "--connection", s.conn)
	if !strings.Contains(out, "Plan for version 2: 1 runs in flight") || !strings.Contains(out, deploy.VersionedName(wf, 2)) {
		t.Fatalf("deploy:\n%s", out)
	}

	// Rollback deploys the version active before the current one, back and forth.
	var back deployment
	s.must(200, "POST", "/api/workflows/"+wf+"/rollback", map[string]any{"connectionId": s.conn}).into(&back)
	if back.VersionID != ver1 {
		t.Fatalf("rollback deployed %s, want v1 %s", back.VersionID, ver1)
	}
	if out := u.must(0, "rollback", "cli-release", "--connection", s.conn); !strings.Contains(out, "back to version 2") {
		t.Fatalf("edgeflow rollback:\n%s", out)
	}
	var latest struct {
		Data []deployment `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/deployments?limit=1", nil).into(&latest)
	if len(latest.Data) != 1 || latest.Data[0].VersionID != ver2 {
		t.Fatalf("the second rollback deployed %+v, want v2 %s", latest.Data, ver2)
	}
}
