package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/testenv"
	"golang.org/x/crypto/bcrypt"
)

// cred is how a test request authenticates: an API key, or a session cookie
// with its CSRF token, or nothing.
type cred struct {
	key    string
	cookie string
	csrf   string
}

// tenant is one user with an organization, projects and one record of every
// kind, created through the API.
type tenant struct {
	email, userID, orgID, projectID string
	otherProjectID                  string // a second project of the same organization
	session                         cred
	sessionID                       string // the id of session
	keyAll, keyRead                 cred   // keys of projectID
	keyOtherProject                 cred   // a key of otherProjectID
	keyRevoked, keyExpired          cred   // keys of projectID, revoked / expired
	apiKeyID                        string // id of keyRead
	workflowID                      string
	runID                           string // a complete run of workflowID (made by fixtureRun)
	envVarID                        string // organization scope, created by the session
	projectEnvVarID                 string
	connectionID                    string // of projectID, created by keyAll
	orgConnectionID                 string // organization-wide, created by the session
	versionID                       string // a version of workflowID
	nodeID                          string // a marketplace node only this tenant's organization has
	keyOrg                          cred   // the owner's organization key (every scope)
	invitationID                    string // a pending invitation of the organization
	webhookID, deliveryID           string // a webhook of projectID and a delivery of it
	eventID                         string // an event sent by type in projectID
	// team are the other members of tenant a's organization, by role
	// (nil for tenant b).
	team map[edgeflow.Role]*teammate
}

// teammate is a member of tenant a's organization other than its owner.
// Their keys were created while they were admins; then they got their role,
// so the keys act with it.
type teammate struct {
	email, userID      string
	session            cred
	keyProject, keyOrg cred // every scope, of a's project / the organization
}

// world is a running API server on a temporary SQLite database with two
// tenants, a and b, in different organizations.
type world struct {
	t     *testing.T
	srv   *httptest.Server
	api   *api.Server
	store edgeflow.Store
	a, b  *tenant
	// exToken is a token an example's setup made (TestRouteExamples).
	exToken string
	// exRun is a run an example's setup made.
	exRun string
}

type worldOptions struct {
	limits ratelimit.Limits
	now    func() time.Time // the server's clock; nil means time.Now
	// bodyReadTimeout is the server's BodyReadTimeout (0: the default).
	bodyReadTimeout time.Duration
	// postgres runs the world on a PostgreSQL schema of its own
	// (EDGEFLOW_TEST_POSTGRES_URL) instead of SQLite.
	postgres bool
	// config changes the server's configuration before it starts.
	config func(*api.Config)
	// signUp is the sign-up mode; "" means open (the world signs up two
	// users of their own organizations).
	signUp string
	// empty makes no tenants.
	empty bool
}

func newWorld(t *testing.T, opts ...worldOptions) *world {
	t.Helper()
	o := worldOptions{limits: ratelimit.Limits{Off: true}}
	if len(opts) > 0 {
		o = opts[0]
	}
	ctx := context.Background()
	var st edgeflow.Store
	var err error
	if o.postgres {
		st, err = postgres.Open(ctx, testenv.PostgresSchema(t), postgres.Options{})
	} else {
		st, err = sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if o.signUp == "" {
		o.signUp = api.SignUpOpen
	}
	sealer, err := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	cfg := api.Config{SignUp: o.signUp, Store: st, Sealer: sealer, Limits: o.limits, BcryptCost: bcrypt.MinCost, Now: o.now,
		BodyReadTimeout: o.bodyReadTimeout}
	if o.config != nil {
		o.config(&cfg)
	}
	s, err := api.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close) // after the server, before the store
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	w := &world{t: t, srv: srv, api: s, store: st}
	if !o.limits.Off || o.empty {
		return w
	}
	w.a = w.newTenant("alice@example.com")
	w.b = w.newTenant("bob@example.com")
	w.a.team = map[edgeflow.Role]*teammate{}
	for _, role := range []edgeflow.Role{edgeflow.RoleAdmin, edgeflow.RoleMember, edgeflow.RoleViewer} {
		w.a.team[role] = w.newTeammate(w.a, string(role)+"@example.com", role)
	}
	return w
}

