package e2e_test

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// envIR is a workflow whose one step answers its version and the
// variable API_URL.
func envIR(version int) map[string]any {
	return chain("Envs",
		node("report", "step", "report", map[string]any{"code": "return { version: " + string(rune('0'+version)) + ", url: {{env.API_URL}} };"}),
	)
}

// memberKey makes a user a member of s's organization and answers an API
// key of theirs with every scope a member may hold, bound to s's project.
func (s *server) memberKey(email string) string {
	s.t.Helper()
	return s.roleKey(email, edgeflow.RoleMember)
}

// roleKey is memberKey with the role given.
func (s *server) roleKey(email string, role edgeflow.Role) string {
	s.t.Helper()
	ctx := context.Background()
	s.tenant(email)
	u, err := s.store.FindUserByEmail(ctx, email)
	if err != nil {
		s.t.Fatal(err)
	}
	if err := s.store.AddMember(ctx, &edgeflow.Membership{OrganizationID: s.orgID, UserID: u.ID, Role: role}); err != nil {
		s.t.Fatal(err)
	}
	key, prefix, hash := auth.NewAPIKey()
	k := &edgeflow.APIKey{OrganizationID: s.orgID, ProjectID: s.projID, UserID: u.ID, Name: string(role), Prefix: prefix, Hash: hash,
		Scopes: []edgeflow.Scope{edgeflow.ScopeRead, edgeflow.ScopeWrite, edgeflow.ScopeDeploy}}
	if err := s.store.CreateAPIKey(ctx, k); err != nil {
		s.t.Fatal(err)
	}
	return key
}

// as is s acting with another API key.
func (s *server) as(key string) *server {
	o := *s
	o.key = key
	return &o
}

