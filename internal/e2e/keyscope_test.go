package e2e_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/cloudflare"
)

// Read means read (docs/decisions.md 81): a key with the read scope only
// queries D1 read-only; the local edge runs its statements so that the
// database rolls back any change.

// session is a signed-in user of a tenant.
type session struct {
	s       *server
	cookies []*http.Cookie
	csrf    string
}

// signIn signs in as email with bootstrap's password.
func (s *server) signIn(email string) *session {
	t := s.t
	t.Helper()
	body, _ := json.Marshal(map[string]string{"email": email, "password": "e2e-password-1"})
	res, err := s.http.Post(s.url+"/api/auth/sign-in", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("sign-in: %d %s", res.StatusCode, raw)
	}
	var sess struct {
		CSRFToken string `json:"csrfToken"`
	}
	json.Unmarshal(raw, &sess)
	return &session{s: s, cookies: res.Cookies(), csrf: sess.CSRFToken}
}

// must sends a request with the session and fails unless the status is want.
func (ss *session) must(want int, method, path string, body any) reply {
	t := ss.s.t
	t.Helper()
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest(method, ss.s.url+path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.CSRFHeader, ss.csrf)
	for _, c := range ss.cookies {
		req.AddCookie(c)
	}
	res, err := ss.s.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)
	if res.StatusCode != want {
		t.Fatalf("%s %s = %d, want %d: %s", method, path, res.StatusCode, want, out)
	}
	return reply{t: t, status: res.StatusCode, body: out}
}

// keyWithScopes creates, with the session, an API key of the tenant's
// project with scopes, and answers the tenant acting with that key.
func (ss *session) keyWithScopes(scopes ...string) *server {
	r := ss.must(201, "POST", "/api/api-keys", map[string]any{"name": "scoped", "projectId": ss.s.projID, "scopes": scopes})
	o := *ss.s
	o.key = r.str("key")
	return &o
}

// newD1Database creates a database on the local edge (setup, through the
// edge's Cloudflare API) and answers its id.
func newD1Database(t *testing.T, account, name string) string {
	t.Helper()
	c, err := cloudflare.New(cloudflare.Options{BaseURL: shared.edge.APIBaseURL(), APIToken: shared.edge.Token(), AccountID: account})
	if err != nil {
		t.Fatal(err)
	}
	db, err := c.EnsureD1Database(t.Context(), name)
	if err != nil {
		t.Fatal(err)
	}
	return db.UUID
}

type d1Rows struct {
	Columns []string `json:"columns"`
	Rows    [][]any  `json:"rows"`
}

func (s *server) query(dbID, sql string) reply {
	s.t.Helper()
	return s.do("POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": s.conn, "sql": sql})
}

