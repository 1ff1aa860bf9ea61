package api_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// loopIR is a workflow of one step, then a times loop of count
// iterations of a step and a sleep (docs/ir.md, "Steps per run"): 1 +
// 2 × count billed steps a run, 1 + count of them step.do calls.
func loopIR(count int) string {
	return fmt.Sprintf(`{"metadata":{"name":"Loop"},"entryNodeId":"first","nodes":[
		{"id":"first","type":"step","name":"First","data":{"code":"return 1;"}},
		{"id":"each","type":"loop","name":"Each","data":{"loopType":"times","count":%d}},
		{"id":"work","type":"step","name":"Work","data":{"code":"return 2;"}},
		{"id":"pause","type":"sleep","name":"Pause","data":{"duration":1}}],
		"edges":[{"id":"e1","source":"first","target":"each"},{"id":"e2","source":"each","target":"work","label":"body"},
		{"id":"e3","source":"work","target":"pause"}]}`, count)
}

// TestConnectionPlanRules: a connection's plan is free or paid (paid when
// omitted) and its limits stay within the plan's: steps up to 1,024 on
// Free and 25,000 on Paid, CPU up to 10 ms on Free and 5 minutes on Paid;
// anything else is 422 at the field. A plan change is checked against the
// stored limits.
func TestConnectionPlanRules(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	create := func(body string) response {
		return w.do("POST", "/api/connections", `{"provider":"local","name":"plan test"`+body+`}`, a.session)
	}
	checkError(t, create(`,"plan":"gold"`), 422, "validation_failed", "/plan")
	checkError(t, create(`,"plan":"free","limits":{"steps":2000}`), 422, "validation_failed", "/limits/steps")
	checkError(t, create(`,"plan":"free","limits":{"cpuMs":11}`), 422, "validation_failed", "/limits/cpuMs")
	checkError(t, create(`,"plan":"paid","limits":{"steps":25001}`), 422, "validation_failed", "/limits/steps")
	checkError(t, create(`,"limits":{"cpuMs":300001}`), 422, "validation_failed", "/limits/cpuMs")

	if got := create(``); got.status != 201 || got.str(t, "plan") != "paid" {
		t.Fatalf("no plan: %d %s; want 201 paid", got.status, got.body)
	}
	free := create(`,"plan":"free","limits":{"steps":1000}`)
	if free.status != 201 || free.str(t, "plan") != "free" || !strings.Contains(string(free.body), `"limits":{"steps":1000}`) {
		t.Fatalf("free with 1,000 steps: %d %s", free.status, free.body)
	}
	paid := create(`,"plan":"paid","limits":{"steps":25000,"cpuMs":300000}`)
	if paid.status != 201 {
		t.Fatalf("paid with 25,000 steps and 5 min: %d %s", paid.status, paid.body)
	}
	// Paid to free with 25,000 steps stored: refused until the limits go.
	id := paid.str(t, "id")
	checkError(t, w.do("PATCH", "/api/connections/"+id, `{"plan":"free"}`, a.session), 422, "validation_failed", "/limits/steps")
	if got := w.do("PATCH", "/api/connections/"+id, `{"plan":"free","limits":{}}`, a.session); got.status != 200 ||
		got.str(t, "plan") != "free" || strings.Contains(string(got.body), `"limits"`) {
		t.Fatalf("to free without limits: %d %s", got.status, got.body)
	}
}

// TestVersionStepWarnings: a submit answers warnings, not a refusal, when a
// run can take more steps than a plan allows (1 + 2 × 600 = 1,201 is over
// Free's 1,024; 1 + 2 × 6,000 = 12,001 over Paid's 10,000 too), naming the
// loop; a forEach over a computed collection is a warning of its own; a
// run within both plans has none.
func TestVersionStepWarnings(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	submit := func(ir string) []map[string]any {
		t.Helper()
		r := w.must(201, "POST", "/api/workflows/"+a.workflowID+"/versions", `{"ir":`+ir+`}`, a.keyAll)
		var got struct{ Warnings []map[string]any }
		if err := json.Unmarshal(r.body, &got); err != nil {
			t.Fatal(err)
		}
		return got.Warnings
	}
	if ws := submit(loopIR(10)); len(ws) != 0 {
		t.Errorf("21 steps: warnings %v", ws)
	}
	ws := submit(loopIR(600))
	if len(ws) != 1 || ws[0]["nodeId"] != "each" || ws[0]["path"] != "/nodes/1" ||
		!strings.Contains(ws[0]["message"].(string), "1201 steps") || !strings.Contains(ws[0]["message"].(string), "free plan allows 1024") {
		t.Errorf("1,201 steps: warnings %v", ws)
	}
	if ws := submit(loopIR(6000)); len(ws) != 2 || !strings.Contains(ws[1]["message"].(string), "paid plan allows 10000") {
		t.Errorf("12,001 steps: warnings %v", ws)
	}
	computed := strings.Replace(loopIR(1), `"loopType":"times","count":1`, `"loopType":"forEach","collection":"{{first}}"`, 1)
	if ws := submit(computed); len(ws) != 1 || ws[0]["nodeId"] != "each" || !strings.Contains(ws[0]["message"].(string), "no bound") {
		t.Errorf("unbounded loop: warnings %v", ws)
	}
}

