package api_test

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// testAccountID is a well-formed Cloudflare account id (32 hex digits)
// derived from seed.
func testAccountID(seed string) string {
	sum := md5.Sum([]byte(seed))
	return hex.EncodeToString(sum[:])
}

// testAPIToken is a well-formed Cloudflare API token derived from seed; it
// starts with "cf-token-" so that leak checks can look for it.
func testAPIToken(seed string) string { return "cf-token-" + testAccountID(seed) }

func credentialsBody(t *testing.T, fields map[string]any) string {
	t.Helper()
	b, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestCloudflarePlaceholderCredentials: a Cloudflare connection whose
// accountId is not 32 hex digits or whose apiToken is not at least 20
// characters of [A-Za-z0-9_-] is refused with 422 naming the field, on
// create and on PATCH, and nothing stored changes; well-formed values are
// accepted.
func TestCloudflarePlaceholderCredentials(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	k := w.a.keyAll
	goodAccount, goodToken := testAccountID("placeholders"), testAPIToken("placeholders")
	badAccounts := []string{"…", "...", "<account-id>", "acc-123", "0123456789ABCDEF0123456789ABCDEF", goodAccount + "0", goodAccount[:31]}
	badTokens := []string{"…", "...", "<api-token>", "short-token", "a token with spaces in it", "abcdefghijklmnopqrs", "tok€n-0123456789abcdef"}

	for _, a := range badAccounts {
		body := credentialsBody(t, map[string]any{"provider": "cloudflare", "credentials": map[string]string{"apiToken": goodToken, "accountId": a}})
		checkError(t, w.do("POST", "/api/connections", body, k), 422, "validation_failed", "/credentials/accountId")
	}
	for _, tok := range badTokens {
		body := credentialsBody(t, map[string]any{"provider": "cloudflare", "credentials": map[string]string{"apiToken": tok, "accountId": goodAccount}})
		checkError(t, w.do("POST", "/api/connections", body, k), 422, "validation_failed", "/credentials/apiToken")
	}
	// The getting-started example as it was: both fields named.
	r := w.do("POST", "/api/connections", `{"provider":"cloudflare","name":"prod","credentials":{"apiToken":"…","accountId":"…"}}`, k)
	checkError(t, r, 422, "validation_failed", "")
	for _, path := range []string{"/credentials/apiToken", "/credentials/accountId"} {
		if !hasProblemPath(t, r, path) {
			t.Errorf("placeholder example: no problem at %s: %s", path, r.body)
		}
	}

	created := w.must(201, "POST", "/api/connections",
		credentialsBody(t, map[string]any{"provider": "cloudflare", "name": "ok", "credentials": map[string]string{"apiToken": goodToken, "accountId": goodAccount}}), k)
	id := created.str(t, "id")
	if created.str(t, "accountId") != "…"+goodAccount[28:] {
		t.Fatalf("created: %s", created.body)
	}
	for _, a := range badAccounts {
		body := credentialsBody(t, map[string]any{"credentials": map[string]string{"accountId": a}})
		checkError(t, w.do("PATCH", "/api/connections/"+id, body, k), 422, "validation_failed", "/credentials/accountId")
	}
	for _, tok := range badTokens {
		body := credentialsBody(t, map[string]any{"name": "renamed", "credentials": map[string]string{"apiToken": tok}})
		checkError(t, w.do("PATCH", "/api/connections/"+id, body, k), 422, "validation_failed", "/credentials/apiToken")
	}
	list := w.must(200, "GET", "/api/connections", "", k)
	if !strings.Contains(string(list.body), `"name":"ok","accountId":"…`+goodAccount[28:]+`"`) {
		t.Fatalf("a refused PATCH changed the connection: %s", list.body)
	}
	other := testAccountID("other account")
	patched := w.must(200, "PATCH", "/api/connections/"+id,
		credentialsBody(t, map[string]any{"credentials": map[string]string{"accountId": other, "apiToken": testAPIToken("other")}}), k)
	if patched.str(t, "accountId") != "…"+other[28:] {
		t.Fatalf("patched: %s", patched.body)
	}
}

// hasProblemPath reports whether the validation error r lists a problem at
// path.
func hasProblemPath(t *testing.T, r response, path string) bool {
	t.Helper()
	var e struct {
		Details []struct {
			Path string `json:"path"`
		} `json:"details"`
	}
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("error body: %v: %s", err, r.body)
	}
	for _, d := range e.Details {
		if d.Path == path {
			return true
		}
	}
	return false
}

