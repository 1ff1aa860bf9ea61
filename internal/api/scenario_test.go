package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
)

func TestSignUpSignInSignOut(t *testing.T) {
	t.Parallel()
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Global: 1000, Verify: 1000}})
	_, r := w.signUp("carol@example.com")
	m := r.json(t)
	if m["csrfToken"] == "" || m["activeProjectId"] == "" || len(m["organizations"].([]any)) != 1 {
		t.Fatalf("sign-up answer: %s", r.body)
	}
	setCookie := r.header.Get("Set-Cookie")
	for _, attr := range []string{"HttpOnly", "SameSite=Lax", "Path=/", "Max-Age="} {
		if !strings.Contains(setCookie, attr) {
			t.Errorf("session cookie %q lacks %s", setCookie, attr)
		}
	}
	checkError(t, w.do("POST", "/api/auth/sign-up", `{"email":"CAROL@example.com","password":"password-2"}`, cred{}), 409, "conflict", "")
	checkError(t, w.do("POST", "/api/auth/sign-in", `{"email":"carol@example.com","password":"wrong-password"}`, cred{}), 401, "unauthorized", "")
	checkError(t, w.do("POST", "/api/auth/sign-in", `{"email":"nobody@example.com","password":"password-1"}`, cred{}), 401, "unauthorized", "")
	checkError(t, w.do("POST", "/api/auth/sign-up", `{"email":"d@example.com","password":"short"}`, cred{}), 422, "validation_failed", "/password")

	r = w.must(200, "POST", "/api/auth/sign-in", `{"email":"carol@example.com","password":"password-1"}`, cred{})
	var sess cred
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		sess.cookie = c.Value
	}
	sess.csrf = r.str(t, "csrfToken")
	got := w.must(200, "GET", "/api/auth/session", "", sess).json(t)
	if got["user"].(map[string]any)["email"] != "carol@example.com" || got["activeOrganizationId"] != m["activeOrganizationId"] {
		t.Fatalf("session: %v", got)
	}
	// The database holds only the token's hash.
	if _, err := w.store.FindSessionByTokenHash(context.Background(), []byte(sess.cookie), w.api.Now()); !edgeflow.IsNotFound(err) {
		t.Fatalf("session found by its raw token: %v", err)
	}
	w.must(204, "POST", "/api/auth/sign-out", "", sess)
	checkError(t, w.do("GET", "/api/auth/session", "", sess), 401, "unauthorized", "")
}

func TestSessionActiveAndOverrides(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	// b becomes a member of a's organization.
	if err := w.store.AddMember(ctx, &edgeflow.Membership{OrganizationID: w.a.orgID, UserID: w.b.userID, Role: edgeflow.RoleMember}); err != nil {
		t.Fatal(err)
	}
	// Override per request.
	r := w.must(200, "GET", "/api/workflows?organizationId="+w.a.orgID, "", w.b.session)
	if !strings.Contains(string(r.body), w.a.workflowID) {
		t.Fatalf("override did not select a's organization: %s", r.body)
	}
	r = w.must(200, "GET", "/api/workflows?organizationId="+w.a.orgID+"&projectId="+w.a.otherProjectID, "", w.b.session)
	if strings.Contains(string(r.body), w.a.workflowID) {
		t.Fatalf("project override ignored: %s", r.body)
	}
	// Without an override b still sees its own organization.
	if r := w.must(200, "GET", "/api/workflows", "", w.b.session); !strings.Contains(string(r.body), w.b.workflowID) {
		t.Fatalf("b's own list: %s", r.body)
	}
	// Switch the active organization and project.
	checkError(t, w.do("PUT", "/api/session/active", `{"organizationId":"org_nope"}`, w.b.session), 404, "not_found", "")
	checkError(t, w.do("PUT", "/api/session/active", fmt.Sprintf(`{"organizationId":%q,"projectId":%q}`, w.a.orgID, w.b.projectID), w.b.session), 404, "not_found", "")
	r = w.must(200, "PUT", "/api/session/active", fmt.Sprintf(`{"organizationId":%q}`, w.a.orgID), w.b.session)
	if r.str(t, "activeOrganizationId") != w.a.orgID || r.str(t, "activeProjectId") != w.a.projectID {
		t.Fatalf("active: %s", r.body)
	}
	if r := w.must(200, "GET", "/api/workflows", "", w.b.session); !strings.Contains(string(r.body), w.a.workflowID) {
		t.Fatalf("after switching: %s", r.body)
	}
	w.must(200, "PUT", "/api/session/active", fmt.Sprintf(`{"organizationId":%q,"projectId":%q}`, w.a.orgID, w.a.otherProjectID), w.b.session)
	if s := w.must(200, "GET", "/api/auth/session", "", w.b.session); s.str(t, "activeProjectId") != w.a.otherProjectID {
		t.Fatalf("session: %s", s.body)
	}
}

