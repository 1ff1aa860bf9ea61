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

// API keys and projects (docs/api.md; docs/decisions.md 110, 111): a key belongs
// to one organization and has a home project. Its workflows (with their
// versions, deployments and runs), project connections and project variables
// are its home project's; the projects themselves are the organization's
// records, which a key lists, and with write creates, renames, deletes and
// moves its workflows between. The organization is the boundary a key never
// crosses.

// TestAttackKeyManagesAnotherOrganizationsProjects: tenant b's key, with
// every scope, cannot list, rename, delete or move anything into or out of
// tenant a's projects, however it names them; a's read key is refused the
// writes for its scope. Nothing of either organization changes.
func TestAttackKeyManagesAnotherOrganizationsProjects(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, b := w.a, w.b
	beforeA, beforeB := w.snapshot(a), w.snapshot(b)
	for _, tc := range []struct {
		method, path, body string
	}{
		// a's projects named by id, to b's key
		{"PATCH", "/api/projects/" + a.projectID, `{"name":"taken"}`},
		{"PATCH", "/api/projects/" + a.otherProjectID, `{"description":"taken"}`},
		{"DELETE", "/api/projects/" + a.otherProjectID, ``},
		{"DELETE", "/api/projects/" + a.projectID, ``},
		// b's own workflow into a's projects
		{"PATCH", "/api/workflows/" + b.workflowID + "/move", `{"targetProjectId":"` + a.projectID + `"}`},
		{"PATCH", "/api/workflows/" + b.workflowID + "/move", `{"targetProjectId":"` + a.otherProjectID + `"}`},
		// a's workflow out of a's project, into b's
		{"PATCH", "/api/workflows/" + a.workflowID + "/move", `{"targetProjectId":"` + b.otherProjectID + `"}`},
		{"PATCH", "/api/workflows/" + a.workflowID + "/move", `{"targetProjectId":"` + a.otherProjectID + `"}`},
		// selecting a's organization or project explicitly
		{"GET", "/api/projects?organizationId=" + a.orgID, ``},
		{"GET", "/api/projects?projectId=" + a.projectID, ``},
		{"POST", "/api/projects?organizationId=" + a.orgID, `{"name":"Planted"}`},
		{"PATCH", "/api/projects/" + a.otherProjectID + "?organizationId=" + a.orgID, `{"name":"taken"}`},
		{"DELETE", "/api/projects/" + a.otherProjectID + "?projectId=" + a.otherProjectID, ``},
	} {
		r := w.do(tc.method, tc.path, tc.body, b.keyAll)
		checkError(t, r, 404, "not_found", "")
		for _, id := range a.ids() {
			if strings.Contains(string(r.body), id) {
				t.Fatalf("%s %s: the refusal leaks %s: %s", tc.method, tc.path, id, r.body)
			}
		}
	}
	// b's key lists only b's organization's projects.
	list := w.must(200, "GET", "/api/projects?limit=100", "", b.keyAll)
	for _, id := range a.ids() {
		if strings.Contains(string(list.body), id) {
			t.Fatalf("b's key lists %s of a: %s", id, list.body)
		}
	}
	if !strings.Contains(string(list.body), b.projectID) || !strings.Contains(string(list.body), b.otherProjectID) {
		t.Fatalf("b's key does not list b's projects: %s", list.body)
	}
	// A project b's key creates is b's, never a's.
	planted := w.must(201, "POST", "/api/projects", `{"name":"Planted"}`, b.keyAll)
	if planted.str(t, "organizationId") != b.orgID {
		t.Fatalf("b's key created a project in %s", planted.body)
	}
	w.must(204, "DELETE", "/api/projects/"+planted.str(t, "id"), "", b.keyAll)
	if after := w.snapshot(b); after != beforeB {
		t.Fatalf("b's records changed:\nbefore %s\nafter  %s", beforeB, after)
	}

	// a's read key: the writes are refused for the scope.
	for _, tc := range []struct{ method, path, body string }{
		{"POST", "/api/projects", `{"name":"By reader"}`},
		{"PATCH", "/api/projects/" + a.otherProjectID, `{"name":"by reader"}`},
		{"DELETE", "/api/projects/" + a.otherProjectID, ``},
		{"PATCH", "/api/workflows/" + a.workflowID + "/move", `{"targetProjectId":"` + a.otherProjectID + `"}`},
	} {
		checkError(t, w.do(tc.method, tc.path, tc.body, a.keyRead), 403, "forbidden", "")
	}

	if after := w.snapshot(a); after != beforeA {
		t.Fatalf("refused requests changed a's records:\nbefore %s\nafter  %s", beforeA, after)
	}
	if wf := w.must(200, "GET", "/api/workflows/"+b.workflowID, "", b.keyRead); wf.str(t, "projectId") != b.projectID {
		t.Fatalf("b's workflow moved: %s", wf.body)
	}
	checkError(t, w.do("GET", "/api/workflows/"+a.workflowID, "", b.keyAll), 404, "not_found", "")
	if wf := w.must(200, "GET", "/api/workflows/"+a.workflowID, "", a.keyRead); wf.str(t, "projectId") != a.projectID {
		t.Fatalf("a's workflow moved: %s", wf.body)
	}
}