func TestAttackReadKeyWritesD1(t *testing.T) {
	t.Parallel()
	base := newServer(t, serverOptions{})
	const email = "reader@example.com"
	owner := base.tenant(email)
	reader := owner.signIn(email).keyWithScopes("read")
	dbID := newD1Database(t, owner.connectionAccount(), "keyscope-readonly-attack")

	// Twin: the write key creates and fills the table.
	owner.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": owner.conn,
		"sql": "CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT); INSERT INTO items VALUES (1, 'one'), (2, 'two')"})
	snapshot := func() string {
		t.Helper()
		var rows d1Rows
		owner.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": owner.conn,
			"sql": "SELECT (SELECT group_concat(name || ':' || coalesce(sql, ''), '|') FROM sqlite_master WHERE name NOT LIKE '\\_cf\\_%' ESCAPE '\\') AS s, (SELECT group_concat(id || label, ',') FROM items) AS d"}).into(&rows)
		raw, _ := json.Marshal(rows.Rows)
		return string(raw)
	}
	before := snapshot()

	attacks := []string{
		"INSERT INTO items VALUES (3, 'three')",
		"CREATE TABLE evil (x)",
		"DROP TABLE items",
		"SELECT 1; DELETE FROM items",
		"WITH doomed AS (SELECT id FROM items) DELETE FROM items WHERE id IN (SELECT id FROM doomed)",
		"UPDATE items SET label = 'pwned'",
		"DROP TABLE items; CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT)",
		"INSERT INTO items VALUES (9, 'x'); DELETE FROM items WHERE id = 9",
		"CREATE INDEX items_label ON items (label)",
		"ALTER TABLE items ADD COLUMN extra TEXT",
		"CREATE TRIGGER t AFTER INSERT ON items BEGIN DELETE FROM items; END",
		"PRAGMA user_version = 7",
		"PRAGMA writable_schema = ON",
		"ATTACH DATABASE 'file:/tmp/x.db' AS x",
		"VACUUM",
		"REINDEX",
		"ANALYZE",
		"REPLACE INTO items VALUES (1, 'x')",
		"ALTER TABLE items RENAME TO gone",
		"drop table if exists items",
		"  -- a comment first\n/* and another; */\tDROP TABLE items",
		"SELECT 'a;b' AS x; DROP TABLE items",
		"PRAGMA foreign_keys = OFF",
		"DETACH DATABASE x",
	}
	for _, sql := range attacks {
		r := reader.query(dbID, sql)
		if r.status != 403 {
			t.Errorf("read key %q: %d %s, want 403", sql, r.status, r.body)
			continue
		}
		msg := strings.ToLower(string(r.body))
		if !strings.Contains(msg, "can only read") || !strings.Contains(msg, "write scope") || !strings.Contains(msg, `"forbidden"`) {
			t.Errorf("read key %q: the refusal does not say the key can only read and needs the write scope: %s", sql, r.body)
		}
		if strings.Contains(msg, "/tmp") || strings.Contains(msg, "edgeflow: read-only") {
			t.Errorf("read key %q: the refusal shows internals: %s", sql, r.body)
		}
		if after := snapshot(); after != before {
			t.Fatalf("after %q the database changed:\n%s\nwas\n%s", sql, after, before)
		}
	}
	wantError(t, reader.query(dbID, "INSERT INTO items VALUES (4, 'four')"), 403, "forbidden")

	// Twin: the read key reads, several statements included.
	var rows d1Rows
	reader.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": reader.conn,
		"sql": "SELECT count(*) AS n FROM items; SELECT id, label FROM items WHERE id = 1"}).into(&rows)
	reader.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": reader.conn,
		"sql": "SELECT id, label FROM items WHERE id = ?", "params": []any{2}}).into(&rows)
	if len(rows.Rows) != 1 || rows.Rows[0][1] != "two" {
		t.Fatalf("read key SELECT = %+v", rows)
	}
	reader.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": reader.conn,
		"sql": "WITH c AS (SELECT count(*) AS n FROM items) SELECT n FROM c"}).into(&rows)
	if len(rows.Rows) != 1 || rows.Rows[0][0] != float64(2) {
		t.Fatalf("read key WITH SELECT = %+v", rows)
	}
	// A read key's bad SQL is still a clear 422.
	wantError(t, reader.query(dbID, "SELECT nope FROM nowhere"), 422, "validation_failed")

	// Twin: the write key writes.
	owner.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": owner.conn,
		"sql": "INSERT INTO items VALUES (3, 'three')"})
	owner.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": owner.conn,
		"sql": "SELECT count(*) AS n FROM items"}).into(&rows)
	if rows.Rows[0][0] != float64(3) {
		t.Fatalf("write key INSERT did not land: %+v", rows)
	}
	// Attack: a read key's DROP TABLE is refused for lack of the write
	// scope (not "no such table"), and the table stays. Twin: the write key
	// drops it, and then the table is gone for everyone.
	r := reader.query(dbID, "DROP TABLE items")
	if m := wantError(t, r, 403, "forbidden"); !strings.Contains(m["error"].(string), "write scope") {
		t.Fatalf("read key DROP TABLE: %s", r.body)
	}
	reader.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": reader.conn,
		"sql": "SELECT count(*) AS n FROM items"})
	owner.must(200, "POST", "/api/resources/d1/databases/"+dbID+"/query", map[string]any{"connectionId": owner.conn, "sql": "DROP TABLE items"})
	if m := wantError(t, reader.query(dbID, "SELECT count(*) AS n FROM items"), 422, "validation_failed"); !strings.Contains(m["error"].(string), "no such table") {
		t.Fatalf("after the write key's DROP: %v", m)
	}
}

