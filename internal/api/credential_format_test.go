package api_test

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
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
	if created.str(t, "accountId") != goodAccount {
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
	if !strings.Contains(string(list.body), `"name":"ok","accountId":"`+goodAccount+`"`) {
		t.Fatalf("a refused PATCH changed the connection: %s", list.body)
	}
	other := testAccountID("other account")
	patched := w.must(200, "PATCH", "/api/connections/"+id,
		credentialsBody(t, map[string]any{"credentials": map[string]string{"accountId": other, "apiToken": testAPIToken("other")}}), k)
	if patched.str(t, "accountId") != other {
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
