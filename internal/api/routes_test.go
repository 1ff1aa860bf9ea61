package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
)

// TestRouteTable checks that every route describes itself completely.
func TestRouteTable(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	seen := map[string]bool{}
	for _, rt := range w.api.Routes() {
		name := rt.Method + " " + rt.Pattern
		if seen[name] {
			t.Errorf("%s is listed twice", name)
		}
		seen[name] = true
		if rt.Handler == nil {
			t.Errorf("%s has no handler", name)
		}
		if rt.Auth == api.AuthAny || rt.Auth == api.AuthKey {
			if rt.Scope == "" {
				t.Errorf("%s accepts API keys but names no scope", name)
			}
		}
		if rt.ReadsBody() {
			if !json.Valid([]byte(rt.BadBody)) || !strings.HasPrefix(rt.BadBody, "{") {
				t.Errorf("%s reads a body but has no BadBody JSON object (or set NoBody)", name)
			}
		}
		if rt.Method != "GET" && rt.Auth != api.AuthNone && rt.Limit == api.LimitGlobal && rt.Pattern != "/api/session/active" && rt.Pattern != "/api/auth/sign-out" &&
			rt.Protocol == "" { // an MCP message: its tools' requests count against their own routes' limits

			t.Errorf("%s changes data but counts against no per-user limit", name)
		}
		switch {
		case rt.Auth == api.AuthNone && (rt.Role != "" || rt.Personal):
			t.Errorf("%s is public but names a role or is personal", name)
		case rt.Personal && rt.Auth != api.AuthSession:
			t.Errorf("%s is personal but not session-only", name)
		case rt.Personal && rt.Role != "":
			t.Errorf("%s is personal and names a role", name)
		case rt.Auth != api.AuthNone && !rt.Personal && rt.MinRole() == "":
			t.Errorf("%s needs no role", name)
		case strings.Contains(rt.Pattern, "{organizationId}") && rt.Personal:
			t.Errorf("%s acts in an organization but is personal", name)
		}
		w.pathOf(rt) // fails without a fixture
	}
}