// invite invites email to tn's organization with role and returns the
// invitation's token and id.
func (w *world) invite(tn *tenant, email string, role edgeflow.Role) (token, id string) {
	w.t.Helper()
	r := w.must(201, "POST", "/api/organizations/"+tn.orgID+"/invitations", fmt.Sprintf(`{"email":%q,"role":%q}`, email, role), tn.session)
	return r.str(w.t, "token"), r.str(w.t, "id")
}

// sessionOf returns the session a sign-up or sign-in answer started.
func (w *world) sessionOf(r response) cred {
	w.t.Helper()
	var cookie string
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == api.SessionCookie {
			cookie = c.Value
		}
	}
	if cookie == "" {
		w.t.Fatal("no session cookie")
	}
	return cred{cookie: cookie, csrf: r.str(w.t, "csrfToken")}
}

// newTeammate invites email to tn's organization as an admin, signs them
// up with the invitation, creates their keys, and gives them role.
func (w *world) newTeammate(tn *tenant, email string, role edgeflow.Role) *teammate {
	t := w.t
	t.Helper()
	token, _ := w.invite(tn, email, edgeflow.RoleAdmin)
	r := w.must(201, "POST", "/api/auth/sign-up", fmt.Sprintf(`{"email":%q,"password":"password-1","invitationToken":%q}`, email, token), cred{})
	tm := &teammate{email: email, session: w.sessionOf(r), userID: r.json(t)["user"].(map[string]any)["id"].(string)}
	if got := r.str(t, "activeOrganizationId"); got != tn.orgID {
		t.Fatalf("a user signed up by invitation is in %s, want %s", got, tn.orgID)
	}
	tm.keyProject = cred{key: w.must(201, "POST", "/api/api-keys", fmt.Sprintf(`{"name":"p","projectId":%q,"scopes":["read","write","deploy"]}`, tn.projectID), tm.session).str(t, "key")}
	tm.keyOrg = cred{key: w.must(201, "POST", "/api/api-keys", `{"name":"o","scopes":["read","write","deploy"]}`, tm.session).str(t, "key")}
	if role != edgeflow.RoleAdmin {
		w.must(200, "PATCH", "/api/organizations/"+tn.orgID+"/members/"+tm.userID, fmt.Sprintf(`{"role":%q}`, role), tn.session)
	}
	return tm
}

// response is what a test request got back.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("response is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

func (r response) str(t *testing.T, key string) string {
	t.Helper()
	s, _ := r.json(t)[key].(string)
	return s
}

// do sends a request; body "" sends none; a body is sent as application/json.
func (w *world) do(method, path, body string, c cred) response {
	w.t.Helper()
	return w.doType(method, path, body, "application/json", c)
}

// doHeader sends a request with one more header.
func (w *world) doHeader(method, path, body string, c cred, name, value string) response {
	w.t.Helper()
	return w.doRequest(method, path, body, "application/json", c, name, value)
}

func (w *world) doType(method, path, body, contentType string, c cred) response {
	w.t.Helper()
	return w.doRequest(method, path, body, contentType, c, "", "")
}

func (w *world) doRequest(method, path, body, contentType string, c cred, hName, hValue string) response {
	w.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, w.srv.URL+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if body != "" && contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if c.key != "" {
		req.Header.Set("Authorization", "Bearer "+c.key)
	}
	if c.cookie != "" {
		req.AddCookie(&http.Cookie{Name: api.SessionCookie, Value: c.cookie})
	}
	if c.csrf != "" {
		req.Header.Set(api.CSRFHeader, c.csrf)
	}
	if hName != "" {
		req.Header.Set(hName, hValue)
	}
	res, err := w.srv.Client().Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		w.t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

// must sends a request and fails the test unless it gets status want.
func (w *world) must(want int, method, path, body string, c cred) response {
	w.t.Helper()
	r := w.do(method, path, body, c)
	if r.status != want {
		w.t.Fatalf("%s %s = %d, want %d\n%s", method, path, r.status, want, r.body)
	}
	return r
}

// signUp creates a user through the API and returns its session.
func (w *world) signUp(email string) (cred, response) {
	w.t.Helper()
	r := w.must(201, "POST", "/api/auth/sign-up", fmt.Sprintf(`{"email":%q,"password":"password-1"}`, email), cred{})
	var cookie string
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == api.SessionCookie {
			cookie = c.Value
		}
	}
	if cookie == "" {
		w.t.Fatal("sign-up set no session cookie")
	}
	return cred{cookie: cookie, csrf: r.str(w.t, "csrfToken")}, r
}

