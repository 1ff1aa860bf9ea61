package api

import (
	"context"
	"fmt"
	"net/http"
	"strconv"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// Node definitions: the builtin types plus the marketplace nodes the
// organization has installed, at their installed versions. GET /nodes is a
// list like every other ({data, nextCursor}, cursor and limit; decision
// 115); the templates are one object keyed by node type.

// orgNodes returns the organization's node catalog and the templates of its
// installed marketplace nodes.
func (s *Server) orgNodes(ctx context.Context, orgID string) (*nodes.Catalog, []codegen.NodeTemplate, error) {
	m := s.Marketplace
	if m == nil {
		return nodes.BuiltinCatalog(), nil, nil
	}
	return m.NodesAndTemplates(ctx, orgID)
}

func (s *Server) requestCatalog(r *http.Request) (*nodes.Catalog, error) {
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return nil, err
	}
	c, _, err := s.orgNodes(r.Context(), orgID)
	return c, err
}

// handleNodeList answers the definitions of every node type the
// organization can use, paginated: the builtins in docs/nodes.md's order, then its
// installed marketplace nodes by id.
func (s *Server) handleNodeList(w http.ResponseWriter, r *http.Request) error {
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	c, err := s.requestCatalog(r)
	if err != nil {
		return err
	}
	page := pageOfSorted(nodeListItems(c.List()), func(n nodeListItem) string { return n.key }, opts)
	writeJSON(w, http.StatusOK, newPage(r, page, func(n nodeListItem) ir.NodeDefinition { return n.def }))
	return nil
}

// nodeListItem is a node definition with its place in GET /nodes: "b" and
// the builtin's index in docs/nodes.md's order, or "m" and the marketplace node's
// id, so the keys sort in the list's order and a cursor (the last key of a
// page) still places the next page when an installation comes or goes.
type nodeListItem struct {
	key string
	def ir.NodeDefinition
}

func nodeListItems(defs []ir.NodeDefinition) []nodeListItem {
	out := make([]nodeListItem, len(defs))
	for i, d := range defs {
		key := "m" + d.ID
		if d.Builtin {
			key = fmt.Sprintf("b%04d", i)
		}
		out[i] = nodeListItem{key: key, def: d}
	}
	return out
}

// nodeTemplateView is one type's resolver data. Cloudflare repeats the
// template source under the provider key AwaitStep's clients read.
type nodeTemplateView struct {
	nodes.TemplateData
	Cloudflare string `json:"cloudflare,omitempty"`
}

// handleNodeTemplates answers, per node type, what a client needs to create
// and resolve nodes: the version, default data, required fields, secret env
// vars and, for marketplace nodes, the template, its checksum and npm
// dependencies.
func (s *Server) handleNodeTemplates(w http.ResponseWriter, r *http.Request) error {
	c, err := s.requestCatalog(r)
	if err != nil {
		return err
	}
	data := c.Templates()
	out := make(map[string]nodeTemplateView, len(data))
	for typ, t := range data {
		out[typ] = nodeTemplateView{TemplateData: t, Cloudflare: t.Template}
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

// handleNodeGet answers one node type's definition (for a marketplace node,
// the installed version's); a type the organization cannot use is
// not_found.
func (s *Server) handleNodeGet(w http.ResponseWriter, r *http.Request) error {
	c, err := s.requestCatalog(r)
	if err != nil {
		return err
	}
	id := r.PathValue("nodeId")
	def, ok := c.Get(id)
	if !ok {
		return edgeflow.Errorf(edgeflow.ENotFound, "node type not found: not a builtin type nor a marketplace node installed in this organization")
	}
	writeJSON(w, http.StatusOK, def)
	return nil
}

// handleIRSchema answers the JSON Schema (draft 2020-12) of the IR's shape.
func (s *Server) handleIRSchema(w http.ResponseWriter, r *http.Request) error {
	b := ir.SchemaJSON()
	h := w.Header()
	h.Set("Content-Type", "application/schema+json")
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
	return nil
}
