package api

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// checkInput runs the checks every route's query and path get before its
// handler: checkQuery and checkResourcePath.
func checkInput(r *http.Request, rt Route) error {
	if err := checkQuery(r); err != nil {
		return err
	}
	return checkResourcePath(r, rt)
}

// checkQuery refuses a query string that does not parse as
// application/x-www-form-urlencoded (a bad percent-escape, a ';' separator)
// or that holds text that is not UTF-8: 400 bad_request with path "?" or
// "?name". net/url would otherwise drop such parameters silently.
func checkQuery(r *http.Request) error {
	raw := r.URL.RawQuery
	if raw == "" {
		return nil
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		msg := "malformed query string: " + strings.TrimPrefix(err.Error(), "invalid ")
		return &edgeflow.Error{Code: edgeflow.EBadRequest, Message: msg,
			Details: []edgeflow.FieldError{{Path: "?", Message: "malformed query string: use name=value pairs joined by '&', with valid %XX escapes"}}}
	}
	for k, vs := range q {
		ok := utf8.ValidString(k)
		for _, v := range vs {
			ok = ok && utf8.ValidString(v)
		}
		if !ok {
			path := "?" + k
			if !utf8.ValidString(k) {
				path = "?"
			}
			return &edgeflow.Error{Code: edgeflow.EBadRequest, Message: "query parameter " + path + " is not valid UTF-8",
				Details: []edgeflow.FieldError{{Path: path, Message: "not valid UTF-8"}}}
		}
	}
	return nil
}

// Page cursors are bound to the list they came from (docs/decisions.md 86):
// the cursor the API hands out is base64url(scope || tag || store cursor),
// where scope is a digest of the request path (endpoint and parent ids) and
// the caller's organization and project, and tag is a MAC of both under the
// server's key. A cursor whose tag does not check is not one of ours (422);
// one whose tag checks but whose scope is not the request's comes from
// another endpoint, organization or project (400).
const (
	cursorScopeLen = 8
	cursorTagLen   = 16
)

// ctxCursors holds the server's Sealer for the cursor MAC.
const ctxCursors ctxKey = 100

// withCursors makes r's lists bind their cursors with sealer's MAC.
func withCursors(r *http.Request, sealer *secret.Sealer) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), ctxCursors, sealer))
}

// cursorScope is the digest of what a cursor of r is bound to; extra adds
// what else selects the list (a resource list's connection).
func cursorScope(r *http.Request, extra string) []byte {
	var org, project string
	if p := PrincipalFrom(r); p != nil {
		org, project = p.OrganizationID, p.ProjectID
	}
	sum := sha256.Sum256([]byte("edgeflow cursor scope\x00" + r.URL.Path + "\x00" + org + "\x00" + project + "\x00" + extra))
	return sum[:cursorScopeLen]
}

func cursorTag(sealer *secret.Sealer, scope []byte, inner string) []byte {
	data := make([]byte, 0, 16+len(scope)+len(inner))
	data = append(append(append(data, "edgeflow cursor\x00"...), scope...), inner...)
	return sealer.MAC(data)[:cursorTagLen]
}

// sealCursor returns the cursor the API hands out for the store's (or the
// provider's) inner cursor ("" stays "").
func sealCursor(r *http.Request, inner, extra string) string {
	sealer, _ := r.Context().Value(ctxCursors).(*secret.Sealer)
	if inner == "" || sealer == nil {
		return inner
	}
	scope := cursorScope(r, extra)
	b := make([]byte, 0, cursorScopeLen+cursorTagLen+len(inner))
	b = append(append(append(b, scope...), cursorTag(sealer, scope, inner)...), inner...)
	return base64.RawURLEncoding.EncodeToString(b)
}

// openCursor returns the inner cursor of a cursor sealCursor made for the
// same list: 422 at ?cursor for one that is not ours, 400 at ?cursor for one
// made for another list.
func openCursor(r *http.Request, cursor, extra string) (string, error) {
	sealer, _ := r.Context().Value(ctxCursors).(*secret.Sealer)
	if cursor == "" || sealer == nil {
		return cursor, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil || len(b) <= cursorScopeLen+cursorTagLen {
		return "", edgeflow.Invalid("?cursor", "invalid cursor")
	}
	scope, tag, inner := b[:cursorScopeLen], b[cursorScopeLen:cursorScopeLen+cursorTagLen], string(b[cursorScopeLen+cursorTagLen:])
	if !hmac.Equal(tag, cursorTag(sealer, scope, inner)) {
		return "", edgeflow.Invalid("?cursor", "invalid cursor")
	}
	if !bytes.Equal(scope, cursorScope(r, extra)) {
		return "", &edgeflow.Error{Code: edgeflow.EBadRequest,
			Message: "the cursor belongs to another list (another endpoint, organization or project); use the nextCursor of this list",
			Details: []edgeflow.FieldError{{Path: "?cursor", Message: "cursor of another list"}}}
	}
	return inner, nil
}