func (w *world) newTenant(email string) *tenant {
	t := w.t
	t.Helper()
	sess, r := w.signUp(email)
	m := r.json(t)
	tn := &tenant{email: email, session: sess,
		userID: m["user"].(map[string]any)["id"].(string),
		orgID:  m["activeOrganizationId"].(string), projectID: m["activeProjectId"].(string)}
	tn.otherProjectID = w.must(201, "POST", "/api/projects", `{"name":"Other"}`, sess).str(t, "id")
	tn.sessionID = w.must(200, "GET", "/api/auth/sessions", "", sess).json(t)["data"].([]any)[0].(map[string]any)["id"].(string)
	key := func(project, scopes string) (cred, string) {
		r := w.must(201, "POST", "/api/api-keys", fmt.Sprintf(`{"name":"k","projectId":%q,"scopes":%s}`, project, scopes), sess)
		return cred{key: r.str(t, "key")}, r.str(t, "id")
	}
	tn.keyAll, _ = key(tn.projectID, `["read","write","deploy"]`)
	tn.keyRead, tn.apiKeyID = key(tn.projectID, `["read"]`)
	tn.keyOtherProject, _ = key(tn.otherProjectID, `["read","write","deploy"]`)
	tn.keyOrg = cred{key: w.must(201, "POST", "/api/api-keys", `{"name":"org","scopes":["read","write","deploy"]}`, sess).str(t, "key")}
	var revokedID string
	tn.keyRevoked, revokedID = key(tn.projectID, `["read","write","deploy"]`)
	w.must(204, "DELETE", "/api/api-keys/"+revokedID, "", sess)
	// An expired key cannot be created through the API (expiresAt must be in
	// the future), so it goes straight into the store.
	expiredKey, prefix, hash := auth.NewAPIKey()
	past := time.Now().Add(-time.Hour)
	if err := w.store.CreateAPIKey(context.Background(), &edgeflow.APIKey{OrganizationID: tn.orgID, ProjectID: tn.projectID,
		UserID: tn.userID, Name: "expired", Prefix: prefix, Hash: hash,
		Scopes: []edgeflow.Scope{"read", "write", "deploy"}, ExpiresAt: &past}); err != nil {
		t.Fatal(err)
	}
	tn.keyExpired = cred{key: expiredKey}

	tn.workflowID = w.must(201, "POST", "/api/workflows", `{"name":"Orders","description":"d"}`, tn.keyAll).str(t, "id")
	w.must(200, "PATCH", "/api/workflows/"+tn.workflowID,
		`{"envVars":[{"name":"TOKEN","value":"wf-secret-`+email+`","isSecret":true}]}`, tn.keyAll)
	tn.envVarID = w.must(201, "POST", "/api/env-vars", `{"name":"API_TOKEN","value":"org-secret-`+email+`","isSecret":true}`, sess).str(t, "id")
	tn.projectEnvVarID = w.must(201, "POST", "/api/env-vars", `{"name":"REGION","value":"eu","isSecret":false,"scope":"project"}`, tn.keyAll).str(t, "id")
	tn.connectionID = w.must(201, "POST", "/api/connections",
		`{"provider":"cloudflare","name":"prod","credentials":{"apiToken":"`+testAPIToken(email)+`","accountId":"`+testAccountID(tn.userID)+`"}}`, tn.keyAll).str(t, "id")
	tn.orgConnectionID = w.must(201, "POST", "/api/connections",
		`{"provider":"cloudflare","name":"org","credentials":{"apiToken":"`+testAPIToken("org-"+email)+`","accountId":"`+testAccountID("org-"+tn.userID)+`"}}`, sess).str(t, "id")
	tn.versionID = w.submitVersion(tn, tn.workflowID, minimalIR)
	tn.nodeID = w.installPrivateNode(tn)
	_, tn.invitationID = w.invite(tn, "dave-"+email, edgeflow.RoleMember)
	tn.webhookID = w.must(201, "POST", "/api/webhooks", `{"url":"https://93.184.215.14/edgeflow","events":["run.completed","deploy.completed"]}`, tn.keyAll).str(t, "id")
	tn.deliveryID = w.fixtureDelivery(tn)
	tn.eventID = w.fixtureEvent(tn)
	return tn
}

