package api_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// openEnvVar returns the stored value of a global variable of tenant a
// (opened with the test world's key): what a deployment would get.
func (w *world) openEnvVar(id string) string {
	w.t.Helper()
	v, err := w.store.FindEnvVarByID(context.Background(), w.a.orgID, id)
	if err != nil {
		w.t.Fatal(err)
	}
	sealer, _ := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	plain, err := sealer.OpenEnvVar(v)
	if err != nil {
		w.t.Fatal(err)
	}
	return plain
}

// TestAttackMalformedText sends bodies encoding/json would silently
// rewrite or resolve: text that is not UTF-8 (a secret would be stored with
// U+FFFD in it), unpaired surrogate escapes, duplicate keys at any depth,
// keys in another case, a null body. Each is refused with the path of the
// bad value and nothing is stored.
func TestAttackMalformedText(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.session
	before := w.snapshot(w.a)
	for _, tc := range []struct {
		method, path, body string
		status             int
		code, at           string
	}{
		{"POST", "/api/env-vars", "{\"name\":\"BIN\",\"value\":\"tok\xff\xfeen\",\"isSecret\":true}", 400, "bad_request", "/value"},
		{"POST", "/api/env-vars", "{\"name\":\"BIN\",\"value\":\"x\",\"isSecret\":true,\"\xc3\":1}", 400, "bad_request", "/"},
		{"POST", "/api/env-vars", `{"name":"BIN","value":"half \ud800 pair","isSecret":true}`, 400, "bad_request", "/value"},
		{"POST", "/api/env-vars", `{"name":"BIN","value":"\udc00","isSecret":true}`, 400, "bad_request", "/value"},
		{"POST", "/api/env-vars", `{"name":"BIN","value":"a","value":"b","isSecret":true}`, 400, "bad_request", "/value"},
		{"POST", "/api/projects", `{"name":"P","name":"Q"}`, 400, "bad_request", "/name"},
		{"PATCH", "/api/workflows/" + w.a.workflowID, `{"deployConfig":{"route":{"pattern":"a.example.com/*","zoneName":"example.com","pattern":"b.example.com/*"}}}`, 400, "bad_request", "/deployConfig/route/pattern"},
		{"PATCH", "/api/workflows/" + w.a.workflowID, `{"envVars":[{"name":"A","value":"1","isSecret":false},{"name":"B","value":"2","isSecret":false,"name":"C"}]}`, 400, "bad_request", "/envVars/1/name"},
		{"POST", "/api/connections", `{"provider":"cloudflare","name":"x","credentials":{"apiToken":"one","accountId":"a","apiToken":"two"}}`, 400, "bad_request", "/credentials/apiToken"},
		{"POST", "/api/projects", `{"NAME":"Shadow"}`, 422, "validation_failed", "/NAME"},
		{"POST", "/api/env-vars", `{"name":"CASE","Value":"x","value":"y","isSecret":true}`, 422, "validation_failed", "/Value"},
		{"PATCH", "/api/workflows/" + w.a.workflowID, `{"deployConfig":{"Route":{"pattern":"a.example.com/*","zoneName":"example.com"}}}`, 422, "validation_failed", "/deployConfig/Route"},
		{"POST", "/api/projects", `null`, 400, "bad_request", "/"},
		{"PATCH", "/api/projects/" + w.a.projectID, ` null `, 400, "bad_request", "/"},
	} {
		checkError(t, w.do(tc.method, tc.path, tc.body, k), tc.status, tc.code, tc.at)
	}
	if after := w.snapshot(w.a); after != before {
		t.Errorf("refused bodies changed tenant a's data:\nbefore %s\nafter  %s", before, after)
	}
}