func TestProjects(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := w.a.session
	r := w.must(201, "POST", "/api/projects", `{"name":"Billing","slug":"billing","description":"money"}`, s)
	id := r.str(t, "id")
	if r.str(t, "slug") != "billing" || r.str(t, "organizationId") != w.a.orgID {
		t.Fatalf("create: %s", r.body)
	}
	checkError(t, w.do("POST", "/api/projects", `{"name":"Billing 2","slug":"billing"}`, s), 409, "conflict", "")
	checkError(t, w.do("POST", "/api/projects", `{"name":"x","slug":"-bad-"}`, s), 422, "validation_failed", "/slug")
	// docs/api.md: keys with write manage the organization's projects
	// (keyscope_test.go has the attacks and the details).
	byKey := w.must(201, "POST", "/api/projects", `{"name":"By key"}`, w.a.keyAll).str(t, "id")
	checkError(t, w.do("POST", "/api/projects", `{"name":"By reader"}`, w.a.keyRead), 403, "forbidden", "")
	w.must(204, "DELETE", "/api/projects/"+byKey, "", w.a.keyAll)
	checkError(t, w.do("DELETE", "/api/projects/"+byKey, "", s), 404, "not_found", "")
	checkError(t, w.do("PATCH", "/api/projects/"+id, `{"slug":"other"}`, s), 422, "validation_failed", "/slug")
	r = w.must(200, "PATCH", "/api/projects/"+id, `{"name":"Billing EU","description":""}`, s)
	if r.str(t, "name") != "Billing EU" || r.str(t, "slug") != "billing" {
		t.Fatalf("update: %s", r.body)
	}
	// A key lists the organization's projects, as the session does, and
	// updates any of them.
	r = w.must(200, "GET", "/api/projects", "", w.a.keyAll)
	if r.str(t, "nextCursor") != "" || string(r.body) != string(w.must(200, "GET", "/api/projects", "", s).body) {
		t.Fatalf("key's project list differs from the session's: %s", r.body)
	}
	if data := r.json(t)["data"].([]any); len(data) != 3 || data[0].(map[string]any)["id"] != w.a.projectID {
		t.Fatalf("key's project list: %s", r.body)
	}
	w.must(200, "PATCH", "/api/projects/"+id, `{"description":"by key"}`, w.a.keyAll)
	w.must(200, "PATCH", "/api/projects/"+w.a.projectID, `{"description":"main"}`, w.a.keyAll)
	// A project holding workflows cannot be deleted.
	checkError(t, w.do("DELETE", "/api/projects/"+w.a.projectID, "", s), 409, "conflict", "")
	w.must(204, "DELETE", "/api/projects/"+id, "", s)
	checkError(t, w.do("DELETE", "/api/projects/"+id, "", s), 404, "not_found", "")
}