// TestConnectionAnswersRedactAccountID: every answer that shows a
// connection — create, update and the list, for a key and for a session —
// shows accountId as "…" and its last four characters, at the top level and
// in credentials, and the token as "***"; neither full value appears
// anywhere in the answer, not even in the default name. The stored
// credentials keep the full values.
func TestConnectionAnswersRedactAccountID(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	account, token := testAccountID("redacted"), testAPIToken("redacted")
	shown := "…" + account[len(account)-4:]
	check := func(who string, r response, wantName string) {
		t.Helper()
		var c struct {
			Name        string            `json:"name"`
			AccountID   string            `json:"accountId"`
			Credentials map[string]string `json:"credentials"`
		}
		if err := json.Unmarshal(r.body, &c); err != nil {
			t.Fatalf("%s: %v\n%s", who, err, r.body)
		}
		if c.AccountID != shown || c.Credentials["accountId"] != shown || c.Credentials["apiToken"] != "***" || len(c.Credentials) != 2 {
			t.Fatalf("%s: not redacted: %s", who, r.body)
		}
		if wantName != "" && c.Name != wantName {
			t.Fatalf("%s: name %q, want %q", who, c.Name, wantName)
		}
		if strings.Contains(string(r.body), account) || strings.Contains(string(r.body), token) {
			t.Fatalf("%s: the answer holds a full credential: %s", who, r.body)
		}
	}
	body := credentialsBody(t, map[string]any{"provider": "cloudflare", "credentials": map[string]string{"apiToken": token, "accountId": account}})
	byKey := w.must(201, "POST", "/api/connections", body, w.a.keyAll)
	check("create by key", byKey, "Cloudflare "+shown)
	bySession := w.must(201, "POST", "/api/connections", body, w.a.session)
	check("create by session", bySession, "Cloudflare "+shown)

	// An update that sends the account id back still answers it redacted.
	patch := credentialsBody(t, map[string]any{"name": "prod", "credentials": map[string]string{"accountId": account}})
	check("update by key", w.must(200, "PATCH", "/api/connections/"+byKey.str(t, "id"), patch, w.a.keyAll), "prod")
	check("update by session", w.must(200, "PATCH", "/api/connections/"+bySession.str(t, "id"), `{"name":"org prod"}`, w.a.session), "org prod")

	for _, c := range []cred{w.a.keyRead, w.a.session} {
		list := w.must(200, "GET", "/api/connections?limit=100", "", c)
		if strings.Contains(string(list.body), account) || strings.Contains(string(list.body), token) {
			t.Fatalf("list holds a full credential: %s", list.body)
		}
		var page struct {
			Data []json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(list.body, &page); err != nil {
			t.Fatal(err)
		}
		seen := 0
		for _, raw := range page.Data {
			var c struct{ ID, Provider, AccountID string }
			if err := json.Unmarshal(raw, &c); err != nil {
				t.Fatal(err)
			}
			if c.Provider == "cloudflare" && len(c.AccountID) == 32 {
				t.Fatalf("list shows a full account id: %s", raw)
			}
			if c.ID == byKey.str(t, "id") || c.ID == bySession.str(t, "id") {
				check("list", response{body: raw}, "")
				seen++
			}
		}
		if seen != 2 {
			t.Fatalf("list shows %d of the two connections: %s", seen, list.body)
		}
	}

	// Stored, the credentials are whole: deploys use them.
	c, err := w.store.FindConnectionByID(context.Background(), w.a.orgID, byKey.str(t, "id"))
	if err != nil {
		t.Fatal(err)
	}
	sealer, _ := secret.New([]byte(strings.Repeat("\x01", 32)))
	if creds, err := sealer.OpenCredentials(c); err != nil || creds.AccountID != account || creds.APIToken != token || c.AccountID != account {
		t.Fatalf("stored credentials %+v, account %q, %v", creds, c.AccountID, err)
	}
}

// TestRedactAccountID: short ids show nothing of themselves; the local
// placeholder is not an account id and stays.
func TestRedactAccountID(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"": "", "local": "local", "abcd": "…", "abcde": "…bcde",
		"0123456789abcdef0123456789abcdef": "…cdef", "ÿÿÿÿÿé": "…ÿÿÿé",
	} {
		if got := api.RedactAccountID(in); got != want {
			t.Errorf("RedactAccountID(%q) = %q, want %q", in, got, want)
		}
	}
}