// fixtureEvent stores an event sent by type in tn's project that reached
// one run (the run need not exist) and returns its id.
func (w *world) fixtureEvent(tn *tenant) string {
	e := &edgeflow.SentEvent{OrganizationID: tn.orgID, ProjectID: tn.projectID, Type: "approval",
		Payload: json.RawMessage(`{"approved":true}`),
		Runs:    []edgeflow.SentEventRun{{RunID: "run_fixture000000000000", WorkflowID: tn.workflowID, State: edgeflow.SentEventDelivered}}}
	if err := w.store.CreateSentEvent(context.Background(), e); err != nil {
		w.t.Fatal(err)
	}
	return e.ID
}

// fixtureDelivery records a deploy.completed event of tn's project, which
// queues a delivery to tn's webhook (no dispatcher runs in the world), and
// returns the delivery's id.
func (w *world) fixtureDelivery(tn *tenant) string {
	w.t.Helper()
	ctx := context.Background()
	data, _ := json.Marshal(edgeflow.DeployEvent{DeploymentID: "dep_fixture00000000000", WorkflowID: tn.workflowID,
		ProjectID: tn.projectID, VersionID: tn.versionID, ConnectionID: tn.connectionID, URL: "https://ef-example.workers.dev"})
	if err := w.store.RecordEvent(ctx, &edgeflow.Event{ProjectID: tn.projectID, Type: edgeflow.EventDeployComplete, Data: data}); err != nil {
		w.t.Fatal(err)
	}
	page, err := w.store.ListWebhookDeliveries(ctx, tn.webhookID, edgeflow.ListOptions{})
	if err != nil || len(page.Items) != 1 {
		w.t.Fatalf("the fixture event queued %d deliveries (%v), want 1", len(page.Items), err)
	}
	return page.Items[0].ID
}

// ids are the record ids of a tenant that must never appear in another
// tenant's responses.
func (tn *tenant) ids() []string {
	ids := []string{tn.orgID, tn.projectID, tn.otherProjectID, tn.workflowID, tn.envVarID, tn.projectEnvVarID,
		tn.connectionID, tn.orgConnectionID, tn.apiKeyID, tn.userID, tn.versionID, tn.nodeID, tn.invitationID, tn.webhookID, tn.deliveryID, tn.eventID}
	for _, tm := range tn.team {
		ids = append(ids, tm.userID)
	}
	if tn.runID != "" {
		ids = append(ids, tn.runID)
	}
	return ids
}

