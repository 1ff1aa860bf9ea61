package e2e_test

import (
	"testing"
)

// TestAttackResourceIDs asks the real local edge, through edgeflow, for
// resources by ids that do not exist or are not ids at all (prototype
// names, path segments): never a provider error (502), always 404 for a
// well-formed unknown id and 400 for a malformed one. The legitimate use is
// TestResources.
func TestAttackResourceIDs(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	c := "?connectionId=" + s.conn
	const ns, db = "0123456789abcdef0123456789abcdef", "01234567-89ab-4def-8123-456789abcdef"
	query := map[string]any{"connectionId": s.conn, "sql": "SELECT 1"}
	for _, tc := range []struct {
		method, path string
		body         any
		status       int
		code         string
	}{
		{"GET", "/api/resources/kv/namespaces/" + ns + "/keys" + c, nil, 404, "not_found"},
		{"GET", "/api/resources/kv/namespaces/" + ns + "/values/some-key" + c, nil, 404, "not_found"},
		{"POST", "/api/resources/d1/databases/" + db + "/query", query, 404, "not_found"},
		{"GET", "/api/resources/r2/buckets/no-such-bucket/objects" + c, nil, 404, "not_found"},
		{"GET", "/api/resources/kv/namespaces/__proto__/keys" + c, nil, 400, "bad_request"},
		{"GET", "/api/resources/kv/namespaces/constructor/values/x" + c, nil, 400, "bad_request"},
		{"GET", "/api/resources/kv/namespaces/hasOwnProperty/keys" + c, nil, 400, "bad_request"},
		{"POST", "/api/resources/d1/databases/__proto__/query", query, 400, "bad_request"},
		{"POST", "/api/resources/d1/databases/..%2F..%2Fworkers%2Fscripts/query", query, 400, "bad_request"},
		{"GET", "/api/resources/r2/buckets/__proto__/objects" + c, nil, 400, "bad_request"},
		{"GET", "/api/resources/r2/buckets/..%2Fbuckets/objects" + c, nil, 400, "bad_request"},
	} {
		wantError(t, s.do(tc.method, tc.path, tc.body), tc.status, tc.code)
	}
}
