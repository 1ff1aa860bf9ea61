package api

import (
	"net/http"
	"strconv"
	"strings"

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
	body := pageBody[T]{Data: l.Items}
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
		ReadOnly: !pr.HasScope(edgeflow.ScopeWrite)})
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, res)
	return nil
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

// handleR2Objects lists the objects of a bucket.
func (s *Server) handleR2Objects(w http.ResponseWriter, r *http.Request) error {
	dep, req, err := s.resourceRequest(r, 1000)
	if err != nil {
		return err
	}
	l, err := dep.ListR2Objects(r.Context(), req, r.PathValue("bucketName"))
	if err != nil {
		return err
	}
	writeListing(w, r, l)
	return nil
}