// fixturePaths gives, for every route pattern with a path parameter, the
// path of a record of tenant a. A new route with a parameter needs an entry
// here (routes.go explains).
var fixturePaths = map[string]func(w *world) string{
	"/api/auth/sessions/{id}":         func(w *world) string { return "/api/auth/sessions/" + w.a.sessionID },
	"/api/projects/{id}":              func(w *world) string { return "/api/projects/" + w.a.projectID },
	"/api/projects/{id}/environments": func(w *world) string { return "/api/projects/" + w.a.projectID + "/environments" },
	"/api/projects/{id}/environments/{name}": func(w *world) string {
		return "/api/projects/" + w.a.projectID + "/environments/production"
	},
	"/api/workflows/{id}":                     func(w *world) string { return "/api/workflows/" + w.a.workflowID },
	"/api/workflows/{id}/full":                func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/full" },
	"/api/workflows/{id}/move":                func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/move" },
	"/api/workflows/{workflowId}/deployments": func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/deployments" },
	"/api/workflows/{workflowId}/runs":        func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/runs" },
	"/api/connections/{id}":                   func(w *world) string { return "/api/connections/" + w.a.connectionID },
	"/api/env-vars/{id}":                      func(w *world) string { return "/api/env-vars/" + w.a.projectEnvVarID },
	"/api/api-keys/{id}":                      func(w *world) string { return "/api/api-keys/" + w.a.apiKeyID },
	"/api/workflows/{workflowId}/versions":    func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/versions" },
	"/api/workflows/{workflowId}/versions/{versionId}": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/versions/" + w.a.versionID
	},
	"/api/workflows/{workflowId}/versions/{versionId}/revert": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/versions/" + w.a.versionID + "/revert"
	},
	"/api/workflows/{workflowId}/versions/{versionId}/export": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/versions/" + w.a.versionID + "/export?format=wrangler"
	},
	"/api/workflows/{workflowId}/versions/{versionId}/test": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/versions/" + w.a.versionID + "/test"
	},
	"/api/workflows/{workflowId}/test": func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/test" },
	"/api/workflows/{workflowId}/pinned-outputs": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/pinned-outputs"
	},
	"/api/nodes/{nodeId}": func(w *world) string { return "/api/nodes/" + w.a.nodeID },

	// Organizations, members, invitations (teams.go).
	"/api/organizations/{organizationId}":         func(w *world) string { return "/api/organizations/" + w.a.orgID },
	"/api/organizations/{organizationId}/members": func(w *world) string { return "/api/organizations/" + w.a.orgID + "/members" },
	"/api/organizations/{organizationId}/members/{userId}": func(w *world) string {
		return "/api/organizations/" + w.a.orgID + "/members/" + w.a.team[edgeflow.RoleMember].userID
	},
	"/api/organizations/{organizationId}/transfer-ownership": func(w *world) string {
		return "/api/organizations/" + w.a.orgID + "/transfer-ownership"
	},
	"/api/organizations/{organizationId}/invitations": func(w *world) string { return "/api/organizations/" + w.a.orgID + "/invitations" },
	"/api/organizations/{organizationId}/invitations/{invitationId}": func(w *world) string {
		return "/api/organizations/" + w.a.orgID + "/invitations/" + w.a.invitationID
	},
	"/api/marketplace/{nodeId}": func(w *world) string { return "/api/marketplace/" + w.a.nodeID },

	// Webhooks (webhooks.go).
	"/api/webhooks/{id}":            func(w *world) string { return "/api/webhooks/" + w.a.webhookID },
	"/api/webhooks/{id}/deliveries": func(w *world) string { return "/api/webhooks/" + w.a.webhookID + "/deliveries" },
	"/api/webhooks/{id}/rotate-secret": func(w *world) string {
		return "/api/webhooks/" + w.a.webhookID + "/rotate-secret"
	},
	"/api/webhooks/{id}/deliveries/{deliveryId}/redeliver": func(w *world) string {
		return "/api/webhooks/" + w.a.webhookID + "/deliveries/" + w.a.deliveryID + "/redeliver"
	},

	// Deploy engine (deployments.go, runs.go, resources.go).
	"/api/workflows/{workflowId}/deploy":        func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/deploy" },
	"/api/workflows/{workflowId}/deploy-stream": func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/deploy-stream" },
	"/api/workflows/{workflowId}/takedown":      func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/takedown" },
	"/api/workflows/{workflowId}/rollback":      func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/rollback" },
	"/api/workflows/{workflowId}/promote":       func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/promote" },
	"/api/workflows/{workflowId}/trigger":       func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/trigger" },
	"/api/workflows/{workflowId}/trigger/batch": func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/trigger/batch" },
	"/api/workflows/{workflowId}/estimate": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/estimate?runsPerMonth=1000"
	},
	"/api/workflows/{workflowId}/invoke": func(w *world) string { return "/api/workflows/" + w.a.workflowID + "/invoke" },
	"/api/workflows/{workflowId}/signed-trigger": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/signed-trigger?connectionId=" + w.a.connectionID
	},
	"/api/workflows/{workflowId}/trigger-secret": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/trigger-secret?connectionId=" + w.a.connectionID
	},
	"/api/workflows/{workflowId}/deploy-plan": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/deploy-plan?connectionId=" + w.a.connectionID
	},
	"/api/runs/{runId}": func(w *world) string { return "/api/runs/" + w.fixtureRun(w.a) },
	"/api/workflows/{workflowId}/runs/{runId}": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000"
	},
	"/api/workflows/{workflowId}/runs/{runId}/pause": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000/pause"
	},
	"/api/workflows/{workflowId}/runs/{runId}/resume": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000/resume"
	},
	"/api/workflows/{workflowId}/runs/{runId}/terminate": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000/terminate"
	},
	"/api/workflows/{workflowId}/runs/{runId}/restart": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000/restart"
	},
	"/api/workflows/{workflowId}/runs/{runId}/replay": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000/replay"
	},
	"/api/runs/bulk/{bulkId}":      func(w *world) string { return "/api/runs/bulk/" + w.fixtureBulk(w.a) },
	"/api/events/{eventId}":        func(w *world) string { return "/api/events/" + w.a.eventID },
	"/api/events/{eventId}/replay": func(w *world) string { return "/api/events/" + w.a.eventID + "/replay" },
	"/api/workflows/{workflowId}/runs/{runId}/logs": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000/logs"
	},
	"/api/workflows/{workflowId}/runs/{runId}/steps/{nodeId}/output": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000/steps/n1/output"
	},
	"/api/workflows/{workflowId}/runs/{runId}/worker-logs": func(w *world) string {
		return "/api/workflows/" + w.a.workflowID + "/runs/run_fixture000000000000/worker-logs"
	},
	"/api/resources/kv/namespaces/{namespaceId}/keys": func(w *world) string {
		return "/api/resources/kv/namespaces/0123456789abcdef0123456789abcdef/keys?connectionId=" + w.a.connectionID
	},
	"/api/resources/kv/namespaces/{namespaceId}/values/{key...}": func(w *world) string {
		return "/api/resources/kv/namespaces/0123456789abcdef0123456789abcdef/values/k1?connectionId=" + w.a.connectionID
	},
	"/api/resources/d1/databases/{databaseId}/query": func(w *world) string {
		return "/api/resources/d1/databases/01234567-89ab-cdef-0123-456789abcdef/query?connectionId=" + w.a.connectionID
	},
	"/api/resources/r2/buckets/{bucketName}/objects": func(w *world) string {
		return "/api/resources/r2/buckets/bucket-1/objects?connectionId=" + w.a.connectionID
	},
	"/api/resources/r2/buckets/{bucketName}/objects/{key...}": func(w *world) string {
		return "/api/resources/r2/buckets/bucket-1/objects/docs/a.txt?connectionId=" + w.a.connectionID
	},
}

