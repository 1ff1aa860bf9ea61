package api

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// The marketplace of the organization: the registry's catalog with its
// installation status, and install / update / uninstall. Changes count
// against their own per-user limit of MarketplaceChangesPerMinute on top of
// the write limit.

// MarketplaceChangesPerMinute is the per-user limit of install, update and
// uninstall requests (docs/marketplace.md).
const MarketplaceChangesPerMinute = 10

var (
	marketNodeID  = regexp.MustCompile(`^[a-z][a-z0-9-]{0,63}$`)
	marketVersion = regexp.MustCompile(`^[0-9A-Za-z.+-]{1,64}$`)
)

func (s *Server) market() (*marketplace.Service, error) {
	if s.Marketplace == nil {
		return nil, edgeflow.Errorf(edgeflow.ENotFound, "the marketplace is not enabled on this server")
	}
	return s.Marketplace, nil
}

// handleMarketplaceList answers the catalog, every node with installed and
// installedVersion for the organization, by node id, paginated like every
// list ({data, nextCursor}).
func (s *Server) handleMarketplaceList(w http.ResponseWriter, r *http.Request) error {
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	filter, err := parseCatalogFilter(r)
	if err != nil {
		return err
	}
	nodes, err := s.catalog(r)
	if err != nil {
		return err
	}
	nodes = filter.Filter(nodes)
	page := pageOfSorted(nodes, func(n marketplace.CatalogNode) string { return n.ID }, opts)
	writeJSON(w, http.StatusOK, newPage(r, page, func(n marketplace.CatalogNode) marketplace.CatalogNode { return n }))
	return nil
}

// catalog is the marketplace's catalog as the caller's organization sees it.
func (s *Server) catalog(r *http.Request) ([]marketplace.CatalogNode, error) {
	m, err := s.market()
	if err != nil {
		return nil, err
	}
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return nil, err
	}
	return m.Catalog(r.Context(), orgID)
}

// maxCatalogQuery is the longest ?q= of a catalog search.
const maxCatalogQuery = 100

// parseCatalogFilter reads the catalog's ?q= (words every listed node
// contains) and ?category= (one of registry.Categories).
func parseCatalogFilter(r *http.Request) (marketplace.CatalogFilter, error) {
	query := r.URL.Query()
	var f marketplace.CatalogFilter
	for _, name := range []string{"q", "category"} {
		if len(query[name]) > 1 {
			return f, edgeflow.Invalid("?"+name, "give "+name+" once")
		}
	}
	q := query.Get("q")
	if n := utf8.RuneCountInString(q); n > maxCatalogQuery {
		return f, edgeflow.Invalid("?q", fmt.Sprintf("q must be at most %d characters (got %d)", maxCatalogQuery, n))
	}
	f.Words = marketplace.SearchWords(q)
	if c := query.Get("category"); c != "" {
		if !slices.Contains(registry.Categories, c) {
			return f, edgeflow.Invalid("?category", fmt.Sprintf("category %q is not one of %s", truncateText(c, 40), strings.Join(registry.Categories, ", ")))
		}
		f.Category = c
	}
	return f, nil
}

func truncateText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// categoryCount is one category of the catalog with its number of nodes.
type categoryCount struct {
	Name  string `json:"name"`
	Nodes int    `json:"nodes"`
}

// categoryList is the answer of GET /api/marketplace/categories.
type categoryList struct {
	Categories []categoryCount `json:"categories"`
}

// handleMarketplaceCategories answers every category a node may declare, in
// the registry's order, with the number of catalog nodes in each.
func (s *Server) handleMarketplaceCategories(w http.ResponseWriter, r *http.Request) error {
	nodes, err := s.catalog(r)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, n := range nodes {
		counts[n.Category]++
	}
	out := make([]categoryCount, len(registry.Categories))
	for i, c := range registry.Categories {
		out[i] = categoryCount{Name: c, Nodes: counts[c]}
	}
	writeJSON(w, http.StatusOK, categoryList{Categories: out})
	return nil
}

// handleMarketplaceGet answers one node: its entry with every available
// version, its latest definition and the organization's installation.
func (s *Server) handleMarketplaceGet(w http.ResponseWriter, r *http.Request) error {
	m, err := s.market()
	if err != nil {
		return err
	}
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return err
	}
	d, err := m.Details(r.Context(), orgID, r.PathValue("nodeId"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, d)
	return nil
}

