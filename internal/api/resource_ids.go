package api

import (
	"net/http"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Path parameters that name provider resources are checked for their form
// before the provider is asked (docs/decisions.md 86): a malformed one is
// 400 bad_request with the path ":<parameter>", never a provider error
// (502) nor a path that reaches another provider endpoint. A well-formed id
// the provider does not know is 404 (internal/deploy resourceError).
var (
	// kvNamespaceID: Cloudflare's and the local edge's namespace ids are 32
	// lower-case hex digits.
	kvNamespaceID = regexp.MustCompile(`^[0-9a-f]{32}$`)
	// d1DatabaseID: D1 databases are named by a UUID.
	d1DatabaseID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	// r2BucketName: R2's rule, 3 to 63 lower-case letters, digits and '-',
	// starting and ending with a letter or digit.
	r2BucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$`)
)

// maxKVKeyBytes is the longest KV key Cloudflare accepts, maxR2KeyBytes
// the longest R2 object key.
const (
	maxKVKeyBytes = 512
	maxR2KeyBytes = 1024
)

// resourcePathParams maps path parameters of the route table to the check
// of their form ("" when well-formed).
var resourcePathParams = map[string]func(string) string{
	"namespaceId": func(v string) string {
		if !kvNamespaceID.MatchString(v) {
			return "namespaceId must be a KV namespace id: 32 lower-case hexadecimal digits"
		}
		return ""
	},
	"databaseId": func(v string) string {
		if !d1DatabaseID.MatchString(v) {
			return "databaseId must be a D1 database id: a lower-case UUID"
		}
		return ""
	},
	"bucketName": func(v string) string {
		if !r2BucketName.MatchString(v) {
			return "bucketName must be an R2 bucket name: 3 to 63 lower-case letters, digits and '-', starting and ending with a letter or digit"
		}
		return ""
	},
	"key": func(v string) string {
		switch {
		case v == "" || len(v) > maxR2KeyBytes:
			return "key must be 1 to 512 bytes (1 to 1024 for an R2 object)"
		case !utf8.ValidString(v):
			return "key must be valid UTF-8"
		case v == "." || v == "..":
			return `key must not be "." or ".."`
		}
		return ""
	},
}

// checkResourcePath checks the route's resource path parameters.
func checkResourcePath(r *http.Request, rt Route) error {
	if !strings.HasPrefix(rt.Pattern, "/api/resources/") {
		return nil
	}
	for name, check := range resourcePathParams {
		if !strings.Contains(rt.Pattern, "{"+name+"}") && !strings.Contains(rt.Pattern, "{"+name+"...}") {
			continue
		}
		v := r.PathValue(name)
		msg := check(v)
		if msg == "" && name == "key" && len(v) > maxKVKeyBytes && !strings.HasPrefix(rt.Pattern, "/api/resources/r2/") {
			msg = "key must be 1 to 512 bytes"
		}
		if msg != "" {
			return &edgeflow.Error{Code: edgeflow.EBadRequest, Message: msg,
				Details: []edgeflow.FieldError{{Path: ":" + name, Message: msg}}}
		}
	}
	return nil
}
