package api

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Browsing of a connection's KV namespaces, D1 databases and R2 buckets
// (docs/api.md, "Provider resources"). Every endpoint needs ?connectionId= of a
// connection of the organization; prefix, cursor and limit are passed
// through to the provider.

// resourceRequest reads ?connectionId, ?prefix, ?cursor and ?limit
// (1..maxLimit).
func (s *Server) resourceRequest(r *http.Request, maxLimit int) (*deploysvc.Service, deploysvc.ResourceRequest, error) {
	dep, err := s.deployer()
	if err != nil {
		return nil, deploysvc.ResourceRequest{}, err
	}
	pr := PrincipalFrom(r)
	orgID, err := pr.Organization()
	if err != nil {
		return nil, deploysvc.ResourceRequest{}, err
	}
	q := r.URL.Query()
	req := deploysvc.ResourceRequest{OrganizationID: orgID, ProjectID: pr.ProjectID, ConnectionID: q.Get("connectionId"),
		Page: deploysvc.Page{Prefix: q.Get("prefix"), Cursor: q.Get("cursor")}}
	if strings.TrimSpace(req.ConnectionID) == "" {
		return nil, req, edgeflow.Invalid("?connectionId", "connectionId is required")
	}
	if raw, ok := q["limit"]; ok {
		n, err := strconv.Atoi(raw[0])
		if err != nil || n < 1 || n > maxLimit || len(raw) > 1 {
			return nil, req, edgeflow.Invalid("?limit", "limit must be an integer from 1 to "+strconv.Itoa(maxLimit))
		}
		req.Page.Limit = n
	}
	if len(req.Page.Cursor) > 8192 || len(q["cursor"]) > 1 {
		return nil, req, edgeflow.Invalid("?cursor", "invalid cursor")
	}
	if req.Page.Cursor, err = openCursor(r, req.Page.Cursor, req.ConnectionID); err != nil {
		return nil, req, err
	}
	return dep, req, nil
}

// writeListing answers a provider listing of r, its nextCursor bound to the
// list and the connection.
func writeListing[T any](w http.ResponseWriter, r *http.Request, l deploysvc.Listing[T]) {
	body := edgeflow.ListPage[T]{Data: l.Items}
	if body.Data == nil {
		body.Data = []T{}
	}
	if l.NextCursor != "" {
		c := sealCursor(r, l.NextCursor, r.URL.Query().Get("connectionId"))
		body.NextCursor = &c
	}
	writeJSON(w, http.StatusOK, body)
}

// handleKVNamespaces lists KV namespaces.
func (s *Server) handleKVNamespaces(w http.ResponseWriter, r *http.Request) error {
	dep, req, err := s.resourceRequest(r, MaxPageLimit)
	if err != nil {
		return err
	}
	l, err := dep.ListKVNamespaces(r.Context(), req)
	if err != nil {
		return err
	}
	writeListing(w, r, l)
	return nil
}

// handleKVKeys lists the keys of a namespace.
func (s *Server) handleKVKeys(w http.ResponseWriter, r *http.Request) error {
	dep, req, err := s.resourceRequest(r, 1000)
	if err != nil {
		return err
	}
	l, err := dep.ListKVKeys(r.Context(), req, r.PathValue("namespaceId"))
	if err != nil {
		return err
	}
	writeListing(w, r, l)
	return nil
}