// handleMarketplaceInstalled lists the organization's installed nodes by
// node id, paginated.
func (s *Server) handleMarketplaceInstalled(w http.ResponseWriter, r *http.Request) error {
	m, err := s.market()
	if err != nil {
		return err
	}
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return err
	}
	opts, err := parsePage(r)
	if err != nil {
		return err
	}
	page, err := m.Installed(r.Context(), orgID, opts)
	if err != nil {
		return listError(err)
	}
	writeJSON(w, http.StatusOK, newPage(r, page, func(i marketplace.Installation) marketplace.Installation { return i }))
	return nil
}

type marketplaceChangeRequest struct {
	NodeID  string `json:"nodeId"`
	Version string `json:"version"`
}

// checkMarketplaceChange counts the request against the marketplace limit
// and validates the body's fields; versionRequired for update.
func (s *Server) checkMarketplaceChange(w http.ResponseWriter, r *http.Request, req marketplaceChangeRequest, withVersion, versionRequired bool) error {
	p := PrincipalFrom(r)
	if !s.Limits.Off {
		if err := s.rateLimit(w, r, "marketplace:user:"+p.UserID, MarketplaceChangesPerMinute); err != nil {
			return err
		}
	}
	var pr problems
	switch {
	case req.NodeID == "":
		pr.add("/nodeId", "nodeId is required")
	case !marketNodeID.MatchString(req.NodeID):
		pr.add("/nodeId", "nodeId must be a marketplace node id: lowercase letters, digits and '-', starting with a letter")
	}
	switch {
	case !withVersion && req.Version != "":
		pr.add("/version", "version is not accepted here")
	case versionRequired && req.Version == "":
		pr.add("/version", "version is required: the version to move the installed node to")
	case req.Version != "" && !marketVersion.MatchString(req.Version):
		pr.add("/version", "version must be a semantic version such as 1.2.0")
	}
	return pr.err()
}

// handleMarketplaceInstall installs a node in the organization at a version
// (the latest when none is given): 201 with the installation; 404 for an
// unknown node or version; 409 when it is already installed.
func (s *Server) handleMarketplaceInstall(w http.ResponseWriter, r *http.Request) error {
	var req marketplaceChangeRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := s.checkMarketplaceChange(w, r, req, true, false); err != nil {
		return err
	}
	m, err := s.market()
	if err != nil {
		return err
	}
	p := PrincipalFrom(r)
	orgID, err := p.Organization()
	if err != nil {
		return err
	}
	inst, err := m.Install(r.Context(), orgID, p.UserID, req.NodeID, req.Version)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusCreated, inst)
	return nil
}

// handleMarketplaceUpdate moves an installed node to another existing
// version, newer or older: 200 with the installation; 404 when it is not
// installed or the version does not exist; 409 for the installed version.
func (s *Server) handleMarketplaceUpdate(w http.ResponseWriter, r *http.Request) error {
	var req marketplaceChangeRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := s.checkMarketplaceChange(w, r, req, true, true); err != nil {
		return err
	}
	m, err := s.market()
	if err != nil {
		return err
	}
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return err
	}
	inst, err := m.Update(r.Context(), orgID, req.NodeID, req.Version)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, inst)
	return nil
}

type marketplaceUninstallRequest struct {
	NodeID string `json:"nodeId"`
}

// uninstallResult is the answer of POST /api/marketplace/uninstall.
type uninstallResult struct {
	OK bool `json:"ok"`
}

// handleMarketplaceUninstall removes a node from the organization: 200
// {"ok": true}; 404 when it is not installed; 409 naming the workflows
// whose deployed version uses it.
func (s *Server) handleMarketplaceUninstall(w http.ResponseWriter, r *http.Request) error {
	var req marketplaceUninstallRequest
	if err := decode(r, &req); err != nil {
		return err
	}
	if err := s.checkMarketplaceChange(w, r, marketplaceChangeRequest{NodeID: req.NodeID}, false, false); err != nil {
		return err
	}
	m, err := s.market()
	if err != nil {
		return err
	}
	orgID, err := PrincipalFrom(r).Organization()
	if err != nil {
		return err
	}
	if err := m.Uninstall(r.Context(), orgID, req.NodeID); err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, uninstallResult{OK: true})
	return nil
}