// TestEstimate: the estimate of loopIR(3) (work 1 + 3 = 4 steps, billed 1 +
// 2 × 3 = 7) for a million runs, by hand: Paid 7,000,000 steps, 500,000
// included, 6,500,000 billable at $0.80 per 100,000 = $52; Free 90,000
// included, 6,910,000 it would not run, $0. With a cron trigger and flow
// control the most billed steps count the admission gate.
func TestEstimate(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	vid := w.must(201, "POST", "/api/workflows/"+a.workflowID+"/versions", `{"ir":`+loopIR(3)+`}`, a.keyAll).str(t, "id")
	free := w.must(201, "POST", "/api/connections", `{"provider":"local","name":"free","plan":"free"}`, a.session).str(t, "id")
	base := "/api/workflows/" + a.workflowID + "/estimate?runsPerMonth=1000000"
	for _, c := range []struct{ query, want string }{
		{"", `"plan":"paid","runsPerMonth":1000000,"stepsPerRun":{"min":4,"max":4},"billedStepsPerRun":{"min":7,"max":7},"monthly":{"steps":7000000,"included":500000,"billable":6500000,"usd":52}`},
		{"&versionId=" + vid + "&connectionId=" + free, `"plan":"free","runsPerMonth":1000000,"stepsPerRun":{"min":4,"max":4},"billedStepsPerRun":{"min":7,"max":7},"monthly":{"steps":7000000,"included":90000,"billable":6910000,"usd":0}`},
	} {
		r := w.must(200, "GET", base+c.query, "", a.keyRead)
		if !strings.Contains(string(r.body), c.want) || !strings.Contains(string(r.body), `"pricing":{"date":"2026-07-07"`) {
			t.Errorf("estimate%s = %s\nwant it to hold %s", c.query, r.body, c.want)
		}
	}
	// With a cron trigger and flow control, a cron start waits once at the
	// admission gate (decision 772): one more billed step at most, none
	// more at least (a triggered run skips the gate).
	cron := strings.Replace(loopIR(3), `"entryNodeId":"first",`, `"entryNodeId":"first","trigger":{"type":"cron","expression":"0 3 * * *"},`, 1)
	w.must(201, "POST", "/api/workflows/"+a.workflowID+"/versions", `{"ir":`+cron+`}`, a.keyAll)
	if r := w.must(200, "GET", base, "", a.keyRead); !strings.Contains(string(r.body), `"billedStepsPerRun":{"min":7,"max":7}`) {
		t.Errorf("cron without flow control: %s", r.body)
	}
	w.must(200, "PATCH", "/api/workflows/"+a.workflowID, `{"deployConfig":{"concurrency":1}}`, a.keyAll)
	if r := w.must(200, "GET", base, "", a.keyRead); !strings.Contains(string(r.body), `"billedStepsPerRun":{"min":7,"max":8},"monthly":{"steps":8000000,`) {
		t.Errorf("cron with flow control: %s", r.body)
	}
	checkError(t, w.do("GET", "/api/workflows/"+a.workflowID+"/estimate", "", a.keyRead), 422, "validation_failed", "?runsPerMonth")
	checkError(t, w.do("GET", base[:len(base)-7]+"-1", "", a.keyRead), 422, "validation_failed", "?runsPerMonth")
	checkError(t, w.do("GET", base+"&connectionId="+w.b.connectionID, "", a.keyRead), 404, "not_found", "")
}

// TestRetentionRule: deployConfig.retention takes durations up to 30 days;
// 31 days, or what is not a duration, is 422 at the field.
func TestRetentionRule(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	path := "/api/workflows/" + a.workflowID
	checkError(t, w.do("PATCH", path, `{"deployConfig":{"retention":{"success":"31 days"}}}`, a.keyAll), 422, "validation_failed", "/deployConfig/retention/success")
	checkError(t, w.do("PATCH", path, `{"deployConfig":{"retention":{"error":"soon"}}}`, a.keyAll), 422, "validation_failed", "/deployConfig/retention/error")
	r := w.must(200, "PATCH", path, `{"deployConfig":{"retention":{"success":"30 days","error":"86400"}}}`, a.keyAll)
	if !strings.Contains(string(r.body), `"retention":{"success":"30 days","error":"86400"}`) {
		t.Fatalf("30 days: %s", r.body)
	}
}