// TestLegitText: non-ASCII text, escapes and surrogate pairs are kept byte
// for byte, in secrets too; the same key in different objects is fine.
func TestLegitText(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.session
	value := "pä$$wörd-日本語-🔑-\u00a0-\"q\"-\\"
	r := w.must(201, "POST", "/api/env-vars", fmt.Sprintf(`{"name":"UNI","value":%q,"isSecret":true}`, value), k)
	if got := w.openEnvVar(r.str(t, "id")); got != value {
		t.Fatalf("secret stored as %q, want %q", got, value)
	}
	r = w.must(201, "POST", "/api/env-vars", `{"name":"ESC","value":"\u00e9\ud83d\udd11\u65e5","isSecret":false}`, k)
	if got := r.str(t, "value"); got != "é🔑日" {
		t.Fatalf("escaped value %q", got)
	}
	w.must(200, "PATCH", "/api/workflows/"+w.a.workflowID,
		`{"envVars":[{"name":"A","value":"1","isSecret":false},{"name":"B","value":"2","isSecret":false}]}`, k)
	w.must(201, "POST", "/api/projects", `{"name":"Café ☕"}`, k)
	w.must(201, "POST", "/api/projects", `{"n\u0061me":"Escaped key"}`, w.a.session)
}

// TestAttackQueryStrings: a query net/url cannot parse would be dropped
// silently (a filter or a limit ignored); it is 400.
func TestAttackQueryStrings(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, q := range []string{"limit=5;limit=100", "limit=%zz", "cursor=%", "status=%ff%fe", "a=1&b=%gg", ";"} {
		for _, path := range []string{"/api/workflows", "/api/runs", "/api/projects/" + w.a.projectID} {
			method, body := "GET", ""
			if strings.HasPrefix(path, "/api/projects/") {
				method, body = "PATCH", `{"name":"Kept"}`
			}
			checkError(t, w.do(method, path+"?"+q, body, w.a.keyAll), 400, "bad_request", "")
		}
	}
	// Still the tenant's own name: nothing was changed by the refused PATCHes.
	if r := w.must(200, "GET", "/api/projects", "", w.a.session); strings.Contains(string(r.body), "Kept") {
		t.Fatalf("a refused PATCH changed the project: %s", r.body)
	}
}

// TestLegitQueryStrings: escapes, '+' and empty values parse as before.
func TestLegitQueryStrings(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, q := range []string{"limit=5", "limit=%35", "limit=5&status=", "status=complete&limit=1", "x=a+b%20c%2F"} {
		w.must(200, "GET", "/api/runs?"+q, "", w.a.keyAll)
	}
}

// TestAttackForeignCursor replays page cursors on other lists: of another
// endpoint, of another workflow's list, of another tenant. Each is 400; a
// cursor altered by hand is 422.
func TestAttackForeignCursor(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := range 3 {
		for _, c := range []cred{w.a.keyAll, w.b.keyAll, w.a.keyOtherProject} {
			w.must(201, "POST", "/api/workflows", fmt.Sprintf(`{"name":"W%d"}`, i), c)
		}
	}
	cursor := func(path string, c cred) string {
		t.Helper()
		s, _ := w.must(200, "GET", path, "", c).json(t)["nextCursor"].(string)
		if s == "" {
			t.Fatalf("%s has no next page", path)
		}
		return s
	}
	mine := cursor("/api/workflows?limit=1", w.a.keyAll)
	theirs := cursor("/api/workflows?limit=1", w.b.keyAll)
	projects := cursor("/api/projects?limit=1", w.a.session)
	otherProject := cursor("/api/workflows?limit=1&projectId="+w.a.otherProjectID, w.a.session)
	for _, tc := range []struct {
		path string
		c    cred
	}{
		{"/api/workflows?limit=1&cursor=" + theirs, w.a.keyAll},
		{"/api/workflows?limit=1&cursor=" + mine, w.b.keyAll},
		{"/api/workflows?limit=1&cursor=" + projects, w.a.session},
		{"/api/projects?limit=1&cursor=" + mine, w.a.session},
		{"/api/env-vars?limit=1&cursor=" + mine, w.a.keyAll},
		{"/api/workflows?limit=1&cursor=" + otherProject, w.a.session},
		{"/api/workflows/" + w.a.workflowID + "/versions?cursor=" + mine, w.a.keyAll},
	} {
		checkError(t, w.do("GET", tc.path, "", tc.c), 400, "bad_request", "?cursor")
	}
	forged := []byte(mine)
	forged[len(forged)-1] ^= 1
	if forged[len(forged)-1] == '-' || forged[len(forged)-1] == '_' {
		forged[len(forged)-1] = 'A'
	}
	checkError(t, w.do("GET", "/api/workflows?limit=1&cursor="+string(forged), "", w.a.keyAll), 422, "validation_failed", "?cursor")
	checkError(t, w.do("GET", "/api/workflows?limit=1&cursor="+mine+"&cursor="+mine, "", w.a.keyAll), 422, "validation_failed", "?cursor")
}