// reachesProvider are GET routes whose success needs a deployed workflow or
// a reachable provider, which the test world does not have: the checks that
// expect 200 from them are skipped (internal/e2e covers them).
var reachesProvider = map[string]bool{
	"/api/runs/stream":                                               true, // never ends by itself (runstream_test.go)
	"/api/workflows/{workflowId}/runs/{runId}":                       true,
	"/api/workflows/{workflowId}/runs/{runId}/logs":                  true,
	"/api/workflows/{workflowId}/runs/{runId}/worker-logs":           true,
	"/api/workflows/{workflowId}/runs/{runId}/steps/{nodeId}/output": true,
	"/api/workflows/{workflowId}/trigger-secret":                     true,
	"/api/resources/kv/namespaces":                                   true,
	"/api/resources/kv/namespaces/{namespaceId}/keys":                true,
	"/api/resources/kv/namespaces/{namespaceId}/values/{key...}":     true,
	"/api/resources/d1/databases":                                    true,
	"/api/resources/r2/buckets":                                      true,
	"/api/resources/r2/buckets/{bucketName}/objects":                 true,
	"/api/resources/r2/buckets/{bucketName}/objects/{key...}":        true,
}

// boundedPaths are the paths the tests send for routes whose answer never
// ends by itself: a stream that ends after a second.
var boundedPaths = map[string]string{"/api/runs/stream": "/api/runs/stream?timeoutSeconds=1"}