func TestWorkflows(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.keyAll
	r := w.must(201, "POST", "/api/workflows", `{"name":"Resize","kind":"script"}`, k)
	id := r.str(t, "id")
	if r.str(t, "kind") != "script" || r.str(t, "projectId") != w.a.projectID {
		t.Fatalf("create: %s", r.body)
	}
	if r := w.must(201, "POST", "/api/workflows", `{"name":"Default kind"}`, k); r.str(t, "kind") != "workflow" {
		t.Fatalf("default kind: %s", r.body)
	}
	checkError(t, w.do("POST", "/api/workflows", `{"name":"x","kind":"cron"}`, k), 422, "validation_failed", "/kind")
	checkError(t, w.do("PATCH", "/api/workflows/"+id, `{"kind":"workflow"}`, k), 422, "validation_failed", "/kind")

	patch := `{"name":"Resize v2","description":"imgs","triggerCode":"return new Response('ok')",
		"envVars":[{"name":"PLAIN","value":"p","isSecret":false},{"name":"SECRET_KEY","value":"s3cr3t-value","isSecret":true}],
		"dependencies":{"lodash":"^4.17.21","@scope/pkg":"1.x"},
		"deployConfig":{"route":{"pattern":"example.com/img/*","zoneName":"example.com"}}}`
	r = w.must(200, "PATCH", "/api/workflows/"+id, patch, k)
	if strings.Contains(string(r.body), "s3cr3t-value") {
		t.Fatalf("secret in the answer: %s", r.body)
	}
	var got edgeflow.Workflow
	json.Unmarshal(r.body, &got)
	if got.Name != "Resize v2" || got.TriggerCode == "" || got.Dependencies["lodash"] != "^4.17.21" ||
		got.DeployConfig == nil || got.DeployConfig.Route.ZoneName != "example.com" || len(got.EnvVars) != 2 ||
		got.EnvVars[1].Value != "***" || got.EnvVars[0].Value != "p" {
		t.Fatalf("patched: %s", r.body)
	}
	sealer, _ := secret.New([]byte(strings.Repeat("\x01", 32)))
	stored, err := w.store.FindWorkflowByID(context.Background(), w.a.projectID, id)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stored.EnvVars[1].Value, "s3cr3t") {
		t.Fatal("secret stored in clear")
	}
	if v, err := sealer.OpenWorkflowEnvVar(id, stored.EnvVars[1]); err != nil || v != "s3cr3t-value" {
		t.Fatalf("stored secret opens to %q, %v", v, err)
	}
	// "***" keeps the stored secret; a new secret needs a value.
	w.must(200, "PATCH", "/api/workflows/"+id, `{"envVars":[{"name":"SECRET_KEY","value":"***","isSecret":true}]}`, k)
	stored, _ = w.store.FindWorkflowByID(context.Background(), w.a.projectID, id)
	if v, err := sealer.OpenWorkflowEnvVar(id, stored.EnvVars[0]); err != nil || v != "s3cr3t-value" || len(stored.EnvVars) != 1 {
		t.Fatalf("kept secret opens to %q, %v (%d vars)", v, err, len(stored.EnvVars))
	}
	checkError(t, w.do("PATCH", "/api/workflows/"+id, `{"envVars":[{"name":"NEW","value":"***","isSecret":true}]}`, k), 422, "validation_failed", "/envVars/0/value")
	checkError(t, w.do("PATCH", "/api/workflows/"+id, `{"envVars":[{"name":"A","value":"1","isSecret":false},{"name":"A","value":"2","isSecret":false}]}`, k), 422, "validation_failed", "/envVars/1/name")
	checkError(t, w.do("PATCH", "/api/workflows/"+id, `{"dependencies":{"Bad Name":"1"}}`, k), 422, "validation_failed", "/dependencies/Bad Name")
	checkError(t, w.do("PATCH", "/api/workflows/"+id, `{"deployConfig":{"route":{"pattern":"","zoneName":"x.com"}}}`, k), 422, "validation_failed", "/deployConfig/route/pattern")
	checkError(t, w.do("PATCH", "/api/workflows/"+id, `{"envVars":[{"name":"A","value":1,"isSecret":false}]}`, k), 422, "validation_failed", "/envVars/0/value")

	// /full: no versions yet, then one.
	full := w.must(200, "GET", "/api/workflows/"+id+"/full", "", k).json(t)
	if full["currentVersion"] != nil || len(full["versions"].([]any)) != 0 || full["activeDeployment"] != nil {
		t.Fatalf("full: %v", full)
	}
	ctx := context.Background()
	v1 := &edgeflow.Version{WorkflowID: id, IR: json.RawMessage(`{"nodes":[]}`), Code: "// v1"}
	v2 := &edgeflow.Version{WorkflowID: id, IR: json.RawMessage(`{"nodes":[1]}`), Code: "// v2"}
	for _, v := range []*edgeflow.Version{v1, v2} {
		if err := w.store.CreateVersion(ctx, v); err != nil {
			t.Fatal(err)
		}
	}
	full = w.must(200, "GET", "/api/workflows/"+id+"/full", "", k).json(t)
	cur := full["currentVersion"].(map[string]any)
	if cur["id"] != v2.ID || cur["code"] != "// v2" || len(full["versions"].([]any)) != 2 {
		t.Fatalf("full with versions: %v", full)
	}
	full = w.must(200, "GET", "/api/workflows/"+id+"/full?version="+v1.ID, "", k).json(t)
	if full["currentVersion"].(map[string]any)["id"] != v1.ID {
		t.Fatalf("full?version: %v", full)
	}
	checkError(t, w.do("GET", "/api/workflows/"+id+"/full?version=ver_nope", "", k), 404, "not_found", "")
	checkError(t, w.do("GET", "/api/workflows/"+id+"/full?version=", "", k), 422, "validation_failed", "?version")

	// Move: to another project of the organization, by a key or a session;
	// never into another organization's.
	checkError(t, w.do("PATCH", "/api/workflows/"+id+"/move", fmt.Sprintf(`{"targetProjectId":%q}`, w.b.projectID), k), 404, "not_found", "")
	checkError(t, w.do("PATCH", "/api/workflows/"+id+"/move", fmt.Sprintf(`{"targetProjectId":%q}`, w.b.projectID), w.a.session), 404, "not_found", "")
	r = w.must(200, "PATCH", "/api/workflows/"+id+"/move", fmt.Sprintf(`{"targetProjectId":%q}`, w.a.otherProjectID), k)
	if r.str(t, "projectId") != w.a.otherProjectID {
		t.Fatalf("moved: %s", r.body)
	}
	checkError(t, w.do("GET", "/api/workflows/"+id, "", k), 404, "not_found", "")
	w.must(200, "GET", "/api/workflows/"+id, "", w.a.keyOtherProject)
	w.must(200, "GET", "/api/workflows/"+id+"?projectId="+w.a.otherProjectID, "", w.a.session)

	// Delete takes the versions with it.
	w.must(204, "DELETE", "/api/workflows/"+id, "", w.a.keyOtherProject)
	checkError(t, w.do("GET", "/api/workflows/"+id, "", w.a.keyOtherProject), 404, "not_found", "")
	if _, err := w.store.FindVersionByID(ctx, id, v1.ID); !edgeflow.IsNotFound(err) {
		t.Fatalf("version survived its workflow: %v", err)
	}
}