// TestLegitCursor pages through a list to its end with its own cursors,
// with a session and with an API key of the same project.
func TestLegitCursor(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i := range 4 {
		w.must(201, "POST", "/api/workflows", fmt.Sprintf(`{"name":"W%d"}`, i), w.a.keyAll)
	}
	for _, c := range []cred{w.a.keyAll, w.a.session, w.a.keyRead} {
		seen := 0
		path := "/api/workflows?limit=2"
		for {
			m := w.must(200, "GET", path, "", c).json(t)
			seen += len(m["data"].([]any))
			next, _ := m["nextCursor"].(string)
			if next == "" {
				break
			}
			path = "/api/workflows?limit=2&cursor=" + url.QueryEscape(next)
		}
		if seen != 5 {
			t.Fatalf("paged through %d workflows, want 5", seen)
		}
	}
}

// TestAttackControlCharactersInNames tries names that would break logs,
// terminals and displays (NUL, escape sequences, newlines, bidi overrides):
// 422 with the path of the name, nothing stored.
func TestAttackControlCharactersInNames(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	before := w.snapshot(w.a)
	k := w.a.keyAll
	for _, bad := range []string{"a\x00b", "red\x1b[31m", "two\nlines", "tab\there", "del\x7f", "c1\u0085x", "evil\u202egnp.exe", "iso\u2066x", "sep\u2028x"} {
		name := fmt.Sprintf("%q", bad)
		name = strings.ReplaceAll(name, `\x`, `\u00`) // JSON has no \x escape
		for _, tc := range []struct{ method, path, body, at string }{
			{"POST", "/api/projects", `{"name":` + name + `}`, "/name"},
			{"PATCH", "/api/projects/" + w.a.projectID, `{"name":` + name + `}`, "/name"},
			{"POST", "/api/workflows", `{"name":` + name + `}`, "/name"},
			{"PATCH", "/api/workflows/" + w.a.workflowID, `{"name":` + name + `}`, "/name"},
			{"POST", "/api/connections", `{"provider":"local","name":` + name + `}`, "/name"},
			{"PATCH", "/api/connections/" + w.a.connectionID, `{"name":` + name + `}`, "/name"},
			{"POST", "/api/api-keys", `{"name":` + name + `,"projectId":"` + w.a.projectID + `","scopes":["read"]}`, "/name"},
			{"POST", "/api/env-vars", `{"name":` + name + `,"value":"v","isSecret":false}`, "/name"},
		} {
			c := k
			if tc.path == "/api/api-keys" || tc.method == "POST" && tc.path == "/api/projects" {
				c = w.a.session
			}
			checkError(t, w.do(tc.method, tc.path, tc.body, c), 422, "validation_failed", tc.at)
		}
		checkError(t, w.do("POST", "/api/auth/sign-up", `{"email":"ctl@example.com","password":"password-1","name":`+name+`}`, cred{}), 422, "validation_failed", "/name")
		checkError(t, w.do("POST", "/api/auth/sign-up", `{"email":"ctl@example.com","password":"password-1","organizationName":`+name+`}`, cred{}), 422, "validation_failed", "/organizationName")
	}
	if after := w.snapshot(w.a); after != before {
		t.Errorf("refused names changed tenant a's data:\nbefore %s\nafter  %s", before, after)
	}
	checkError(t, w.do("POST", "/api/auth/sign-in", signInBody("ctl@example.com", "password-1"), cred{}), 401, "unauthorized", "")
}

// TestLegitNames: names in any script, with spaces and punctuation.
func TestLegitNames(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for _, name := range []string{"Café ☕ 日本", "Ünïcödé – “quoted” (v2)", "עברית", "emoji 🚀 ok"} {
		body := fmt.Sprintf(`{"name":%q}`, name)
		r := w.must(201, "POST", "/api/workflows", body, w.a.keyAll)
		if r.str(t, "name") != name {
			t.Fatalf("name %q stored as %q", name, r.str(t, "name"))
		}
		w.must(201, "POST", "/api/projects", body, w.a.session)
		w.must(201, "POST", "/api/connections", fmt.Sprintf(`{"provider":"local","name":%q}`, name), w.a.keyAll)
	}
	w.must(201, "POST", "/api/auth/sign-up", `{"email":"named@example.com","password":"password-1","name":"Zoë","organizationName":"Zoë's Café"}`, cred{})
}

