package api_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// GET /api/env-vars/usage names, per workflow of the project, the global
// variables a deploy of its current version reads: {{env.NAME}} references
// the workflow does not declare itself, and declared variables (plain or
// secret) whose value is {{global.env.NAME}}; never a value.
func TestEnvVarUsage(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.keyAll
	readsIR := strings.Replace(minimalIR, `return {ok: true};`, `return {region: '{{env.REGION}}', own: '{{env.OWN}}', again: '{{env.REGION}}'};`, 1)
	reader := w.must(201, "POST", "/api/workflows", `{"name":"Reader"}`, k).str(t, "id")
	w.submitVersion(w.a, reader, readsIR)
	w.must(200, "PATCH", "/api/workflows/"+reader, `{"envVars":[
		{"name":"OWN","value":"mine","isSecret":false},
		{"name":"TOKEN","value":"{{global.env.API_TOKEN}}","isSecret":true},
		{"name":"URL","value":"{{ global.env.BASE_URL }}","isSecret":false}],
		"triggerCode":"const x = '{{env.FROM_TRIGGER}}';"}`, k)
	// another project's workflow is not listed
	other := w.must(201, "POST", "/api/workflows?projectId="+w.a.otherProjectID, `{"name":"Elsewhere"}`, w.a.session)
	_ = other

	type use struct {
		Name string `json:"name"`
		Via  string `json:"via"`
		As   string `json:"as"`
	}
	type item struct {
		WorkflowID   string `json:"workflowId"`
		WorkflowName string `json:"workflowName"`
		Kind         string `json:"kind"`
		Uses         []use  `json:"uses"`
	}
	var all []item
	cursor := ""
	for pages := 0; ; pages++ {
		path := "/api/env-vars/usage?limit=1"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		r := w.must(200, "GET", path, "", w.a.keyRead)
		if strings.Contains(string(r.body), "mine") || strings.Contains(string(r.body), "{{") {
			t.Fatalf("a value is shown: %s", r.body)
		}
		var page struct {
			Data       []item  `json:"data"`
			NextCursor *string `json:"nextCursor"`
		}
		if err := json.Unmarshal(r.body, &page); err != nil {
			t.Fatal(err)
		}
		if len(page.Data) > 1 {
			t.Fatalf("limit=1 answered %d items", len(page.Data))
		}
		all = append(all, page.Data...)
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
		if pages > 10 {
			t.Fatal("the cursor does not end")
		}
	}
	var got *item
	for i := range all {
		if all[i].WorkflowName == "Elsewhere" {
			t.Fatalf("another project's workflow is listed: %+v", all)
		}
		if all[i].WorkflowID == reader {
			got = &all[i]
		}
	}
	if got == nil || len(all) < 2 {
		t.Fatalf("the workflows are not all listed: %+v", all)
	}
	want := []use{{Name: "API_TOKEN", Via: "declared", As: "TOKEN"}, {Name: "BASE_URL", Via: "declared", As: "URL"},
		{Name: "FROM_TRIGGER", Via: "reference"}, {Name: "REGION", Via: "reference"}}
	if got.Kind != "workflow" || len(got.Uses) != len(want) {
		t.Fatalf("uses = %+v, want %+v", got.Uses, want)
	}
	for i := range want {
		if got.Uses[i] != want[i] {
			t.Fatalf("uses = %+v, want %+v", got.Uses, want)
		}
	}
	// a workflow without versions or variables reads nothing
	for _, it := range all {
		if it.WorkflowID == w.a.workflowID && len(it.Uses) != 0 {
			t.Fatalf("the fixture workflow reads %+v", it.Uses)
		}
	}
	checkError(t, w.do("GET", "/api/env-vars/usage?limit=0", "", k), 422, "validation_failed", "?limit")
	checkError(t, w.do("GET", "/api/env-vars/usage?cursor=nonsense", "", k), 422, "validation_failed", "?cursor")
}

// Deleting a connection that active deployments use is refused with each of
// them named in details; once they are gone it is deleted.
func TestConnectionDeleteNamesDeployments(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	versionID := w.submitVersion(w.a, w.a.workflowID, minimalIR)
	d := &edgeflow.Deployment{WorkflowID: w.a.workflowID, VersionID: versionID, ConnectionID: w.a.orgConnectionID,
		URL: "https://orders.example.workers.dev", ScriptName: "orders"}
	if err := w.store.RecordDeployment(ctx, d); err != nil {
		t.Fatal(err)
	}
	r := w.do("DELETE", "/api/connections/"+w.a.orgConnectionID, "", w.a.session)
	checkError(t, r, 409, "conflict", "")
	var body struct {
		Error   string `json:"error"`
		Details []struct {
			Message      string `json:"message"`
			DeploymentID string `json:"deploymentId"`
			WorkflowID   string `json:"workflowId"`
			WorkflowName string `json:"workflowName"`
			ProjectID    string `json:"projectId"`
		} `json:"details"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Details) != 1 || body.Details[0].DeploymentID != d.ID || body.Details[0].WorkflowID != w.a.workflowID ||
		body.Details[0].WorkflowName != "Orders" || body.Details[0].ProjectID != w.a.projectID ||
		!strings.Contains(body.Details[0].Message, `"Orders"`) || !strings.Contains(body.Error, "take it down") {
		t.Fatalf("refusal: %s", r.body)
	}
	if _, err := w.store.RemoveDeployment(ctx, w.a.workflowID, w.a.orgConnectionID, d.CreatedAt); err != nil {
		t.Fatal(err)
	}
	w.must(204, "DELETE", "/api/connections/"+w.a.orgConnectionID, "", w.a.session)
}