// TestAuthorizationMatrix sends every authenticated route the credentials
// it must refuse, and checks that nothing of tenant a leaks.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	before := w.snapshot(w.a)
	aSecrets := []string{"wf-secret-", "org-secret-", "cf-token-"}
	for _, rt := range w.api.Routes() {
		if rt.Auth == api.AuthNone {
			continue
		}
		path, hasParam := w.pathOf(rt)
		body := ""
		if rt.ReadsBody() {
			body = rt.BadBody
		}
		name := rt.Method + " " + rt.Pattern
		t.Run(name, func(t *testing.T) {
			check := func(who string, c cred, wantStatus int, wantCode string, p string) {
				t.Helper()
				r := w.do(rt.Method, p, body, c)
				if r.status != wantStatus {
					t.Fatalf("%s: status %d, want %d\n%s", who, r.status, wantStatus, r.body)
				}
				if wantCode != "" {
					checkError(t, r, wantStatus, wantCode, "")
				}
				for _, id := range w.a.ids() {
					if strings.Contains(string(r.body), id) {
						t.Fatalf("%s: response leaks %s: %s", who, id, r.body)
					}
				}
			}
			check("no credentials", cred{}, 401, "unauthorized", path)
			check("revoked key", w.a.keyRevoked, 401, "unauthorized", path)
			check("expired key", w.a.keyExpired, 401, "unauthorized", path)
			check("garbage key", cred{key: "ask_0000000000000000000000000000000000000000000"}, 401, "unauthorized", path)
			check("unknown session", cred{cookie: "nope", csrf: "x"}, 401, "unauthorized", path)

			switch {
			case rt.Auth == api.AuthSession:
				check("key with every scope", w.a.keyAll, 403, "forbidden", path)
			case rt.Scope != "read":
				check("read-only key", w.a.keyRead, 403, "forbidden", path)
			}
			if rt.Auth != api.AuthSession {
				check("key of another project, overriding the project", w.b.keyAll, 404, "not_found", path+sep(path)+"projectId="+w.a.projectID)
				check("key of another organization, overriding it", w.b.keyAll, 404, "not_found", path+sep(path)+"organizationId="+w.a.orgID)
			}
			check("session of a non-member, overriding the organization", w.b.session, 404, "not_found", path+sep(path)+"organizationId="+w.a.orgID)
			check("session of a non-member, overriding the project", w.b.session, 404, "not_found", path+sep(path)+"projectId="+w.a.projectID)
			if hasParam {
				if rt.Auth != api.AuthSession {
					check("key of another organization", w.b.keyAll, 404, "not_found", path)
				}
				check("session of a non-member", w.b.session, 404, "not_found", path)
				if !orgWide[rt.Pattern] && rt.Auth != api.AuthSession {
					// Organization-wide records (keys, installed nodes) are visible to every project of it.
					check("key of another project of the same organization", w.a.keyOtherProject, 404, "not_found", path)
				}
				if f, ok := orgRecordPaths[rt.Pattern]; ok && rt.Method != "GET" {
					// Only a session changes an organization-wide record (docs/decisions.md 80).
					check("project key on an organization-wide record", w.a.keyAll, 403, "forbidden", f(w))
				}
			} else if rt.Method == "GET" && !reachesProvider[rt.Pattern] && rt.Protocol == "" {
				r := w.do("GET", path, "", w.b.keyAll)
				if r.status != 200 && rt.Auth != api.AuthSession {
					t.Fatalf("tenant b listing its own %s: %d %s", path, r.status, r.body)
				}
				for _, id := range w.a.ids() {
					if strings.Contains(string(r.body), id) {
						t.Fatalf("tenant b's list leaks %s: %s", id, r.body)
					}
				}
			}
			if rt.Method != "GET" {
				noCSRF := w.a.session
				noCSRF.csrf = ""
				check("session without CSRF token", noCSRF, 403, "forbidden", path)
				wrongCSRF := w.a.session
				wrongCSRF.csrf = w.b.session.csrf
				check("session with another session's CSRF token", wrongCSRF, 403, "forbidden", path)
			}
			for _, c := range []cred{w.b.keyAll, w.b.session} {
				r := w.do("GET", "/api/workflows/"+w.a.workflowID, "", c)
				for _, s := range aSecrets {
					if strings.Contains(string(r.body), s) {
						t.Fatalf("secret leaked: %s", r.body)
					}
				}
			}
		})
	}
	if after := w.snapshot(w.a); after != before {
		t.Errorf("refused requests changed tenant a's data:\nbefore %s\nafter  %s", before, after)
	}
}

// orgWide are the routes of records that belong to the organization, not
// to one project: every project's keys reach them (projects themselves: a
// key with write manages its organization's projects, docs/decisions.md
// 110). (The fixtures of connections and provider resources are a
// connection of tenant a's project, which other projects do not see.)
var orgWide = map[string]bool{"/api/api-keys/{id}": true, "/api/projects/{id}": true,
	"/api/nodes/{nodeId}": true, "/api/marketplace/{nodeId}": true}

// orgRecordPaths give, for routes that change a record that may be
// organization-wide, the path of tenant a's organization-wide record.
var orgRecordPaths = map[string]func(w *world) string{
	"/api/connections/{id}": func(w *world) string { return "/api/connections/" + w.a.orgConnectionID },
	"/api/env-vars/{id}":    func(w *world) string { return "/api/env-vars/" + w.a.envVarID },
}

func sep(path string) string {
	if strings.Contains(path, "?") {
		return "&"
	}
	return "?"
}

// otherType returns a JSON value of a type different from v's.
func otherType(v any) string {
	switch v.(type) {
	case string:
		return "12345"
	default:
		return `"not the right type"`
	}
}