// A Cloudflare connection has no read-only execution: a read key's query is
// refused before any request reaches Cloudflare; a write key's goes out
// unchanged (the stub checks the exact request).
func TestAttackReadKeyQueriesCloudflareD1(t *testing.T) {
	t.Parallel()
	const d1ID = "00000000-0000-4000-8000-0000000000d1"
	var mu sync.Mutex
	var got []string
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.RequestURI()+" "+string(raw))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"success":true,"errors":[],"messages":[],"result":[{"results":{"columns":["n"],"rows":[[1]]},"success":true,"meta":{}}]}`)
	}))
	t.Cleanup(stub.Close)
	base := newServer(t, serverOptions{cloudflareBase: stub.URL + "/client/v4"})
	const email = "cf-reader@example.com"
	owner := base.tenant(email)
	reader := owner.signIn(email).keyWithScopes("read")
	conn := owner.must(201, "POST", "/api/connections", map[string]any{"provider": "cloudflare",
		"credentials": map[string]string{"apiToken": "cf-token-0123456789abcdefghij", "accountId": "0123456789abcdef0123456789abcdef"}}).str("id")

	for _, sql := range []string{"SELECT 1", "DELETE FROM items"} {
		r := reader.do("POST", "/api/resources/d1/databases/"+d1ID+"/query", map[string]any{"connectionId": conn, "sql": sql})
		wantError(t, r, 403, "forbidden")
		if !strings.Contains(string(r.body), "can only read") {
			t.Errorf("refusal does not say why: %s", r.body)
		}
	}
	mu.Lock()
	if len(got) != 0 {
		t.Fatalf("a read key's query reached Cloudflare: %q", got)
	}
	mu.Unlock()

	owner.must(200, "POST", "/api/resources/d1/databases/"+d1ID+"/query", map[string]any{"connectionId": conn, "sql": "SELECT 1 AS n"})
	mu.Lock()
	defer mu.Unlock()
	want := []string{`POST /client/v4/accounts/0123456789abcdef0123456789abcdef/d1/database/` + d1ID + `/raw {"sql":"SELECT 1 AS n"}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("requests to Cloudflare:\n%q\nwant\n%q", got, want)
	}
}

// A project key still deploys with an organization-wide connection (using is
// not changing), and cannot rename it.
func TestLegitProjectKeyDeploysWithOrganizationConnection(t *testing.T) {
	t.Parallel()
	base := newServer(t, serverOptions{})
	const email = "org-conn@example.com"
	owner := base.tenant(email)
	sess := owner.signIn(email)
	orgConn := sess.must(201, "POST", "/api/connections", map[string]any{"provider": "local", "name": "shared edge"})
	if orgConn.str("scope") != "organization" {
		t.Fatalf("session connection: %s", orgConn.body)
	}
	id, _ := owner.workflow("org-conn-fn", "script", script("org-conn-fn", step("out", "return 1;")))
	owner.must(200, "POST", "/api/workflows/"+id+"/deploy", map[string]any{"connectionId": orgConn.str("id")})
	wantError(t, owner.do("PATCH", "/api/connections/"+orgConn.str("id"), map[string]any{"name": "mine now"}), 403, "forbidden")
	owner.must(200, "POST", "/api/workflows/"+id+"/takedown", map[string]any{"connectionId": orgConn.str("id")})
}
