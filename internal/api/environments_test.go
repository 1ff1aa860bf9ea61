package api_test

import (
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// TestEnvironments: a project starts with production; environments are
// created, bound, protected and deleted by admins; names that could meet a
// pinned version's are refused; a connection binds one environment; a key
// of another project and another organization see none of them (404).
func TestEnvironments(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	envs := "/api/projects/" + a.projectID + "/environments"
	if body := string(w.must(200, "GET", envs, "", a.keyAll).body); !strings.Contains(body, `"name":"production","connectionId":""`) {
		t.Fatalf("a new project's environments: %s", body)
	}
	for _, bad := range []string{"Staging", "qa-v2", "v3", "-x", strings.Repeat("a", 33)} {
		r := w.do("POST", envs, `{"name":"`+bad+`"}`, a.keyAll)
		if r.status != 422 || !strings.Contains(string(r.body), `"path":"/name"`) {
			t.Errorf("name %q: %d %s", bad, r.status, r.body)
		}
	}
	w.must(201, "POST", envs, `{"name":"staging","connectionId":"`+a.connectionID+`"}`, a.keyAll)
	w.must(409, "POST", envs, `{"name":"staging"}`, a.keyAll)
	w.must(409, "POST", envs, `{"name":"qa","connectionId":"`+a.connectionID+`"}`, a.keyAll)
	w.must(404, "POST", envs, `{"name":"qa","connectionId":"`+w.b.connectionID+`"}`, a.keyAll)
	w.must(409, "PATCH", envs+"/production", `{"connectionId":"`+a.connectionID+`"}`, a.keyAll)
	w.must(200, "PATCH", envs+"/production", `{"protected":true}`, a.keyAll)
	w.must(409, "DELETE", envs+"/production", "", a.keyAll)
	// A member may read them, not change them.
	member := a.team[edgeflow.RoleMember]
	w.must(200, "GET", envs, "", member.keyProject)
	w.must(403, "POST", envs, `{"name":"qa"}`, member.keyProject)
	w.must(403, "PATCH", envs+"/staging", `{"protected":true}`, member.keyProject)
	// Another project's key and another organization see none of them.
	w.must(404, "GET", envs, "", a.keyOtherProject)
	w.must(404, "PATCH", envs+"/staging", `{"protected":true}`, a.keyOtherProject)
	w.must(404, "GET", envs, "", w.b.keyAll)
	w.must(404, "DELETE", envs+"/staging", "", w.b.keyAll)
	w.must(204, "DELETE", envs+"/staging", "", a.keyAll)
	w.must(404, "DELETE", envs+"/staging", "", a.keyAll)
}

// TestAttackPromoteToProtected: a member's promotion, deploy, rollback and
// takedown to or from protected production are 403 before anything else is
// looked at; the admin's twin gets past the protection (to the 409 of a
// workflow not deployed there). Another organization's promotion of the workflow
// is 404.
func TestAttackPromoteToProtected(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	envs := "/api/projects/" + a.projectID + "/environments"
	w.must(201, "POST", "/api/connections", `{"provider":"local","name":"staging-edge","credentials":{}}`, a.keyAll)
	var stagingConn string
	for _, c := range w.must(200, "GET", "/api/connections", "", a.keyAll).json(t)["data"].([]any) {
		if m := c.(map[string]any); m["name"] == "staging-edge" {
			stagingConn = m["id"].(string)
		}
	}
	w.must(201, "POST", envs, `{"name":"staging","connectionId":"`+stagingConn+`"}`, a.keyAll)
	w.must(200, "PATCH", envs+"/production", `{"connectionId":"`+a.connectionID+`","protected":true}`, a.keyAll)
	member := a.team[edgeflow.RoleMember]
	promote := "/api/workflows/" + a.workflowID + "/promote"
	body := `{"from":"staging","to":"production"}`

	r := w.do("POST", promote, body, member.keyProject)
	if r.status != 403 || !strings.Contains(string(r.body), "protected") {
		t.Fatalf("a member's promotion to protected production: %d %s", r.status, r.body)
	}
	w.must(403, "POST", "/api/workflows/"+a.workflowID+"/rollback", `{"environment":"production"}`, member.keyProject)
	w.must(403, "POST", "/api/workflows/"+a.workflowID+"/deploy", `{"environment":"production"}`, member.keyProject)
	w.must(403, "POST", "/api/workflows/"+a.workflowID+"/deploy", `{"connectionId":"`+a.connectionID+`"}`, member.keyProject)
	w.must(403, "POST", "/api/workflows/"+a.workflowID+"/takedown", `{"environment":"production"}`, member.keyProject)
	w.must(403, "POST", "/api/workflows/"+a.workflowID+"/takedown", `{"connectionId":"`+a.connectionID+`"}`, member.keyProject)
	// The twin: an admin passes the protection.
	admin := a.team[edgeflow.RoleAdmin]
	w.must(409, "POST", promote, body, admin.keyProject)
	w.must(409, "POST", promote, body, a.keyAll)
	w.must(409, "POST", "/api/workflows/"+a.workflowID+"/takedown", `{"environment":"production"}`, admin.keyProject)
	// A member takes down from unprotected staging (nothing deployed there: 409, past the protection).
	w.must(409, "POST", "/api/workflows/"+a.workflowID+"/takedown", `{"environment":"staging"}`, member.keyProject)
	w.must(404, "POST", "/api/workflows/"+a.workflowID+"/takedown", `{"environment":"nowhere"}`, a.keyAll)
	w.must(422, "POST", "/api/workflows/"+a.workflowID+"/takedown", `{}`, a.keyAll)
	// Unknown environments, and another tenant's workflow.
	w.must(404, "POST", promote, `{"from":"nowhere","to":"production"}`, a.keyAll)
	w.must(422, "POST", promote, `{"from":"staging","to":"staging"}`, a.keyAll)
	w.must(404, "POST", promote, body, w.b.keyAll)
	// The refusals are audited with the release's details.
	audit := string(w.must(200, "GET", "/api/audit?action=workflow.promote", "", a.session).body)
	if !strings.Contains(audit, `"outcome":403`) || !strings.Contains(audit, `"environment":"production"`) {
		t.Fatalf("the audit of the refused promotion: %s", audit)
	}
}

// TestEnvVarValuesPerEnvironment: a secret's values per environment are
// masked one by one and "***" keeps an environment's stored value; a value
// per environment of an unknown-looking name is refused.
func TestEnvVarValuesPerEnvironment(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	r := w.must(201, "POST", "/api/env-vars", `{"name":"DB_PASSWORD","isSecret":true,"scope":"project",
		"values":{"staging":"s3cret-staging","production":"s3cret-prod"}}`, a.keyAll)
	if b := string(r.body); strings.Contains(b, "s3cret") || !strings.Contains(b, `"staging":"***"`) ||
		!strings.Contains(b, `"onlyEnvironments":true`) {
		t.Fatalf("created: %s", b)
	}
	id := r.str(t, "id")
	r = w.must(200, "PATCH", "/api/env-vars/"+id, `{"values":{"staging":"***","qa":"s3cret-qa"}}`, a.keyAll)
	if b := string(r.body); strings.Contains(b, "s3cret") || strings.Contains(b, "production") || !strings.Contains(b, `"qa":"***"`) {
		t.Fatalf("updated: %s", b)
	}
	w.must(422, "PATCH", "/api/env-vars/"+id, `{"values":{"production":"***"}}`, a.keyAll)
	w.must(422, "POST", "/api/env-vars", `{"name":"X","isSecret":false,"values":{"Prod":"1"}}`, a.keyAll)
	w.must(422, "POST", "/api/env-vars", `{"name":"X","isSecret":false}`, a.keyAll)
	// A workflow's variable: masked per environment too.
	r = w.must(200, "PATCH", "/api/workflows/"+a.workflowID,
		`{"envVars":[{"name":"TOKEN","value":"t","isSecret":true,"values":{"staging":"wf-staging-secret"}}]}`, a.keyAll)
	if b := string(r.body); strings.Contains(b, "wf-staging-secret") || !strings.Contains(b, `"staging":"***"`) {
		t.Fatalf("workflow variables: %s", b)
	}
	w.must(200, "PATCH", "/api/workflows/"+a.workflowID,
		`{"envVars":[{"name":"TOKEN","value":"***","isSecret":true,"values":{"staging":"***"}}]}`, a.keyAll)
	w.must(422, "PATCH", "/api/workflows/"+a.workflowID,
		`{"envVars":[{"name":"TOKEN","value":"***","isSecret":true,"values":{"qa":"***"}}]}`, a.keyAll)
}