// TestBadInput sends every route that reads a body malformed JSON, wrong
// types, unknown fields, an oversized body and its BadBody, text that is not
// UTF-8, duplicate keys, keys in another case and a null body; every route a
// malformed query string; and every list invalid pagination parameters and
// another tenant's cursor. Each gets its documented 4xx and nothing stored
// changes.
func TestBadInput(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	foreignCursor, _ := w.must(200, "GET", "/api/projects?limit=1", "", w.b.session).json(t)["nextCursor"].(string)
	if foreignCursor == "" {
		t.Fatal("tenant b's project list has no second page")
	}
	before := w.snapshot(w.a)
	for _, rt := range w.api.Routes() {
		path, _ := w.pathOf(rt)
		c := w.a.session
		switch rt.Auth {
		case api.AuthNone:
			c = cred{}
		case api.AuthKey:
			c = w.a.keyAll
		}
		name := rt.Method + " " + rt.Pattern
		t.Run(name+" query", func(t *testing.T) {
			sep := "?"
			if strings.Contains(path, "?") {
				sep = "&"
			}
			body := ""
			if rt.ReadsBody() {
				body = rt.BadBody
			}
			for _, q := range []string{"x=%zz", "x=1;y=2", "x=%", "x=%ff"} {
				checkError(t, w.do(rt.Method, path+sep+q, body, c), 400, "bad_request", "")
			}
		})
		if rt.Protocol != "" {
			continue // its messages are the protocol's: internal/mcp tests them
		}
		if rt.ReadsBody() {
			t.Run(name, func(t *testing.T) {
				checkError(t, w.do(rt.Method, path, `{"name":`, c), 400, "bad_request", "")
				checkError(t, w.do(rt.Method, path, `{"name" "x"}`, c), 400, "bad_request", "")
				checkError(t, w.do(rt.Method, path, `{} {}`, c), 400, "bad_request", "")
				checkError(t, w.do(rt.Method, path, `{}x`, c), 400, "bad_request", "")
				noBody, noBodyCode := 400, "bad_request"
				if deployRoutes[rt.Pattern] { // they name connectionId (TestDeployWithoutBody)
					noBody, noBodyCode = 422, "validation_failed"
				}
				checkError(t, w.doType(rt.Method, path, `{}`, "", c), noBody, noBodyCode, "")
				checkError(t, w.doType(rt.Method, path, `{}`, "text/plain", c), 400, "bad_request", "")
				checkError(t, w.doType(rt.Method, path, "", "application/json", c), noBody, noBodyCode, "")
				checkError(t, w.do(rt.Method, path, `[1,2]`, c), 422, "validation_failed", "/")
				checkError(t, w.do(rt.Method, path, `"x"`, c), 422, "validation_failed", "/")
				checkError(t, w.do(rt.Method, path, `{"zzUnknownField":1}`, c), 422, "validation_failed", "/zzUnknownField")
				big := `{"name":"` + strings.Repeat("x", int(rt.BodyLimit())+10) + `"}`
				checkError(t, w.do(rt.Method, path, big, c), 413, "payload_too_large", "")
				checkError(t, w.do(rt.Method, path, rt.BadBody, c), 422, "validation_failed", "")
				var fields map[string]any
				if err := json.Unmarshal([]byte(rt.BadBody), &fields); err != nil {
					t.Fatal(err)
				}
				for f, v := range fields {
					body := fmt.Sprintf(`{%q:%s}`, f, otherType(v))
					checkError(t, w.do(rt.Method, path, body, c), 422, "validation_failed", "/"+f)
					same, _ := json.Marshal(v)
					dup := fmt.Sprintf(`{%q:%s,%q:%s}`, f, same, f, same)
					checkError(t, w.do(rt.Method, path, dup, c), 400, "bad_request", "/"+f)
					upper := strings.ToUpper(f[:1]) + f[1:]
					checkError(t, w.do(rt.Method, path, fmt.Sprintf(`{%q:%s}`, upper, same), c), 422, "validation_failed", "/"+upper)
				}
				checkError(t, w.do(rt.Method, path, "{\"zz\xff\":1}", c), 400, "bad_request", "")
				checkError(t, w.do(rt.Method, path, "{\"zz\":\"\xc3\x28\"}", c), 400, "bad_request", "")
				checkError(t, w.do(rt.Method, path, `null`, c), 400, "bad_request", "/")
			})
		}
		if rt.Method == "GET" && rt.Auth != api.AuthNone && !reachesProvider[rt.Pattern] {
			r := w.do("GET", path, "", c)
			if r.status != 200 {
				t.Errorf("GET %s = %d %s", path, r.status, r.body)
				continue
			}
			var m map[string]json.RawMessage
			json.Unmarshal(r.body, &m)
			if _, isList := m["nextCursor"]; !isList {
				if slices.Contains(rt.Query, "cursor") || slices.Contains(rt.Query, "limit") {
					t.Errorf("GET %s reads cursor and limit but answers no {data, nextCursor}: %.200s", path, r.body)
				}
				continue
			}
			if _, ok := m["data"]; !ok {
				t.Errorf("GET %s has nextCursor but no data", path)
			}
			t.Run(name+" pagination", func(t *testing.T) {
				for _, q := range []string{"limit=0", "limit=101", "limit=-1", "limit=abc", "limit=1.5", "limit=", "limit=5&limit=6"} {
					checkError(t, w.do("GET", path+"?"+q, "", c), 422, "validation_failed", "?limit")
				}
				checkError(t, w.do("GET", path+"?cursor=not-a-cursor!", "", c), 422, "validation_failed", "?cursor")
				checkError(t, w.do("GET", path+"?cursor="+strings.Repeat("A", 2000), "", c), 422, "validation_failed", "?cursor")
				checkError(t, w.do("GET", path+"?cursor="+foreignCursor, "", c), 400, "bad_request", "?cursor")
				for _, q := range []string{"limit=1", "limit=100"} {
					if r := w.do("GET", path+"?"+q, "", c); r.status != 200 {
						t.Errorf("%s?%s = %d %s", path, q, r.status, r.body)
					}
				}
			})
		}
	}
	if after := w.snapshot(w.a); after != before {
		t.Errorf("bad input changed tenant a's data:\nbefore %s\nafter  %s", before, after)
	}
}