// TestEnvironmentsPromotion (docs/environments.md): staging and production
// on two local connections of one organization (one edge account). v1 is
// deployed to staging, under names of its own, and reads API_URL, which
// production lacks: its promotion is refused (422 naming it) until
// production has a value, and a member's promotion to protected production
// is 403 while the owner's succeeds. v2 deployed to staging leaves
// production on v1; a rollback of staging returns v1 there. Runs record
// their environment, and the run list filters by it.
func TestEnvironmentsPromotion(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	stagingConn := s.must(201, "POST", "/api/connections", map[string]any{"provider": "local", "name": "staging",
		"credentials": map[string]string{}}).str("id")
	envs := "/api/projects/" + s.projID + "/environments"
	s.must(201, "POST", envs, map[string]any{"name": "staging", "connectionId": stagingConn})
	wf, _ := s.workflow("envs", "workflow", envIR(1))
	// Production is bound to nothing at first.
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/promote", map[string]any{"from": "staging", "to": "production"}), 409, "conflict")
	s.must(200, "PATCH", envs+"/production", map[string]any{"connectionId": s.conn, "protected": true})
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "API_URL", "scope": "project", "isSecret": false,
		"values": map[string]string{"staging": "https://staging.example"}})

	var d1 deployment
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"environment": "staging"}).into(&d1)
	if d1.ScriptName != codegen.ScriptName(wf+"-staging") {
		t.Fatalf("staging's deployment is named %s", d1.ScriptName)
	}
	runOn := func(env string, version int, url string) string {
		t.Helper()
		var res struct {
			ID string `json:"id"`
		}
		s.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"environment": env, "params": map[string]any{}}).into(&res)
		r := s.waitStatus(wf, res.ID, "complete", 60*time.Second)
		want := `{"version":` + string(rune('0'+version)) + `,"url":"` + url + `"}`
		if string(r.Output) != want {
			t.Fatalf("a run in %s answered %s, want %s", env, r.Output, want)
		}
		return res.ID
	}
	runOn("staging", 1, "https://staging.example")

	// Production lacks API_URL: refused, nothing deployed.
	m := wantError(t, s.do("POST", "/api/workflows/"+wf+"/promote", map[string]any{"from": "staging", "to": "production"}),
		422, "validation_failed")
	if msg, _ := m["error"].(string); !strings.Contains(msg, "API_URL") {
		t.Fatalf("the refusal does not name API_URL: %v", m)
	}
	if n := len(s.deploymentStates(wf)); n != 1 {
		t.Fatalf("a refused promotion deployed: %d deployments", n)
	}
	var vars struct {
		Data []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"data"`
	}
	s.must(200, "GET", "/api/env-vars", nil).into(&vars)
	s.must(200, "PATCH", "/api/env-vars/"+vars.Data[0].ID, map[string]any{"values": map[string]string{
		"staging": "https://staging.example", "production": "https://example.com"}})

	// A member may not promote to protected production; the owner may.
	member := s.as(s.memberKey("member-" + strings.ToLower(wf[len(wf)-6:]) + "@example.com"))
	wantError(t, member.do("POST", "/api/workflows/"+wf+"/promote", map[string]any{"from": "staging", "to": "production"}), 403, "forbidden")
	wantError(t, member.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"environment": "production"}), 403, "forbidden")
	wantError(t, member.do("POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn}), 403, "forbidden")
	var promo struct {
		Deployment struct {
			deployment
			Environment string `json:"environment"`
		} `json:"deployment"`
		EnvDiff struct {
			Missing []string `json:"missing"`
			Extra   []string `json:"extra"`
		} `json:"envDiff"`
	}
	s.must(200, "POST", "/api/workflows/"+wf+"/promote", map[string]any{"from": "staging", "to": "production"}).into(&promo)
	if promo.Deployment.VersionID != d1.VersionID || promo.Deployment.Environment != "production" ||
		promo.Deployment.ScriptName != codegen.ScriptName(wf) || len(promo.EnvDiff.Missing) != 0 || len(promo.EnvDiff.Extra) != 0 {
		t.Fatalf("promotion: %+v", promo)
	}
	prodRun := runOn("production", 1, "https://example.com")

	// v2 to staging: production still runs v1.
	s.version(wf, envIR(2))
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"environment": "staging"})
	runOn("staging", 2, "https://staging.example")
	runOn("production", 1, "https://example.com")
	// A member may deploy to unprotected staging.
	member.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"environment": "staging"})

	// Rollback of staging returns v1 there; production is untouched.
	s.must(200, "POST", "/api/workflows/"+wf+"/rollback", map[string]any{"environment": "staging"})
	runOn("staging", 1, "https://staging.example")
	wantError(t, member.do("POST", "/api/workflows/"+wf+"/rollback", map[string]any{"environment": "production"}), 403, "forbidden")

	// Runs record their environment; the list filters by it.
	var runs struct {
		Data []struct {
			ID          string `json:"id"`
			Environment string `json:"environment"`
		} `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+wf+"/runs?environment=production", nil).into(&runs)
	if len(runs.Data) != 2 || runs.Data[1].ID != prodRun || runs.Data[0].Environment != "production" {
		t.Fatalf("production's runs: %+v", runs.Data)
	}

	// The promotion is audited with who, what version and from where.
	var audit struct {
		Data []struct {
			Action  string         `json:"action"`
			Outcome int            `json:"outcome"`
			Actor   map[string]any `json:"actor"`
			Details map[string]any `json:"details"`
		} `json:"data"`
	}
	s.must(200, "GET", "/api/audit?action="+url.QueryEscape("workflow.promote"), nil).into(&audit)
	found := false
	for _, e := range audit.Data {
		if e.Action == "workflow.promote" && e.Outcome == 200 {
			found = e.Details["environment"] == "production" && e.Details["fromEnvironment"] == "staging" &&
				e.Details["versionId"] == d1.VersionID && e.Details["clientIp"] != "" && e.Actor["id"] != nil
		}
	}
	if !found {
		t.Fatalf("no audit entry of the promotion with its details: %+v", audit.Data)
	}
}