// TestAttackResourceIDs sends resource routes ids that are not ids: path
// segments that would reach other provider endpoints, prototype names, bad
// UUIDs. Each is 400 with the path parameter, before any provider is asked.
func TestAttackResourceIDs(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	c := "?connectionId=" + w.a.connectionID
	const ns = "0123456789abcdef0123456789abcdef"
	for _, tc := range []struct{ method, path, at string }{
		{"GET", "/api/resources/kv/namespaces/__proto__/keys" + c, ":namespaceId"},
		{"GET", "/api/resources/kv/namespaces/..%2F..%2Fworkers%2Fscripts/keys" + c, ":namespaceId"},
		{"GET", "/api/resources/kv/namespaces/0123456789ABCDEF0123456789ABCDEF/keys" + c, ":namespaceId"},
		{"GET", "/api/resources/kv/namespaces/" + ns + "x/keys" + c, ":namespaceId"},
		{"GET", "/api/resources/kv/namespaces/constructor/values/k" + c, ":namespaceId"},
		{"GET", "/api/resources/kv/namespaces/" + ns + "/values/" + strings.Repeat("k", 513) + c, ":key"},
		{"GET", "/api/resources/kv/namespaces/" + ns + "/values/%FF" + c, ":key"},
		{"POST", "/api/resources/d1/databases/not-a-uuid/query" + c, ":databaseId"},
		{"POST", "/api/resources/d1/databases/01234567-89ab-cdef-0123-456789abcdeg/query" + c, ":databaseId"},
		{"GET", "/api/resources/r2/buckets/Upper/objects" + c, ":bucketName"},
		{"GET", "/api/resources/r2/buckets/ab/objects" + c, ":bucketName"},
		{"GET", "/api/resources/r2/buckets/-dash-/objects" + c, ":bucketName"},
		{"GET", "/api/resources/r2/buckets/" + strings.Repeat("b", 64) + "/objects" + c, ":bucketName"},
		{"GET", "/api/resources/r2/buckets/Upper/objects/a.txt" + c, ":bucketName"},
		{"GET", "/api/resources/r2/buckets/bucket-1/objects/" + strings.Repeat("k", 1025) + c, ":key"},
		{"GET", "/api/resources/r2/buckets/bucket-1/objects/%FF" + c, ":key"},
		{"GET", "/api/resources/r2/buckets/bucket-1/objects/" + c, ":key"},
	} {
		body := ""
		if tc.method == "POST" {
			body = `{"connectionId":"` + w.a.connectionID + `","sql":"SELECT 1"}`
		}
		checkError(t, w.do(tc.method, tc.path, body, w.a.keyAll), 400, "bad_request", tc.at)
	}
	// An R2 object listing's delimiter is text of at most 16 bytes.
	for _, d := range []string{"", strings.Repeat("/", 17), "%0A", "a&delimiter=b"} {
		checkError(t, w.do("GET", "/api/resources/r2/buckets/bucket-1/objects"+c+"&delimiter="+d, "", w.a.keyAll), 422, "validation_failed", "?delimiter")
	}
	// Dot segments never reach a handler: the router answers 404.
	checkError(t, w.do("GET", "/api/resources/kv/namespaces/"+ns+"/values/.."+c, "", w.a.keyAll), 404, "not_found", "")
}

