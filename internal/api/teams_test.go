package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

// engines runs fn on a world over SQLite and one over PostgreSQL.
func engines(t *testing.T, opts worldOptions, fn func(t *testing.T, w *world)) {
	if opts.limits == (ratelimit.Limits{}) {
		opts.limits = ratelimit.Limits{Off: true}
	}
	for _, pg := range []bool{false, true} {
		name := "sqlite"
		if pg {
			name = "postgres"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			o := opts
			o.postgres = pg
			fn(t, newWorld(t, o))
		})
	}
}

// doH sends a request with extra headers.
func (w *world) doH(method, path, body string, c cred, headers map[string]string) response {
	w.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, w.srv.URL+path, rd)
	if err != nil {
		w.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
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
	for k, v := range headers {
		req.Header.Set(k, v)
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

// signIn signs in with headers and returns the session and its cookie.
func (w *world) signIn(email, password string, headers map[string]string) (cred, *http.Cookie) {
	w.t.Helper()
	r := w.doH("POST", "/api/auth/sign-in", fmt.Sprintf(`{"email":%q,"password":%q}`, email, password), cred{}, headers)
	if r.status != 200 {
		w.t.Fatalf("sign-in = %d\n%s", r.status, r.body)
	}
	for _, c := range (&http.Response{Header: r.header}).Cookies() {
		if c.Name == api.SessionCookie {
			return cred{cookie: c.Value, csrf: r.str(w.t, "csrfToken")}, c
		}
	}
	w.t.Fatal("sign-in set no session cookie")
	return cred{}, nil
}

type sessionItem struct {
	ID         string     `json:"id"`
	CreatedAt  time.Time  `json:"createdAt"`
	LastSeenAt *time.Time `json:"lastSeenAt"`
	UserAgent  string     `json:"userAgent"`
	IP         string     `json:"ip"`
	Current    bool       `json:"current"`
}

func (w *world) sessions(c cred) []sessionItem {
	w.t.Helper()
	var page struct{ Data []sessionItem }
	if err := json.Unmarshal(w.must(200, "GET", "/api/auth/sessions", "", c).body, &page); err != nil {
		w.t.Fatal(err)
	}
	return page.Data
}

// TestSessionsAndPassword: a user lists their sessions with where they came
// from, signs one out, cannot touch another user's, and changes the
// password, which signs out every other session and keeps this one.
func TestSessionsAndPassword(t *testing.T) {
	t.Parallel()
	engines(t, worldOptions{}, func(t *testing.T, w *world) {
		laptop, _ := w.signIn(w.a.email, "password-1", map[string]string{"User-Agent": "Laptop/1.0"})
		phone, _ := w.signIn(w.a.email, "password-1", map[string]string{"User-Agent": "Phone\t/2.0"})

		list := w.sessions(laptop)
		if len(list) != 3 {
			t.Fatalf("sessions = %+v, want the sign-up's, the laptop's and the phone's", list)
		}
		if list[0].UserAgent != "Phone/2.0" || list[1].UserAgent != "Laptop/1.0" || !list[1].Current || list[0].Current || list[2].Current {
			t.Errorf("sessions newest first with the laptop's current: %+v", list)
		}
		if list[1].IP != "127.0.0.1" {
			t.Errorf("laptop session ip = %q, want the peer address 127.0.0.1", list[1].IP)
		}
		if list[1].LastSeenAt == nil {
			t.Errorf("the session listing its sessions has no lastSeenAt: %+v", list[1])
		}
		phoneID := list[0].ID

		// Attack: another user's session id is "not found", and it stays valid.
		r := w.do("DELETE", "/api/auth/sessions/"+w.b.sessionID, "", laptop)
		checkError(t, r, 404, "not_found", "")
		w.must(200, "GET", "/api/auth/session", "", w.b.session)
		// Legit twin: the user signs out their phone.
		w.must(204, "DELETE", "/api/auth/sessions/"+phoneID, "", laptop)
		checkError(t, w.do("GET", "/api/auth/session", "", phone), 401, "unauthorized", "")
		checkError(t, w.do("DELETE", "/api/auth/sessions/"+phoneID, "", laptop), 404, "not_found", "")

		// Changing the password needs the current one and a good new one.
		checkError(t, w.do("POST", "/api/auth/password", `{"currentPassword":"wrong-password","newPassword":"a new passphrase"}`, laptop),
			422, "validation_failed", "/currentPassword")
		checkError(t, w.do("POST", "/api/auth/password", `{"currentPassword":"password-1","newPassword":"password"}`, laptop),
			422, "validation_failed", "/newPassword")
		checkError(t, w.do("POST", "/api/auth/password", `{"currentPassword":"password-1","newPassword":"password-1"}`, laptop),
			422, "validation_failed", "/newPassword")
		w.must(200, "GET", "/api/auth/session", "", w.a.session) // refusals revoke nothing
		w.must(204, "POST", "/api/auth/password", `{"currentPassword":"password-1","newPassword":"a new passphrase"}`, laptop)
		w.must(200, "GET", "/api/auth/session", "", laptop)
		checkError(t, w.do("GET", "/api/auth/session", "", w.a.session), 401, "unauthorized", "")
		w.must(200, "GET", "/api/auth/session", "", w.b.session)
		if got := w.sessions(laptop); len(got) != 1 || !got[0].Current {
			t.Errorf("after the change only this session is left: %+v", got)
		}
		checkError(t, w.do("POST", "/api/auth/sign-in", `{"email":"`+w.a.email+`","password":"password-1"}`, cred{}), 401, "unauthorized", "")
		again, _ := w.signIn(w.a.email, "a new passphrase", nil)

		// Signing out the current session through the list clears the cookie.
		r = w.must(204, "DELETE", "/api/auth/sessions/"+w.sessions(again)[0].ID, "", again)
		if !strings.Contains(r.header.Get("Set-Cookie"), "Max-Age=0") {
			t.Errorf("revoking the current session does not clear the cookie: %q", r.header.Get("Set-Cookie"))
		}
		checkError(t, w.do("GET", "/api/auth/session", "", again), 401, "unauthorized", "")
	})
}

// TestPasswordChangeBackOff: wrong current passwords count toward the
// sign-in back-off, so a stolen session cookie guesses no faster than
// sign-in allows.
func TestPasswordChangeBackOff(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := range api.SignInFreeFailures {
		r := w.do("POST", "/api/auth/password", `{"currentPassword":"guess-`+fmt.Sprint(i)+`","newPassword":"a new passphrase"}`, w.a.session)
		checkError(t, r, 422, "validation_failed", "/currentPassword")
	}
	r := w.do("POST", "/api/auth/password", `{"currentPassword":"password-1","newPassword":"a new passphrase"}`, w.a.session)
	checkError(t, r, 429, "rate_limited", "")
	checkError(t, w.do("POST", "/api/auth/sign-in", `{"email":"`+w.a.email+`","password":"password-1"}`, cred{}), 429, "rate_limited", "")
}

// TestTrustedProxies: X-Forwarded-For and -Proto are believed only from a
// trusted proxy, for the sign-in rate limit, the session's address and the
// cookie's Secure flag.
func TestTrustedProxies(t *testing.T) {
	t.Parallel()
	limits := ratelimit.Limits{Global: 1000, Verify: 3}
	loopback := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	signIn := func(w *world, i int, headers map[string]string) int {
		return w.doH("POST", "/api/auth/sign-in", fmt.Sprintf(`{"email":"nobody-%d@example.com","password":"wrong-password"}`, i), cred{}, headers).status
	}

	t.Run("spoofed X-Forwarded-For from an untrusted peer", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, worldOptions{limits: limits, config: func(c *api.Config) {
			c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}
		}})
		for i := range 3 {
			if got := signIn(w, i, map[string]string{"X-Forwarded-For": fmt.Sprintf("198.51.100.%d", i)}); got != 401 {
				t.Fatalf("attempt %d = %d, want 401", i, got)
			}
		}
		if got := signIn(w, 3, map[string]string{"X-Forwarded-For": "198.51.100.99"}); got != 429 {
			t.Fatalf("a fresh X-Forwarded-For escaped the sign-in limit: %d, want 429", got)
		}
	})
	t.Run("X-Forwarded-For from a trusted proxy", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, worldOptions{limits: limits, config: func(c *api.Config) { c.TrustedProxies = loopback }})
		for i := range 3 {
			if got := signIn(w, i, map[string]string{"X-Forwarded-For": "198.51.100.1"}); got != 401 {
				t.Fatalf("attempt %d = %d, want 401", i, got)
			}
		}
		if got := signIn(w, 3, map[string]string{"X-Forwarded-For": "198.51.100.1"}); got != 429 {
			t.Fatalf("the client behind the proxy is not limited: %d", got)
		}
		// Another client behind the same proxy has its own budget; an
		// address the client put before the proxy's own changes nothing.
		if got := signIn(w, 4, map[string]string{"X-Forwarded-For": "198.51.100.1, 198.51.100.2"}); got != 401 {
			t.Fatalf("another client behind the proxy = %d, want 401", got)
		}
		if got := signIn(w, 5, map[string]string{"X-Forwarded-For": "203.0.113.9, 198.51.100.1"}); got != 429 {
			t.Fatalf("a client-chosen address before the proxy's escaped the limit: %d", got)
		}
	})

	cookieOf := func(t *testing.T, w *world, headers map[string]string) *http.Cookie {
		t.Helper()
		_, c := w.signIn(w.a.email, "password-1", headers)
		return c
	}
	t.Run("Secure cookie and session address", func(t *testing.T) {
		t.Parallel()
		untrusted := newWorld(t)
		https := map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.5"}
		if c := cookieOf(t, untrusted, https); c.Secure {
			t.Error("an untrusted peer's X-Forwarded-Proto made the cookie Secure")
		}
		s, _ := untrusted.signIn(untrusted.a.email, "password-1", https)
		if got := untrusted.sessions(s); got[0].IP != "127.0.0.1" {
			t.Errorf("untrusted X-Forwarded-For recorded as the session's address: %+v", got[0])
		}

		proxied := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, config: func(c *api.Config) { c.TrustedProxies = loopback }})
		if c := cookieOf(t, proxied, https); !c.Secure {
			t.Error("HTTPS behind a trusted proxy: the cookie is not Secure")
		}
		if c := cookieOf(t, proxied, map[string]string{"X-Forwarded-Proto": "http"}); c.Secure {
			t.Error("plain HTTP behind a trusted proxy: the cookie is Secure")
		}
		s, _ = proxied.signIn(proxied.a.email, "password-1", https)
		if got := proxied.sessions(s); got[0].IP != "203.0.113.5" {
			t.Errorf("session address behind a trusted proxy = %q, want the forwarded 203.0.113.5", got[0].IP)
		}

		forced := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, config: func(c *api.Config) { c.SecureCookies = true }})
		if c := cookieOf(t, forced, nil); !c.Secure {
			t.Error("--secure-cookies: the cookie is not Secure")
		}
	})
}