// TestLegitKeyManagesItsOrganizationsProjects is the twin: a key with write
// lists every project of its organization, creates, renames and deletes
// projects, and moves a workflow of its project into another one (which
// takes the workflow out of the key's reach); it keeps its own project.
func TestLegitKeyManagesItsOrganizationsProjects(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	k := a.keyAll

	// Listing: the organization's projects, oldest first, paginated, for a
	// read key as for a session.
	first := w.must(200, "GET", "/api/projects?limit=1", "", a.keyRead).json(t)
	data, next := first["data"].([]any), first["nextCursor"]
	if len(data) != 1 || data[0].(map[string]any)["id"] != a.projectID || next == nil {
		t.Fatalf("first page: %v", first)
	}
	second := w.must(200, "GET", "/api/projects?limit=1&cursor="+next.(string), "", a.keyRead).json(t)
	if data := second["data"].([]any); len(data) != 1 || data[0].(map[string]any)["id"] != a.otherProjectID || second["nextCursor"] != nil {
		t.Fatalf("second page: %v", second)
	}

	// Create, rename and describe projects other than the key's own.
	p := w.must(201, "POST", "/api/projects", `{"name":"Staging","description":"made by a key"}`, k)
	staging := p.str(t, "id")
	if p.str(t, "organizationId") != a.orgID || p.str(t, "slug") != "staging" {
		t.Fatalf("created: %s", p.body)
	}
	if r := w.must(200, "PATCH", "/api/projects/"+staging, `{"name":"Staging EU"}`, k); r.str(t, "name") != "Staging EU" || r.str(t, "description") != "made by a key" {
		t.Fatalf("renamed: %s", r.body)
	}
	w.must(200, "PATCH", "/api/projects/"+a.otherProjectID, `{"description":"touched by a key"}`, k)
	list := string(w.must(200, "GET", "/api/projects", "", w.a.session).body)
	if !strings.Contains(list, `"name":"Staging EU"`) || !strings.Contains(list, "touched by a key") {
		t.Fatalf("the session does not see the key's changes: %s", list)
	}

	// Move a workflow of the key's project into the new one: it goes with its
	// versions and leaves the key's reach.
	wf := w.must(201, "POST", "/api/workflows", `{"name":"Mover"}`, k).str(t, "id")
	v := w.submitVersion(a, wf, minimalIR)
	moved := w.must(200, "PATCH", "/api/workflows/"+wf+"/move", `{"targetProjectId":"`+staging+`"}`, k)
	if moved.str(t, "projectId") != staging || moved.str(t, "currentVersionId") != v {
		t.Fatalf("moved: %s", moved.body)
	}
	checkError(t, w.do("GET", "/api/workflows/"+wf, "", k), 404, "not_found", "")
	w.must(200, "GET", "/api/workflows/"+wf+"/versions/"+v+"?projectId="+staging, "", a.session)

	// A project holding a workflow is not deleted; once it is empty, it is.
	checkError(t, w.do("DELETE", "/api/projects/"+staging, "", k), 409, "conflict", "")
	w.must(200, "PATCH", "/api/workflows/"+wf+"/move?projectId="+staging, `{"targetProjectId":"`+a.projectID+`"}`, a.session)
	w.must(200, "GET", "/api/workflows/"+wf, "", k)
	w.must(204, "DELETE", "/api/projects/"+staging, "", k)
	checkError(t, w.do("GET", "/api/workflows?projectId="+staging, "", a.session), 404, "not_found", "")

	// Its own project, even empty, a key does not delete: the key would go with it.
	own := w.must(201, "POST", "/api/projects", `{"name":"Own"}`, a.session).str(t, "id")
	ownKey := cred{key: w.must(201, "POST", "/api/api-keys", `{"name":"own","projectId":"`+own+`","scopes":["read","write"]}`, a.session).str(t, "key")}
	r := w.do("DELETE", "/api/projects/"+own, "", ownKey)
	checkError(t, r, 409, "conflict", "")
	if !strings.Contains(r.str(t, "error"), "API key") || !strings.Contains(r.str(t, "error"), "session") {
		t.Fatalf("the refusal does not explain itself: %s", r.body)
	}
	w.must(200, "GET", "/api/projects", "", ownKey)
	// Another project's key, or a session, deletes it (with its keys).
	w.must(204, "DELETE", "/api/projects/"+own, "", k)
	checkError(t, w.do("GET", "/api/projects", "", ownKey), 401, "unauthorized", "")
}