func TestWorkflowPagination(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	want := map[string]bool{w.a.workflowID: true}
	for i := range 7 {
		want[w.must(201, "POST", "/api/workflows", fmt.Sprintf(`{"name":"wf %d"}`, i), w.a.keyAll).str(t, "id")] = true
	}
	seen := map[string]bool{}
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("too many pages")
		}
		path := "/api/workflows?limit=3"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		var page struct {
			Data       []edgeflow.Workflow `json:"data"`
			NextCursor *string             `json:"nextCursor"`
		}
		json.Unmarshal(w.must(200, "GET", path, "", w.a.keyRead).body, &page)
		if len(page.Data) > 3 {
			t.Fatalf("page of %d", len(page.Data))
		}
		for _, wf := range page.Data {
			if seen[wf.ID] {
				t.Fatalf("%s on two pages", wf.ID)
			}
			seen[wf.ID] = true
		}
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
	}
	if len(seen) != len(want) {
		t.Fatalf("saw %d workflows, want %d", len(seen), len(want))
	}
}

func TestEnvVars(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k, s := w.a.keyAll, w.a.session
	checkError(t, w.do("POST", "/api/env-vars", `{"name":"API_TOKEN","value":"x","isSecret":false}`, s), 409, "conflict", "")
	// The same name in the project scope is allowed (a key's default scope).
	pv := w.must(201, "POST", "/api/env-vars", `{"name":"API_TOKEN","value":"proj","isSecret":false}`, k)
	if pv.str(t, "scope") != "project" || pv.str(t, "projectId") != w.a.projectID {
		t.Fatalf("project var: %s", pv.body)
	}
	checkError(t, w.do("POST", "/api/env-vars", `{"name":"lower","value":"x","isSecret":false}`, k), 422, "validation_failed", "/name")
	checkError(t, w.do("POST", "/api/env-vars", `{"name":"OK","isSecret":false}`, k), 422, "validation_failed", "/value")
	checkError(t, w.do("POST", "/api/env-vars", `{"name":"OK","value":"x"}`, k), 422, "validation_failed", "/isSecret")
	checkError(t, w.do("POST", "/api/env-vars", `{"name":"OK","value":"x","isSecret":false,"scope":"global"}`, k), 422, "validation_failed", "/scope")

	list := w.must(200, "GET", "/api/env-vars", "", w.a.keyRead)
	if strings.Contains(string(list.body), "org-secret-") || !strings.Contains(string(list.body), `"value":"***"`) {
		t.Fatalf("list: %s", list.body)
	}
	// Another project of the organization sees the organization's variables, not this project's.
	other := w.must(200, "GET", "/api/env-vars", "", w.a.keyOtherProject)
	if strings.Contains(string(other.body), w.a.projectEnvVarID) || !strings.Contains(string(other.body), w.a.envVarID) {
		t.Fatalf("other project's list: %s", other.body)
	}
	stored, err := w.store.FindEnvVarByID(context.Background(), w.a.orgID, w.a.envVarID)
	if err != nil || strings.Contains(stored.Value, "org-secret-") {
		t.Fatalf("stored: %+v %v", stored, err)
	}
	sealer, _ := secret.New([]byte(strings.Repeat("\x01", 32)))
	if v, err := sealer.OpenEnvVar(stored); err != nil || v != "org-secret-alice@example.com" {
		t.Fatalf("opens to %q, %v", v, err)
	}
	// Turning a secret plain needs its new value (the organization's
	// variables are changed by a session).
	checkError(t, w.do("PATCH", "/api/env-vars/"+w.a.envVarID, `{"isSecret":false}`, s), 422, "validation_failed", "/value")
	r := w.must(200, "PATCH", "/api/env-vars/"+w.a.envVarID, `{"isSecret":false,"value":"now-plain"}`, s)
	if r.str(t, "value") != "now-plain" {
		t.Fatalf("plain: %s", r.body)
	}
	r = w.must(200, "PATCH", "/api/env-vars/"+w.a.envVarID, `{"isSecret":true,"name":"RENAMED"}`, s)
	if r.str(t, "value") != "***" || r.str(t, "name") != "RENAMED" {
		t.Fatalf("secret again: %s", r.body)
	}
	checkError(t, w.do("PATCH", "/api/env-vars/"+pv.str(t, "id"), `{"name":"REGION"}`, k), 409, "conflict", "")
	w.must(204, "DELETE", "/api/env-vars/"+pv.str(t, "id"), "", k)
	checkError(t, w.do("DELETE", "/api/env-vars/"+pv.str(t, "id"), "", k), 404, "not_found", "")
}