// fixtureRun returns the id of a complete run of tn's workflow, stored on
// first use (routes that read one run by its id alone need a real run).
func (w *world) fixtureRun(tn *tenant) string {
	if tn.runID == "" {
		run := &edgeflow.Run{WorkflowID: tn.workflowID, VersionID: tn.versionID, Status: edgeflow.RunComplete,
			Params: json.RawMessage(`{"orderId":"A-1001"}`), Output: json.RawMessage(`{"sent":true,"total":42}`)}
		if err := w.store.CreateRun(context.Background(), run); err != nil {
			w.t.Fatal(err)
		}
		tn.runID = run.ID
	}
	return tn.runID
}

// fixtureBulk stores a running bulk job of tenant tn (acting on nothing:
// no replica carries it out in the test world) and returns its id.
func (w *world) fixtureBulk(tn *tenant) string {
	j := &edgeflow.BulkJob{ID: edgeflow.NewID(edgeflow.PrefixBulkJob), OrganizationID: tn.orgID, ProjectID: tn.projectID,
		Action: edgeflow.BulkTerminate, State: edgeflow.BulkRunning, RunIDs: []string{}}
	if err := w.store.CreateBulkJob(context.Background(), j); err != nil {
		w.t.Fatal(err)
	}
	return j.ID
}

// pathOf returns a concrete path for a route, failing when a pattern with
// a parameter has no fixture.
func (w *world) pathOf(rt api.Route) (string, bool) {
	if p, ok := boundedPaths[rt.Pattern]; ok {
		return p, false
	}
	if !strings.Contains(rt.Pattern, "{") {
		return rt.Pattern, false
	}
	f, ok := fixturePaths[rt.Pattern]
	if !ok {
		w.t.Fatalf("route %s %s has a path parameter but no fixture: add it to fixturePaths in world_test.go", rt.Method, rt.Pattern)
	}
	return f(w), true
}

// lastUsed matches the one field that reading changes.
var lastUsed = regexp.MustCompile(`"lastUsedAt":("[^"]*"|null)`)

// snapshot reads everything tenant tn can see, to check that refused
// requests change nothing.
func (w *world) snapshot(tn *tenant) string {
	w.t.Helper()
	var b strings.Builder
	for _, p := range []string{"/api/projects", "/api/workflows", "/api/workflows/" + tn.workflowID + "/full",
		"/api/env-vars", "/api/connections", "/api/api-keys", "/api/auth/session", "/api/organizations",
		"/api/organizations/" + tn.orgID + "/members", "/api/organizations/" + tn.orgID + "/invitations"} {
		r := w.must(200, "GET", p, "", tn.session)
		b.WriteString(p + " " + lastUsed.ReplaceAllString(string(r.body), "") + "\n")
	}
	return b.String()
}

// checkError checks that r is a JSON error with the given status and code,
// the request id of its header, and details paths (when wantPath != "").
func checkError(t *testing.T, r response, status int, code, wantPath string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d\n%s", r.status, status, r.body)
	}
	var body struct {
		Error     string `json:"error"`
		Code      string `json:"code"`
		Details   []struct{ Path, Message string }
		RequestID string `json:"requestId"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatalf("error body is not JSON: %v\n%s", err, r.body)
	}
	if body.Code != code || body.Error == "" || body.RequestID == "" || body.RequestID != r.header.Get("X-Request-Id") {
		t.Fatalf("error body = %s, want code %s with message and request id %q", r.body, code, r.header.Get("X-Request-Id"))
	}
	if wantPath != "" {
		for _, d := range body.Details {
			if d.Path == wantPath && d.Message != "" {
				return
			}
		}
		t.Fatalf("details of %s lack path %q", r.body, wantPath)
	}
}
