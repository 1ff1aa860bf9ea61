package api_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// Project keys stay in their project (docs/decisions.md 80): a project API
// key changes only its project's connections and variables; the
// organization-wide ones need a session.

func TestAttackProjectKeyChangesOrganizationRecords(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	before := w.snapshot(w.a)
	k := w.a.keyAll
	conn, envVar := "/api/connections/"+w.a.orgConnectionID, "/api/env-vars/"+w.a.envVarID
	for _, tc := range []struct{ method, path, body string }{
		{"PATCH", conn, `{"name":"attacker"}`},
		{"PATCH", conn, `{"credentials":{"apiToken":"` + testAPIToken("attacker") + `","accountId":"` + testAccountID("attacker") + `"}}`},
		{"PATCH", conn, `{"credentials":{"apiToken":"` + testAPIToken("attacker") + `"}}`},
		{"DELETE", conn, ``},
		{"PATCH", envVar, `{"value":"attacker-value"}`},
		{"PATCH", envVar, `{"name":"RENAMED"}`},
		{"PATCH", envVar, `{"isSecret":false,"value":"x"}`},
		{"DELETE", envVar, ``},
		// Creating organization-wide records is changing the organization too.
		{"POST", "/api/connections", `{"provider":"local","scope":"organization"}`},
		{"POST", "/api/env-vars", `{"name":"INJECTED","value":"x","isSecret":false,"scope":"organization"}`},
	} {
		r := w.do(tc.method, tc.path, tc.body, k)
		checkError(t, r, 403, "forbidden", "")
		if !strings.Contains(string(r.body), "organization-wide") || !strings.Contains(string(r.body), "session") {
			t.Errorf("%s %s %s: the refusal does not explain itself: %s", tc.method, tc.path, tc.body, r.body)
		}
	}
	// The read key is refused for its scope before anything else.
	checkError(t, w.do("DELETE", conn, "", w.a.keyRead), 403, "forbidden", "")
	if after := w.snapshot(w.a); after != before {
		t.Fatalf("refused requests changed the organization's records:\nbefore %s\nafter  %s", before, after)
	}
	c, err := w.store.FindConnectionByID(context.Background(), w.a.orgID, w.a.orgConnectionID)
	if err != nil {
		t.Fatal(err)
	}
	sealer, _ := secret.New([]byte(strings.Repeat("\x01", 32)))
	if creds, err := sealer.OpenCredentials(c); err != nil || creds.APIToken != testAPIToken("org-"+w.a.email) {
		t.Fatalf("organization connection credentials now %+v, %v", creds, err)
	}
}

func TestAttackProjectKeyChangesAnotherProjectsRecords(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	before := w.snapshot(w.a)
	other := w.a.keyOtherProject // a key of another project of the same organization
	conn, envVar := "/api/connections/"+w.a.connectionID, "/api/env-vars/"+w.a.projectEnvVarID
	for _, tc := range []struct{ method, path, body string }{
		{"PATCH", conn, `{"name":"attacker"}`},
		{"PATCH", conn, `{"credentials":{"apiToken":"` + testAPIToken("attacker") + `"}}`},
		{"DELETE", conn, ``},
		{"PATCH", envVar, `{"value":"attacker-value"}`},
		{"DELETE", envVar, ``},
		// Using the other project's connection is refused as well.
		{"GET", "/api/resources/kv/namespaces?connectionId=" + w.a.connectionID, ``},
		{"POST", "/api/resources/d1/databases/00000000-0000-4000-8000-000000000001/query", `{"connectionId":"` + w.a.connectionID + `","sql":"SELECT 1"}`},
		{"POST", "/api/workflows/" + w.a.workflowID + "/deploy", `{"connectionId":"` + w.a.connectionID + `"}`},
	} {
		checkError(t, w.do(tc.method, tc.path, tc.body, other), 404, "not_found", "")
	}
	// And the other organization's key, for completeness.
	checkError(t, w.do("PATCH", "/api/connections/"+w.a.orgConnectionID, `{"name":"x"}`, w.b.keyAll), 404, "not_found", "")
	checkError(t, w.do("PATCH", "/api/connections/"+w.a.connectionID, `{"name":"x"}`, w.b.keyAll), 404, "not_found", "")
	// The other project's lists do not show the project's records.
	for _, p := range []string{"/api/connections", "/api/env-vars"} {
		r := w.must(200, "GET", p, "", other)
		if strings.Contains(string(r.body), w.a.connectionID) || strings.Contains(string(r.body), w.a.projectEnvVarID) {
			t.Fatalf("%s of another project shows this project's records: %s", p, r.body)
		}
	}
	if after := w.snapshot(w.a); after != before {
		t.Fatalf("refused requests changed the project's records:\nbefore %s\nafter  %s", before, after)
	}
}