func TestConnections(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.keyAll
	checkError(t, w.do("POST", "/api/connections", `{"provider":"cloudflare","credentials":{"apiToken":"`+testAPIToken("t")+`"}}`, k), 422, "validation_failed", "/credentials/accountId")
	checkError(t, w.do("POST", "/api/connections", `{"provider":"cloudflare"}`, k), 422, "validation_failed", "/credentials")
	checkError(t, w.do("POST", "/api/connections", `{"provider":"aws","credentials":{}}`, k), 422, "validation_failed", "/provider")
	checkError(t, w.do("POST", "/api/connections", `{"credentials":{}}`, k), 422, "validation_failed", "/provider")
	checkError(t, w.do("POST", "/api/connections", `{"provider":"cloudflare","credentials":{"apiToken":"`+testAPIToken("t")+`","accountId":"`+testAccountID("a")+`","extra":"x"}}`, k), 422, "validation_failed", "/extra")
	checkError(t, w.do("POST", "/api/connections", `{"provider":"local","credentials":{"apiToken":"t"}}`, k), 422, "validation_failed", "/credentials")
	local := w.must(201, "POST", "/api/connections", `{"provider":"local"}`, k)
	if local.str(t, "name") != "Local edge" || local.str(t, "accountId") == "" {
		t.Fatalf("local: %s", local.body)
	}
	list := w.must(200, "GET", "/api/connections", "", w.a.keyRead)
	if strings.Contains(string(list.body), "cf-token-") || !strings.Contains(string(list.body), `"apiToken":"***"`) ||
		!strings.Contains(string(list.body), `"accountId":"…`+testAccountID(w.a.userID)[28:]+`"`) ||
		strings.Contains(string(list.body), testAccountID(w.a.userID)) {
		t.Fatalf("list not redacted: %s", list.body)
	}
	ctx := context.Background()
	c, err := w.store.FindConnectionByID(ctx, w.a.orgID, w.a.connectionID)
	if err != nil || strings.Contains(string(c.SealedCredentials), "cf-token-") {
		t.Fatalf("stored: %v", err)
	}
	r := w.must(200, "PATCH", "/api/connections/"+w.a.connectionID, `{"name":"renamed","credentials":{"apiToken":"new-token-0123456789abcdef"}}`, k)
	if r.str(t, "name") != "renamed" || strings.Contains(string(r.body), "new-token") {
		t.Fatalf("patch: %s", r.body)
	}
	c, _ = w.store.FindConnectionByID(ctx, w.a.orgID, w.a.connectionID)
	sealer, _ := secret.New([]byte(strings.Repeat("\x01", 32)))
	creds, err := sealer.OpenCredentials(c)
	if err != nil || creds.APIToken != "new-token-0123456789abcdef" || creds.AccountID != testAccountID(w.a.userID) {
		t.Fatalf("credentials now %+v, %v", creds, err)
	}
	checkError(t, w.do("PATCH", "/api/connections/"+w.a.connectionID, `{"credentials":{"accountId":""}}`, k), 422, "validation_failed", "/credentials/accountId")
	checkError(t, w.do("PATCH", "/api/connections/"+local.str(t, "id"), `{"credentials":{"apiToken":"x"}}`, k), 422, "validation_failed", "/credentials")
	w.must(204, "DELETE", "/api/connections/"+local.str(t, "id"), "", k)
	checkError(t, w.do("DELETE", "/api/connections/"+local.str(t, "id"), "", k), 404, "not_found", "")
}