// TestEnvVarMaskKeepsSecret: a client that sends back the "***" it was shown
// for a secret keeps the stored secret instead of overwriting it with "***";
// a new value still replaces it, and a plain variable may hold "***".
func TestEnvVarMaskKeepsSecret(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.session // the variable is organization-wide: a session changes it (a project key may not)
	want := "org-secret-alice@example.com"
	r := w.must(200, "PATCH", "/api/env-vars/"+w.a.envVarID, `{"value":"***"}`, k)
	if r.str(t, "value") != "***" || w.openEnvVar(w.a.envVarID) != want {
		t.Fatalf("after PATCH with the mask the secret is %q", w.openEnvVar(w.a.envVarID))
	}
	w.must(200, "PATCH", "/api/env-vars/"+w.a.envVarID, `{"value":"***","name":"RENAMED_TOKEN"}`, k)
	if w.openEnvVar(w.a.envVarID) != want {
		t.Fatal("renaming with the mask lost the secret")
	}
	// Turning it plain with the mask is not a value.
	checkError(t, w.do("PATCH", "/api/env-vars/"+w.a.envVarID, `{"value":"***","isSecret":false}`, k), 422, "validation_failed", "/value")
	w.must(200, "PATCH", "/api/env-vars/"+w.a.envVarID, `{"value":"rotated"}`, k)
	if got := w.openEnvVar(w.a.envVarID); got != "rotated" {
		t.Fatalf("new value stored as %q", got)
	}
	plain := w.must(201, "POST", "/api/env-vars", `{"name":"STARS","value":"x","isSecret":false}`, k).str(t, "id")
	if r := w.must(200, "PATCH", "/api/env-vars/"+plain, `{"value":"***"}`, k); r.str(t, "value") != "***" {
		t.Fatalf("plain variable: %s", r.body)
	}
}

// TestAttackSecretSetToMask: a secret can be neither created nor set to
// "***", the mask the API shows in place of a secret (a client could not
// tell it from a masked secret, and sending the mask back keeps the stored
// value): a global variable, a workflow's variable, a plain "***" turned
// secret, a connection's token. 422 naming the field. Twin: a real secret
// is created and set, and a plain variable may hold "***".
func TestAttackSecretSetToMask(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.keyAll
	checkError(t, w.do("POST", "/api/env-vars", `{"name":"MASKED","value":"***","isSecret":true,"scope":"project"}`, k), 422, "validation_failed", "/value")
	plain := w.must(201, "POST", "/api/env-vars", `{"name":"STARS","value":"***","isSecret":false,"scope":"project"}`, k).str(t, "id")
	checkError(t, w.do("PATCH", "/api/env-vars/"+plain, `{"isSecret":true}`, k), 422, "validation_failed", "/value")
	checkError(t, w.do("PATCH", "/api/env-vars/"+plain, `{"value":"***","isSecret":true}`, k), 422, "validation_failed", "/value")
	wf := "/api/workflows/" + w.a.workflowID
	checkError(t, w.do("PATCH", wf, `{"envVars":[{"name":"NEW","value":"***","isSecret":true}]}`, k), 422, "validation_failed", "/envVars/0/value")
	w.must(200, "PATCH", wf, `{"envVars":[{"name":"STARS","value":"***","isSecret":false}]}`, k)
	checkError(t, w.do("PATCH", wf, `{"envVars":[{"name":"STARS","value":"***","isSecret":true}]}`, k), 422, "validation_failed", "/envVars/0/value")
	checkError(t, w.do("POST", "/api/connections", `{"provider":"cloudflare","credentials":{"apiToken":"***","accountId":"0123456789abcdef0123456789abcdef"}}`, k),
		422, "validation_failed", "/credentials/apiToken")
	checkError(t, w.do("PATCH", "/api/connections/"+w.a.connectionID, `{"credentials":{"apiToken":"***"}}`, k), 422, "validation_failed", "/credentials/apiToken")

	// Twin: real secrets are created and set; the plain "***" stays plain.
	id := w.must(201, "POST", "/api/env-vars", `{"name":"REAL","value":"s3cret-value","isSecret":true,"scope":"project"}`, k).str(t, "id")
	if got := w.openEnvVar(id); got != "s3cret-value" {
		t.Fatalf("secret stored as %q", got)
	}
	w.must(200, "PATCH", "/api/env-vars/"+plain, `{"value":"now-a-secret","isSecret":true}`, k)
	if got := w.openEnvVar(plain); got != "now-a-secret" {
		t.Fatalf("turned secret as %q", got)
	}
	w.must(200, "PATCH", wf, `{"envVars":[{"name":"STARS","value":"a-real-one","isSecret":true}]}`, k)
	w.must(200, "PATCH", wf, `{"envVars":[{"name":"STARS","value":"***","isSecret":true}]}`, k) // the mask keeps it
}