func TestLegitProjectKeyManagesItsProjectRecords(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.keyAll

	c := w.must(201, "POST", "/api/connections", `{"provider":"cloudflare","name":"mine","credentials":{"apiToken":"`+testAPIToken("t1")+`","accountId":"`+testAccountID("acc1")+`"}}`, k)
	id := c.str(t, "id")
	if c.str(t, "scope") != "project" || c.str(t, "projectId") != w.a.projectID {
		t.Fatalf("a key's connection is its project's: %s", c.body)
	}
	w.must(201, "POST", "/api/connections", `{"provider":"local","scope":"project"}`, k)
	r := w.must(200, "PATCH", "/api/connections/"+id, `{"name":"renamed","credentials":{"apiToken":"`+testAPIToken("t2")+`","accountId":"`+testAccountID("acc2")+`"}}`, k)
	if r.str(t, "name") != "renamed" || r.str(t, "accountId") != "…"+testAccountID("acc2")[28:] {
		t.Fatalf("patch: %s", r.body)
	}
	// The key lists its project's connections and the organization's.
	list := string(w.must(200, "GET", "/api/connections", "", w.a.keyRead).body)
	if !strings.Contains(list, id) || !strings.Contains(list, w.a.orgConnectionID) || !strings.Contains(list, `"scope":"organization"`) {
		t.Fatalf("key's connection list: %s", list)
	}
	w.must(204, "DELETE", "/api/connections/"+id, "", k)
	if list := string(w.must(200, "GET", "/api/connections", "", k).body); strings.Contains(list, id) {
		t.Fatalf("deleted connection still listed: %s", list)
	}

	v := w.must(201, "POST", "/api/env-vars", `{"name":"MINE","value":"v1","isSecret":true}`, k)
	vid := v.str(t, "id")
	if v.str(t, "scope") != "project" || v.str(t, "projectId") != w.a.projectID {
		t.Fatalf("a key's variable is its project's: %s", v.body)
	}
	w.must(200, "PATCH", "/api/env-vars/"+vid, `{"value":"v2","name":"MINE_TOO"}`, k)
	w.must(200, "PATCH", "/api/env-vars/"+w.a.projectEnvVarID, `{"value":"us"}`, k)
	// Reading the organization's variables is still allowed.
	vars := string(w.must(200, "GET", "/api/env-vars", "", w.a.keyRead).body)
	if !strings.Contains(vars, w.a.envVarID) || !strings.Contains(vars, vid) {
		t.Fatalf("key's variable list: %s", vars)
	}
	w.must(204, "DELETE", "/api/env-vars/"+vid, "", k)
}

func TestLegitSessionManagesOrganizationRecords(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := w.a.session
	r := w.must(200, "PATCH", "/api/connections/"+w.a.orgConnectionID, `{"name":"renamed","credentials":{"apiToken":"`+testAPIToken("rotated")+`"}}`, s)
	if r.str(t, "scope") != "organization" || r.str(t, "name") != "renamed" {
		t.Fatalf("session patch: %s", r.body)
	}
	w.must(200, "PATCH", "/api/env-vars/"+w.a.envVarID, `{"value":"rotated"}`, s)
	// A session's records are organization-wide unless it asks for its project.
	c := w.must(201, "POST", "/api/connections", `{"provider":"local"}`, s)
	if c.str(t, "scope") != "organization" {
		t.Fatalf("session connection: %s", c.body)
	}
	p := w.must(201, "POST", "/api/connections", `{"provider":"local","scope":"project"}`, s)
	if p.str(t, "projectId") != w.a.projectID {
		t.Fatalf("session project connection: %s", p.body)
	}
	// The session also manages the project's records.
	w.must(200, "PATCH", "/api/connections/"+w.a.connectionID, `{"name":"by session"}`, s)
	w.must(204, "DELETE", "/api/connections/"+c.str(t, "id"), "", s)
	w.must(204, "DELETE", "/api/connections/"+w.a.orgConnectionID, "", s)
	w.must(204, "DELETE", "/api/env-vars/"+w.a.envVarID, "", s)
}

// A workflow deployed on its project's connection does not move to another
// project, where that connection is out of reach; one deployed on an
// organization-wide connection does.
func TestMoveWorkflowKeepsItsConnections(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	s := w.a.session
	// The test world reaches no provider: the deployment goes straight into the store.
	d := &edgeflow.Deployment{WorkflowID: w.a.workflowID, VersionID: w.a.versionID, ConnectionID: w.a.connectionID, URL: "http://x", ScriptName: "s"}
	if err := w.store.RecordDeployment(ctx, d); err != nil {
		t.Fatal(err)
	}
	move := `{"targetProjectId":"` + w.a.otherProjectID + `"}`
	checkError(t, w.do("PATCH", "/api/workflows/"+w.a.workflowID+"/move", move, s), 409, "conflict", "")
	if _, err := w.store.RemoveDeployment(ctx, w.a.workflowID, w.a.connectionID, time.Now()); err != nil {
		t.Fatal(err)
	}
	d = &edgeflow.Deployment{WorkflowID: w.a.workflowID, VersionID: w.a.versionID, ConnectionID: w.a.orgConnectionID, URL: "http://x", ScriptName: "s"}
	if err := w.store.RecordDeployment(ctx, d); err != nil {
		t.Fatal(err)
	}
	w.must(200, "PATCH", "/api/workflows/"+w.a.workflowID+"/move", move, s)
}