func TestParseTrustedProxies(t *testing.T) {
	t.Parallel()
	got, err := api.ParseTrustedProxies(" 10.0.0.0/8, 192.0.2.7 ,fd00::/8,")
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[10.0.0.0/8 192.0.2.7/32 fd00::/8]" {
		t.Errorf("got %v", got)
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.internal", "10.0.0.1/"} {
		if _, err := api.ParseTrustedProxies(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("%q: error %v, want one naming it", bad, err)
		}
	}
}

type auditItem struct {
	ID             string              `json:"id"`
	OrganizationID string              `json:"organizationId"`
	ProjectID      string              `json:"projectId"`
	Actor          edgeflow.AuditActor `json:"actor"`
	Action         string              `json:"action"`
	Target         edgeflow.AuditTarget
	Outcome        int       `json:"outcome"`
	RequestID      string    `json:"requestId"`
	Time           time.Time `json:"time"`
}

// audit reads the whole audit log at query through GET /api/audit, page by
// page.
func (w *world) audit(c cred, query string) []auditItem {
	w.t.Helper()
	var out []auditItem
	path := "/api/audit?limit=3&" + query
	for {
		var page struct {
			Data       []auditItem
			NextCursor *string
		}
		if err := json.Unmarshal(w.must(200, "GET", path, "", c).body, &page); err != nil {
			w.t.Fatal(err)
		}
		out = append(out, page.Data...)
		if page.NextCursor == nil {
			return out
		}
		path = "/api/audit?limit=3&" + query + "&cursor=" + *page.NextCursor
	}
}