// TestCLIEnvironments: edgeflow envs create/set/ls, deploy --env, trigger
// --env, runs ls --env, promote and rollback --env against the local edge; a promotion refused for a
// missing variable exits 1 naming it.
func TestCLIEnvironments(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	s.must(201, "POST", "/api/connections", map[string]any{"provider": "local", "name": "stg-edge", "credentials": map[string]string{}})
	u.must(0, "envs", "create", "staging", "--connection", "stg-edge")
	u.must(0, "envs", "set", "production", "--connection", s.conn, "--protected", "true")
	if out := u.must(0, "envs", "ls"); !strings.Contains(out, "staging") || !strings.Contains(out, "stg-edge") ||
		!strings.Contains(out, "production") || !strings.Contains(out, "true") {
		t.Fatalf("envs ls:\n%s", out)
	}
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "API_URL", "scope": "project", "isSecret": false,
		"values": map[string]string{"staging": "https://staging.example"}})
	s.workflow("cli-envs", "workflow", envIR(1))
	u.must(0, "deploy", "cli-envs", "--env", "staging")
	// trigger --env runs in the environment; runs ls --env lists its runs only.
	if out := u.must(0, "trigger", "cli-envs", "--env", "staging", "--wait"); !strings.Contains(out, `"url": "https://staging.example"`) {
		t.Fatalf("trigger --env staging --wait:\n%s", out)
	}
	var listed []struct {
		Environment string `json:"environment"`
	}
	if err := json.Unmarshal([]byte(u.must(0, "runs", "ls", "--workflow", "cli-envs", "--env", "staging", "--json")), &listed); err != nil ||
		len(listed) != 1 || listed[0].Environment != "staging" {
		t.Fatalf("runs ls --env staging: %+v %v", listed, err)
	}
	if out := u.must(0, "runs", "ls", "--workflow", "cli-envs", "--env", "production"); !strings.Contains(out, "No runs match.") {
		t.Fatalf("runs ls --env production:\n%s", out)
	}
	if code, _, _ := u.run("", nil, "trigger", "cli-envs", "--env", "staging", "--connection", s.conn); code != 2 {
		t.Fatalf("trigger with --env and --connection: exit %d, want 2", code)
	}
	if code, _, errOut := u.run("", nil, "promote", "cli-envs", "--from", "staging", "--to", "production"); code != 1 ||
		!strings.Contains(errOut, "API_URL") {
		t.Fatalf("promote without API_URL in production: exit %d\n%s", code, errOut)
	}
	var vars struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	s.must(200, "GET", "/api/env-vars", nil).into(&vars)
	s.must(200, "PATCH", "/api/env-vars/"+vars.Data[0].ID, map[string]any{"value": "https://example.com"})
	if out := u.must(0, "promote", "cli-envs", "--from", "staging", "--to", "production"); !strings.Contains(out, "Promoted \"cli-envs\" version 1 from staging to production") {
		t.Fatalf("promote:\n%s", out)
	}
	wf := ""
	var list struct {
		Data []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"data"`
	}
	s.must(200, "GET", "/api/workflows", nil).into(&list)
	for _, w := range list.Data {
		if w.Name == "cli-envs" {
			wf = w.ID
		}
	}
	s.version(wf, envIR(2))
	u.must(0, "deploy", "cli-envs", "--env", "staging")
	if out := u.must(0, "rollback", "cli-envs", "--env", "staging"); !strings.Contains(out, "back to version 1") {
		t.Fatalf("rollback --env:\n%s", out)
	}
	if code, _, _ := u.run("", nil, "rollback", "cli-envs", "--env", "staging", "--connection", s.conn); code != 2 {
		t.Fatalf("rollback with --env and --connection: exit %d, want 2", code)
	}
}

// TestSubWorkflowStaysInItsEnvironment (docs/environments.md, "Names"): a
// parent deployed to staging starts its child's staging deployment, and in
// production its production one; the child answers its environment's
// API_URL, so the run's output says which child ran.
func TestSubWorkflowStaysInItsEnvironment(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	stagingConn := s.must(201, "POST", "/api/connections", map[string]any{"provider": "local", "name": "staging",
		"credentials": map[string]string{}}).str("id")
	envs := "/api/projects/" + s.projID + "/environments"
	s.must(201, "POST", envs, map[string]any{"name": "staging", "connectionId": stagingConn})
	s.must(200, "PATCH", envs+"/production", map[string]any{"connectionId": s.conn})
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "API_URL", "scope": "project", "isSecret": false,
		"values": map[string]string{"staging": "https://staging.example", "production": "https://example.com"}})
	child, _ := s.workflow("Child", "workflow", chain("Child", step("where", "return { url: {{env.API_URL}}, n: event.payload.n };")))
	parent, _ := s.workflow("Parent", "workflow", subWorkflowIR("Parent", child))
	for _, env := range []string{"staging", "production"} {
		for _, wf := range []string{child, parent} {
			s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"environment": env})
		}
	}
	for env, url := range map[string]string{"staging": "https://staging.example", "production": "https://example.com"} {
		id := s.must(201, "POST", "/api/workflows/"+parent+"/trigger", map[string]any{"environment": env, "params": map[string]any{}}).str("id")
		r := s.waitStatus(parent, id, "complete", 60*time.Second)
		jsonEqual(t, r.Output, `{"url":"`+url+`","n":21}`)
	}
}

// TestAttackTakedownProtected: a member's takedown from protected
// production, named by environment or by its connection, is 403 and
// changes nothing (the deployment stays active and its runs go on), and so
// is the member's delete of the workflow deployed there; the
// twin: an admin's takedown succeeds and is audited with the environment
// and the version, as the refusal is.
func TestAttackTakedownProtected(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	envs := "/api/projects/" + s.projID + "/environments"
	s.must(200, "PATCH", envs+"/production", map[string]any{"connectionId": s.conn, "protected": true})
	s.must(201, "POST", "/api/env-vars", map[string]any{"name": "API_URL", "scope": "project", "isSecret": false,
		"value": "https://example.com"})
	wf, _ := s.workflow("guarded", "workflow", envIR(1))
	var d deployment
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"environment": "production"}).into(&d)
	suffix := strings.ToLower(wf[len(wf)-6:])
	member := s.as(s.memberKey("member-" + suffix + "@example.com"))

	wantError(t, member.do("POST", "/api/workflows/"+wf+"/takedown", map[string]any{"environment": "production"}), 403, "forbidden")
	wantError(t, member.do("POST", "/api/workflows/"+wf+"/takedown", map[string]any{"connectionId": s.conn}), 403, "forbidden")
	if st := s.deploymentStates(wf)[d.ID]; st.State != "active" {
		t.Fatalf("production's deployment after a member's takedown: %+v", st)
	}
	var res struct {
		ID string `json:"id"`
	}
	s.must(201, "POST", "/api/workflows/"+wf+"/trigger", map[string]any{"environment": "production", "params": map[string]any{}}).into(&res)
	if r := s.waitStatus(wf, res.ID, "complete", 60*time.Second); string(r.Output) != `{"version":1,"url":"https://example.com"}` {
		t.Fatalf("a run after the refused takedown answered %s", r.Output)
	}

	// Deleting the workflow would take production down too: refused alike,
	// with or without ?force=true.
	wantError(t, member.do("DELETE", "/api/workflows/"+wf, nil), 403, "forbidden")
	wantError(t, member.do("DELETE", "/api/workflows/"+wf+"?force=true", nil), 403, "forbidden")
	if st := s.deploymentStates(wf)[d.ID]; st.State != "active" {
		t.Fatalf("production's deployment after a member's delete: %+v", st)
	}

	// The twin: an admin takes production down.
	admin := s.as(s.roleKey("admin-"+suffix+"@example.com", edgeflow.RoleAdmin))
	var down struct {
		Status string `json:"status"`
	}
	admin.must(200, "POST", "/api/workflows/"+wf+"/takedown", map[string]any{"environment": "production"}).into(&down)
	if st := s.deploymentStates(wf)[d.ID]; down.Status != "removed" || st.State == "active" {
		t.Fatalf("after the admin's takedown: answer %q, deployment %+v", down.Status, st)
	}
	wantError(t, s.do("POST", "/api/workflows/"+wf+"/trigger", map[string]any{"environment": "production", "params": map[string]any{}}), 409, "conflict")

	var audit struct {
		Data []struct {
			Outcome int            `json:"outcome"`
			Details map[string]any `json:"details"`
		} `json:"data"`
	}
	s.must(200, "GET", "/api/audit?action="+url.QueryEscape("workflow.takedown"), nil).into(&audit)
	outcomes := map[int]int{}
	for _, e := range audit.Data {
		if e.Details["environment"] != "production" || e.Details["protected"] != true || e.Details["connectionId"] != s.conn {
			t.Fatalf("a takedown's audit details: %+v", e.Details)
		}
		if e.Outcome == 200 && (e.Details["versionId"] != d.VersionID || e.Details["version"] != float64(1)) {
			t.Fatalf("the admin's takedown is audited without its version: %+v", e.Details)
		}
		outcomes[e.Outcome]++
	}
	if outcomes[403] != 2 || outcomes[200] != 1 {
		t.Fatalf("takedown audit outcomes: %v", outcomes)
	}
}