func TestAPIKeys(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	s := w.a.session
	checkError(t, w.do("POST", "/api/api-keys", fmt.Sprintf(`{"name":"ci","projectId":%q,"scopes":["write"]}`, w.a.projectID), s), 422, "validation_failed", "/scopes")
	checkError(t, w.do("POST", "/api/api-keys", fmt.Sprintf(`{"name":"ci","projectId":%q,"scopes":["read","admin"]}`, w.a.projectID), s), 422, "validation_failed", "/scopes")
	checkError(t, w.do("POST", "/api/api-keys", fmt.Sprintf(`{"name":"ci","projectId":%q,"scopes":["read"]}`, w.b.projectID), s), 422, "validation_failed", "/projectId")
	checkError(t, w.do("POST", "/api/api-keys", fmt.Sprintf(`{"name":"ci","projectId":%q,"scopes":["read"],"expiresAt":"2001-01-01T00:00:00Z"}`, w.a.projectID), s), 422, "validation_failed", "/expiresAt")
	checkError(t, w.do("POST", "/api/api-keys", fmt.Sprintf(`{"name":"ci","projectId":%q,"scopes":["read"],"expiresAt":"tomorrow"}`, w.a.projectID), s), 422, "validation_failed", "/expiresAt")
	r := w.must(201, "POST", "/api/api-keys", fmt.Sprintf(`{"name":"ci","projectId":%q,"scopes":["read","deploy"],"expiresAt":"2099-01-01T00:00:00Z"}`, w.a.projectID), s)
	key, id := r.str(t, "key"), r.str(t, "id")
	if !strings.HasPrefix(key, "ask_") || r.str(t, "prefix") != key[:8] {
		t.Fatalf("created: %s", r.body)
	}
	w.must(200, "GET", "/api/workflows", "", cred{key: key})
	list := w.must(200, "GET", "/api/api-keys", "", s)
	if strings.Contains(string(list.body), key) || strings.Contains(string(list.body), `"key":`) {
		t.Fatalf("list shows a key value: %s", list.body)
	}
	var page struct{ Data []edgeflow.APIKey }
	json.Unmarshal(list.body, &page)
	for _, k := range page.Data {
		if k.ID == id && k.LastUsedAt == nil {
			t.Fatal("lastUsedAt not recorded")
		}
	}
	w.must(204, "DELETE", "/api/api-keys/"+id, "", s)
	checkError(t, w.do("GET", "/api/workflows", "", cred{key: key}), 401, "unauthorized", "")
	checkError(t, w.do("DELETE", "/api/api-keys/"+id, "", w.b.session), 404, "not_found", "")
}