// TestUnknownPathsAndMethods checks the JSON 404 and 405.
func TestUnknownPathsAndMethods(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	checkError(t, w.do("GET", "/api/nothing-here", "", cred{}), 404, "not_found", "")
	r := w.do("PUT", "/api/workflows", "{}", w.a.keyAll)
	checkError(t, r, 405, "method_not_allowed", "")
	if allow := r.header.Get("Allow"); !strings.Contains(allow, "GET") || !strings.Contains(allow, "POST") {
		t.Fatalf("Allow = %q", allow)
	}
	if r := w.do("GET", "/healthz", "", cred{}); r.status != 200 || r.header.Get("X-Request-Id") == "" {
		t.Fatalf("healthz = %d %v", r.status, r.header)
	}
	if r := w.do("GET", "/readyz", "", cred{}); r.status != 200 {
		t.Fatalf("readyz = %d %s", r.status, r.body)
	}
	req, _ := http.NewRequest("GET", w.srv.URL+"/healthz", nil)
	req.Header.Set("X-Request-Id", "client-id-1")
	res, err := w.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Get("X-Request-Id"); got != "client-id-1" {
		t.Fatalf("X-Request-Id = %q, want the client's", got)
	}
	if !slices.ContainsFunc(w.api.Routes(), func(rt api.Route) bool { return rt.Pattern == "/api/workflows" }) {
		t.Fatal("Routes lacks /api/workflows")
	}
}