// slowWorld is a world whose bodies must arrive within a short timeout.
func slowWorld(t *testing.T) *world {
	return newWorld(t, worldOptions{limits: ratelimit.Limits{Off: true}, bodyReadTimeout: 2 * time.Second})
}

// rawRequest opens a connection to the world and writes the head of a POST
// with a JSON body of length n.
func (w *world) rawRequest(path string, c cred, n int) (net.Conn, *bufio.Reader) {
	w.t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(w.srv.URL, "http://"))
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\nAuthorization: Bearer %s\r\n\r\n", path, n, c.key)
	return conn, bufio.NewReader(conn)
}

// TestAttackSlowBody holds a connection open by sending a body's first
// bytes and then nothing (slow loris): the server answers 408 and closes
// the connection once the body read timeout passes; nothing is stored.
func TestAttackSlowBody(t *testing.T) {
	t.Parallel()
	w := slowWorld(t)
	before := w.snapshot(w.a)
	body := `{"name":"Slow loris"}`
	conn, rd := w.rawRequest("/api/workflows", w.a.keyAll, len(body))
	io.WriteString(conn, body[:5])
	res, err := http.ReadResponse(rd, nil)
	if err != nil {
		t.Fatalf("no response, want 408: %v", err)
	}
	if res.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", res.StatusCode)
	}
	io.Copy(io.Discard, res.Body)
	if _, err := rd.ReadByte(); err == nil {
		t.Fatal("the connection stayed open after the timeout")
	}
	if after := w.snapshot(w.a); after != before {
		t.Errorf("the slow body changed tenant a's data")
	}
}

// TestLegitSlowishBody sends a body in pieces with pauses, within the
// timeout: it is read and the request succeeds; the connection then serves
// a long-running request after the deadline without being cut.
func TestLegitSlowishBody(t *testing.T) {
	t.Parallel()
	w := slowWorld(t)
	body := `{"name":"Slow but timely","description":"sent in pieces"}`
	conn, rd := w.rawRequest("/api/workflows", w.a.keyAll, len(body))
	for i := 0; i < len(body); i += 10 {
		io.WriteString(conn, body[i:min(i+10, len(body))])
		time.Sleep(50 * time.Millisecond)
	}
	res, err := http.ReadResponse(rd, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("status %d: %s", res.StatusCode, b)
	}
	// The same connection, kept alive past the first request's deadline,
	// still serves a body request: the deadline was lifted and renewed.
	time.Sleep(2500 * time.Millisecond)
	body2 := `{"name":"Second"}`
	fmt.Fprintf(conn, "POST /api/workflows HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\nAuthorization: Bearer %s\r\n\r\n%s", len(body2), w.a.keyAll.key, body2)
	res, err = http.ReadResponse(rd, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("second request on the connection: status %d", res.StatusCode)
	}
}

// TestAttackMalformedTextInVersions: the version submission's fast path
// refuses the same text as every other body: bad UTF-8, unpaired surrogates,
// repeated keys, a repeated "ir"; no version is created.
func TestAttackMalformedTextInVersions(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	path := "/api/workflows/" + w.a.workflowID + "/versions"
	before := w.snapshot(w.a)
	for _, body := range []string{
		`{"ir":` + strings.Replace(minimalIR, `"Start"`, "\"St\xffart\"", 1) + `}`,
		`{"ir":` + strings.Replace(minimalIR, `"Start"`, `"St\udc00art"`, 1) + `}`,
		`{"ir":` + strings.Replace(minimalIR, `"name":"Start"`, `"name":"Start","name":"Other"`, 1) + `}`,
		`{"ir":` + minimalIR + `,"ir":` + minimalIR + `}`,
		`{"IR":` + minimalIR + `}`,
	} {
		if r := w.do("POST", path, body, w.a.keyAll); r.status != 400 && r.status != 422 {
			t.Errorf("status %d, want 400 or 422: %s", r.status, r.body)
		}
	}
	if after := w.snapshot(w.a); after != before {
		t.Errorf("a refused version changed tenant a's data")
	}
	w.must(201, "POST", path, `{"ir":`+strings.Replace(minimalIR, `"Start"`, `"Start ✓ \ud83d\ude80"`, 1)+`}`, w.a.keyAll)
}