func TestRunAndDeploymentListsAreEmptyPages(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, p := range []string{"/api/runs", "/api/deployments", "/api/workflows/" + w.a.workflowID + "/runs",
		"/api/workflows/" + w.a.workflowID + "/deployments", "/api/runs?status=paused"} {
		if r := w.must(200, "GET", p, "", w.a.keyRead); string(r.body) != "{\"data\":[],\"nextCursor\":null}\n" {
			t.Errorf("%s = %s", p, r.body)
		}
	}
	checkError(t, w.do("GET", "/api/runs?status=done", "", w.a.keyRead), 422, "validation_failed", "?status")
	checkError(t, w.do("GET", "/api/workflows/wf_nope/runs", "", w.a.keyRead), 404, "not_found", "")
}

// TestRateLimits: the write and verify classes per user, the global limit per
// address, and the probes (/healthz, /readyz, /metrics) never limited nor
// counted against the address's budget.
func TestRateLimits(t *testing.T) {
	t.Parallel()
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Global: 1000, Write: 2, Verify: 3}})
	sess, _ := w.signUp("rate@example.com") // verify 1 of 3
	for i := range 2 {
		w.must(201, "POST", "/api/workflows", fmt.Sprintf(`{"name":"w%d"}`, i), sess)
	}
	r := w.do("POST", "/api/workflows", `{"name":"w3"}`, sess)
	checkError(t, r, 429, "rate_limited", "")
	if r.header.Get("Retry-After") == "" || r.header.Get("RateLimit-Limit") != "2" || r.header.Get("RateLimit-Remaining") != "0" || r.header.Get("RateLimit-Reset") == "" {
		t.Fatalf("headers: %v", r.header)
	}
	// Reads still pass.
	w.must(200, "GET", "/api/workflows", "", sess)
	for range 2 {
		w.do("POST", "/api/auth/sign-in", `{"email":"rate@example.com","password":"nope-nope"}`, cred{})
	}
	checkError(t, w.do("POST", "/api/auth/sign-in", `{"email":"rate@example.com","password":"password-1"}`, cred{}), 429, "rate_limited", "")

	g := newWorld(t, worldOptions{limits: ratelimit.Limits{Global: 3}})
	probes := func() {
		t.Helper()
		for range 5 {
			for _, p := range []string{"/healthz", "/readyz", "/metrics"} {
				r := g.must(200, "GET", p, "", cred{})
				if r.header.Get("RateLimit-Limit") != "" {
					t.Fatalf("%s is rate limited: %v", p, r.header)
				}
			}
		}
	}
	probes() // not counted: the address still has its 3 requests
	for range 3 {
		g.must(200, "GET", "/api/openapi.json", "", cred{})
	}
	r = g.do("GET", "/api/openapi.json", "", cred{})
	checkError(t, r, 429, "rate_limited", "")
	if r.header.Get("RateLimit-Limit") != "3" {
		t.Fatalf("headers: %v", r.header)
	}
	probes() // and answered while the address is over its budget
}