// handleKVValue answers the value of a key ({key, value, encoding, size}).
func (s *Server) handleKVValue(w http.ResponseWriter, r *http.Request) error {
	dep, req, err := s.resourceRequest(r, MaxPageLimit)
	if err != nil {
		return err
	}
	v, err := dep.GetKVValue(r.Context(), req, r.PathValue("namespaceId"), r.PathValue("key"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, v)
	return nil
}

// handleD1Databases lists D1 databases.
func (s *Server) handleD1Databases(w http.ResponseWriter, r *http.Request) error {
	dep, req, err := s.resourceRequest(r, MaxPageLimit)
	if err != nil {
		return err
	}
	l, err := dep.ListD1Databases(r.Context(), req)
	if err != nil {
		return err
	}
	writeListing(w, r, l)
	return nil
}

type d1QueryRequest struct {
	ConnectionID string `json:"connectionId"`
	SQL          string `json:"sql"`
	Params       []any  `json:"params"`
}

// handleD1Query runs a query and answers {columns, rows, meta}.
func (s *Server) handleD1Query(w http.ResponseWriter, r *http.Request) error {
	dep, err := s.deployer()
	if err != nil {
		return err
	}
	pr := PrincipalFrom(r)
	orgID, err := pr.Organization()
	if err != nil {
		return err
	}
	// The connection may come as ?connectionId= (as for every resource
	// endpoint) or in the body; a query one is looked up before the body is
	// read.
	queryConn := r.URL.Query().Get("connectionId")
	if queryConn != "" {
		if err := dep.CheckConnection(r.Context(), orgID, pr.ProjectID, queryConn); err != nil {
			return err
		}
	}
	var req d1QueryRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	switch {
	case req.ConnectionID == "" && queryConn != "":
		req.ConnectionID = queryConn
	case queryConn != "" && req.ConnectionID != queryConn:
		return edgeflow.Invalid("/connectionId", "connectionId differs from the ?connectionId= of the URL")
	case strings.TrimSpace(req.ConnectionID) == "":
		return edgeflow.Invalid("/connectionId", "connectionId is required")
	}
	if strings.TrimSpace(req.SQL) == "" {
		return edgeflow.Invalid("/sql", "sql is required")
	}
	// A caller without the write scope queries read-only (docs/decisions.md 81).
	res, err := dep.QueryD1(r.Context(), deploysvc.D1Query{OrganizationID: orgID, ProjectID: pr.ProjectID,
		ConnectionID: req.ConnectionID, DatabaseID: r.PathValue("databaseId"), SQL: req.SQL, Params: req.Params,
		ReadOnly: !pr.HasScope(edgeflow.ScopeWrite), Reader: readerOf(pr)})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
}

// readerOf says why a caller without the write scope can only read: its
// role (a session) or its key's scopes.
func readerOf(pr *Principal) string {
	if pr.Session != nil {
		return "your role in the organization (" + string(pr.Role) + ") can only read"
	}
	return "this API key can only read (scope read)"
}

// handleR2Buckets lists R2 buckets.
func (s *Server) handleR2Buckets(w http.ResponseWriter, r *http.Request) error {
	dep, req, err := s.resourceRequest(r, MaxPageLimit)
	if err != nil {
		return err
	}
	l, err := dep.ListR2Buckets(r.Context(), req)
	if err != nil {
		return err
	}
	writeListing(w, r, l)
	return nil
}

// maxDelimiter is the longest ?delimiter= of an R2 object listing.
const maxDelimiter = 16

// handleR2Objects lists the objects of a bucket; with ?delimiter= the keys
// that go on past it after the prefix are answered once, as
// delimitedPrefixes (the "folders").
func (s *Server) handleR2Objects(w http.ResponseWriter, r *http.Request) error {
	dep, req, err := s.resourceRequest(r, 1000)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	if raw, ok := q["delimiter"]; ok {
		if len(raw) > 1 || raw[0] == "" || len(raw[0]) > maxDelimiter || !utf8.ValidString(raw[0]) || strings.ContainsFunc(raw[0], unicode.IsControl) {
			return edgeflow.Invalid("?delimiter", "delimiter must be 1 to 16 bytes of text without control characters, such as /")
		}
		req.Page.Delimiter = raw[0]
	}
	l, err := dep.ListR2Objects(r.Context(), req, r.PathValue("bucketName"))
	if err != nil {
		return err
	}
	body := r2ObjectsBody{Data: l.Items, DelimitedPrefixes: l.Prefixes}
	if body.Data == nil {
		body.Data = []deploysvc.R2Object{}
	}
	if body.DelimitedPrefixes == nil {
		body.DelimitedPrefixes = []string{}
	}
	if l.NextCursor != "" {
		c := sealCursor(r, l.NextCursor, q.Get("connectionId"))
		body.NextCursor = &c
	}
	writeJSON(w, http.StatusOK, body)
	return nil
}

// r2ObjectsBody is a page of an R2 object listing.
type r2ObjectsBody struct {
	Data              []deploysvc.R2Object `json:"data"`
	DelimitedPrefixes []string             `json:"delimitedPrefixes"`
	NextCursor        *string              `json:"nextCursor"`
}

// handleR2Object answers the bytes of one object as a download: its stored
// content type (application/octet-stream when it has none), its length,
// its ETag and Last-Modified, and Content-Disposition attachment with the
// last segment of the key as the file name. The object is read whole first
// (at most cloudflare.MaxR2ObjectRead bytes), so that a provider failure is
// an ordinary error answer, never a cut download.
func (s *Server) handleR2Object(w http.ResponseWriter, r *http.Request) error {
	dep, req, err := s.resourceRequest(r, MaxPageLimit)
	if err != nil {
		return err
	}
	o, err := dep.GetR2Object(r.Context(), req, r.PathValue("bucketName"), r.PathValue("key"))
	if err != nil {
		return err
	}
	h := w.Header()
	ct := o.ContentType
	if _, _, perr := mime.ParseMediaType(ct); ct == "" || perr != nil {
		ct = "application/octet-stream"
	}
	h.Set("Content-Type", ct)
	h.Set("Content-Length", strconv.Itoa(len(o.Body)))
	h.Set("Content-Disposition", attachment(o.Key))
	// The bytes are the bucket's, not Studio's: never sniffed, never run as a page.
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'")
	h.Set("Cache-Control", "private, no-store")
	if o.ETag != "" && !strings.ContainsFunc(o.ETag, unicode.IsControl) {
		h.Set("ETag", o.ETag)
	}
	if t, perr := http.ParseTime(o.LastModified); perr == nil {
		h.Set("Last-Modified", t.UTC().Format(http.TimeFormat))
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(o.Body)
	}
	return nil
}

// attachment is the Content-Disposition of a download of key: the key's
// last "/" segment as the file name, control characters, quotes and
// backslashes replaced by "_", "object" when nothing is left; a name beyond
// ASCII is given as filename* (RFC 6266) beside an ASCII fallback.
func attachment(key string) string {
	name := key[strings.LastIndex(key, "/")+1:]
	name = strings.Map(func(c rune) rune {
		if unicode.IsControl(c) || c == '"' || c == '\\' || c == utf8.RuneError {
			return '_'
		}
		return c
	}, name)
	if strings.Trim(name, ". _") == "" {
		name = "object"
	}
	ascii := strings.Map(func(c rune) rune {
		if c > 0x7e || c < 0x20 {
			return '_'
		}
		return c
	}, name)
	if ascii == name {
		return `attachment; filename="` + name + `"`
	}
	return `attachment; filename="` + ascii + `"; filename*=UTF-8''` + extValue(name)
}

// extValue percent-encodes s as an RFC 8187 ext-value: every byte but the
// attr-chars.
func extValue(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