// TestAuditLog: writes, allowed and refused, land in the audit log with who,
// what, on which record, the outcome and the request id; the log filters,
// pages, is open to owners and admins only, and never holds a secret.
func TestAuditLog(t *testing.T) {
	t.Parallel()
	engines(t, worldOptions{}, func(t *testing.T, w *world) {
		since := time.Now().UTC()
		created := w.must(201, "POST", "/api/workflows", `{"name":"Audited"}`, w.a.keyAll)
		wfID := created.str(t, "id")
		updated := w.must(200, "PATCH", "/api/workflows/"+wfID,
			`{"envVars":[{"name":"SECRET_TOKEN","value":"audit-secret-value-7f3k","isSecret":true}]}`, w.a.session)
		refused := w.do("DELETE", "/api/workflows/"+wfID, "", w.a.keyRead)
		checkError(t, refused, 403, "forbidden", "")
		invalid := w.do("POST", "/api/workflows", `{"name":""}`, w.a.session)
		checkError(t, invalid, 422, "validation_failed", "")
		foreign := w.do("DELETE", "/api/workflows/"+w.b.workflowID, "", w.a.session)
		checkError(t, foreign, 404, "not_found", "")
		w.must(204, "POST", "/api/auth/password", `{"currentPassword":"password-1","newPassword":"audit-password-9q2z"}`, w.a.session)
		deleted := w.must(204, "DELETE", "/api/workflows/"+wfID, "", w.a.session)
		w.must(200, "GET", "/api/workflows", "", w.a.session) // reads are not audited

		got := w.audit(w.a.session, "since="+since.Format(time.RFC3339Nano))
		type row struct {
			actor, action, target string
			outcome               int
			requestID             string
		}
		var rows []row
		for _, e := range got {
			if e.OrganizationID != w.a.orgID || e.ProjectID != w.a.projectID {
				t.Errorf("entry %s in organization %q project %q", e.Action, e.OrganizationID, e.ProjectID)
			}
			rows = append(rows, row{e.Actor.Type + ":" + e.Actor.ID, e.Action, e.Target.Type + ":" + e.Target.ID, e.Outcome, e.RequestID})
		}
		keyAllID := got[len(got)-1].Actor.ID
		want := []row{
			{"user:" + w.a.userID, "workflow.delete", "workflow:" + wfID, 204, deleted.header.Get("X-Request-Id")},
			{"user:" + w.a.userID, "user.password_change", "user:" + w.a.userID, 204, ""},
			// Another tenant's id is not named: the entry names only this
			// organization's records.
			{"user:" + w.a.userID, "workflow.delete", "workflow:", 404, foreign.header.Get("X-Request-Id")},
			{"user:" + w.a.userID, "workflow.create", "workflow:", 422, invalid.header.Get("X-Request-Id")},
			{"key:" + w.a.apiKeyID, "workflow.delete", "workflow:" + wfID, 403, refused.header.Get("X-Request-Id")},
			{"user:" + w.a.userID, "workflow.update", "workflow:" + wfID, 200, updated.header.Get("X-Request-Id")},
			{"key:" + keyAllID, "workflow.create", "workflow:" + wfID, 201, created.header.Get("X-Request-Id")},
		}
		if len(rows) != len(want) {
			t.Fatalf("audit entries since the start:\n%+v\nwant\n%+v", rows, want)
		}
		for i := range want {
			if want[i].requestID == "" {
				want[i].requestID = rows[i].requestID
			}
			if rows[i] != want[i] {
				t.Errorf("entry %d = %+v, want %+v", i, rows[i], want[i])
			}
		}
		if !strings.HasPrefix(keyAllID, edgeflow.PrefixAPIKey+"_") {
			t.Errorf("key actor id %q", keyAllID)
		}

		// The session's password change signed it out: sign in again.
		admin, _ := w.signIn(w.a.email, "audit-password-9q2z", nil)
		filters := map[string]int{
			"actor=" + w.a.apiKeyID:  1,
			"action=workflow.delete": 3,
			"target=" + wfID:         4,
			"since=" + since.Format(time.RFC3339Nano) + "&until=" + got[4].Time.Format(time.RFC3339Nano): 2,
		}
		for q, n := range filters {
			if es := w.audit(admin, q); len(es) != n {
				t.Errorf("%s: %d entries, want %d: %+v", q, len(es), n, es)
			}
		}
		checkError(t, w.do("GET", "/api/audit?since=yesterday", "", admin), 422, "validation_failed", "?since")
		checkError(t, w.do("GET", "/api/audit?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z", "", admin), 422, "validation_failed", "?until")

		// Neither a secret value nor a password is in the log, in the
		// answer or in the store.
		page, err := w.store.ListAudit(context.Background(), w.a.orgID, edgeflow.AuditFilter{}, edgeflow.ListOptions{Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		stored, _ := json.Marshal(page.Items)
		answered := w.must(200, "GET", "/api/audit?limit=100", "", admin).body
		for _, secret := range []string{"audit-secret-value-7f3k", "audit-password-9q2z", "password-1", "org-secret-"} {
			if strings.Contains(string(stored), secret) || strings.Contains(string(answered), secret) {
				t.Errorf("the audit log holds %q", secret)
			}
		}

		// Tenant b sees its own log only.
		for _, e := range w.audit(w.b.session, "") {
			if e.OrganizationID != w.b.orgID {
				t.Fatalf("tenant b sees %+v", e)
			}
		}
	})
}

// TestAuditLogRoles: members who are not owners or admins, and keys of such
// members, are refused the audit log; an admin reads it.
func TestAuditLogRoles(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	ctx := context.Background()
	carol, r := w.signUp("carol@example.com")
	carolID := r.json(t)["user"].(map[string]any)["id"].(string)
	if err := w.store.AddMember(ctx, &edgeflow.Membership{OrganizationID: w.a.orgID, UserID: carolID, Role: edgeflow.RoleMember}); err != nil {
		t.Fatal(err)
	}
	q := "?organizationId=" + w.a.orgID
	checkError(t, w.do("GET", "/api/audit"+q, "", carol), 403, "forbidden", "")
	if err := w.store.AddMember(ctx, &edgeflow.Membership{OrganizationID: w.a.orgID, UserID: carolID, Role: edgeflow.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	w.must(200, "GET", "/api/audit"+q, "", carol)
}

// TestAuditEveryWriteRoute: every route that changes something names its
// audit action, and a refused request of each is recorded with the caller
// and the outcome.
func TestAuditEveryWriteRoute(t *testing.T) {
	t.Parallel()
	changesNothing := map[string]bool{"POST /api/ir/validate": true, "POST /api/ir/compile": true,
		"POST /api/connections/verify-token": true,
		// MCP messages: each tool's requests are audited as the routes they call.
		"POST /api/mcp": true, "DELETE /api/mcp": true}
	action := regexp.MustCompile(`^[a-z][a-z0-9_]*\.[a-z][a-z_]*$`)
	w := newWorld(t)
	noCSRF := w.a.session
	noCSRF.csrf = ""
	for _, rt := range w.api.Routes() {
		name := rt.Method + " " + rt.Pattern
		write := rt.Method != "GET" && rt.Method != "HEAD"
		switch {
		case write && !changesNothing[name] && rt.Audit == "":
			t.Errorf("%s changes data but names no Audit action", name)
			continue
		case !write && rt.Audit != "":
			t.Errorf("%s is a read but names an Audit action", name)
		case rt.Audit != "" && !action.MatchString(rt.Audit):
			t.Errorf("%s: audit action %q is not <type>.<verb>", name, rt.Audit)
		}
		if rt.Audit == "" || rt.Auth == api.AuthNone {
			continue
		}
		path, _ := w.pathOf(rt)
		r := w.do(rt.Method, path, "", noCSRF)
		checkError(t, r, 403, "forbidden", "")
		found := false
		for _, e := range w.audit(w.a.session, "action="+rt.Audit) {
			if e.RequestID == r.header.Get("X-Request-Id") {
				found = e.Outcome == 403 && e.Actor.ID == w.a.userID && e.OrganizationID == w.a.orgID
			}
		}
		if !found {
			t.Errorf("%s: the refused request is not in the audit log as user %s, outcome 403", name, w.a.userID)
		}
	}
}

// TestAuditRetention: the sweeper deletes entries older than the retention
// period and keeps the rest.
func TestAuditRetention(t *testing.T) {
	t.Parallel()
	now := time.Now().UTC()
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, config: func(c *api.Config) { c.AuditRetention = time.Hour }})
	ctx := context.Background()
	old := edgeflow.AuditEntry{OrganizationID: w.a.orgID, Action: "workflow.update", Outcome: 200, RequestID: "old-request",
		Actor: edgeflow.AuditActor{Type: "user", ID: w.a.userID}, Time: now.Add(-2 * time.Hour)}
	if err := w.store.RecordAudit(ctx, []edgeflow.AuditEntry{old}); err != nil {
		t.Fatal(err)
	}
	before := len(w.audit(w.a.session, ""))
	n, err := w.api.PurgeAudit(ctx)
	if err != nil || n != 1 {
		t.Fatalf("PurgeAudit = %d, %v; want 1", n, err)
	}
	after := w.audit(w.a.session, "")
	if len(after) != before-1 {
		t.Errorf("%d entries after the purge, want %d", len(after), before-1)
	}
	for _, e := range after {
		if e.RequestID == "old-request" {
			t.Error("the old entry survived")
		}
	}
}
