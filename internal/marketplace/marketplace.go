// Package marketplace installs registry nodes into organizations and serves
// what the rest of edgeflow needs from those installations: the catalog with
// each node's installation status, the verified snapshots of installed node
// versions, the node catalog the IR validator checks marketplace nodes
// against, the templates the compiler inlines, and the secrets a deploy must
// provide.
//
// An installation is a snapshot of one registry version (definition,
// template, checksum) stored in the database, so that a workflow keeps
// compiling the same code whatever the registry later serves. Every snapshot
// is verified against its checksum when it is read; a changed row is refused.
package marketplace

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// Service is the marketplace of one edgeflow instance. It is safe for
// concurrent use.
type Service struct {
	store    edgeflow.Store
	registry *registry.Registry
	logger   *slog.Logger
	now      func() time.Time

	verified *verifiedCache
	catalogs boundedMap[*orgCatalog]
}

// Options configure a Service. Store and Registry are required.
type Options struct {
	Store    edgeflow.Store
	Registry *registry.Registry
	// Logger receives integrity failures of stored snapshots; nil discards.
	Logger *slog.Logger
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// New returns a Service over the store and the registry.
func New(opts Options) (*Service, error) {
	if opts.Store == nil || opts.Registry == nil {
		return nil, errors.New("marketplace: Store and Registry are required")
	}
	s := &Service{
		store:    opts.Store,
		registry: opts.Registry,
		logger:   opts.Logger,
		now:      opts.Now,
		verified: newVerifiedCache(),
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// Registry returns the registry the service installs from.
func (s *Service) Registry() *registry.Registry { return s.registry }

// CatalogNode is a registry node with its installation status in one
// organization.
type CatalogNode struct {
	registry.Node
	// Installed reports whether the organization has installed the node.
	Installed bool `json:"installed"`
	// InstalledVersion is the installed version, null when not installed.
	InstalledVersion *string `json:"installedVersion"`
	// UpdateAvailable reports that a newer version than the installed one
	// exists.
	UpdateAvailable bool `json:"updateAvailable"`
}

// Installation is an organization's installed node as clients see it.
type Installation struct {
	ID          string    `json:"id"`
	NodeID      string    `json:"nodeId"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Category    string    `json:"category"`
	Version     string    `json:"version"`
	Checksum    string    `json:"checksum"`
	Latest      string    `json:"latest,omitempty"`
	UpdateAvail bool      `json:"updateAvailable"`
	InstalledBy string    `json:"installedBy,omitempty"`
	InstalledAt time.Time `json:"installedAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

// Details is one node of the catalog with its latest definition, every
// available version and the organization's installation.
type Details struct {
	CatalogNode
	// Definition is the latest version's node.json.
	Definition rawJSON `json:"definition"`
	// Installation is the organization's installation, null when none.
	Installation *InstallationDetails `json:"installation"`
	// UsedBy names the organization's workflows whose active deployment
	// uses the node, in every project: those an uninstall waits for. Empty
	// when the node is not installed.
	UsedBy []WorkflowRef `json:"usedBy"`
}

// InstallationDetails is an Installation with the installed version's
// definition.
type InstallationDetails struct {
	Installation
	Definition rawJSON `json:"definition"`
}

// rawJSON is a JSON document passed through unchanged ("null" when empty).
type rawJSON []byte

// MarshalJSON writes the document as is.
func (r rawJSON) MarshalJSON() ([]byte, error) {
	if len(r) == 0 {
		return []byte("null"), nil
	}
	return r, nil
}

// Catalog lists every registry node, sorted by id, with its installation
// status in the organization. Nodes installed from a registry version that
// is no longer served (a remote registry that dropped it) are listed too.
func (s *Service) Catalog(ctx context.Context, orgID string) ([]CatalogNode, error) {
	installed, err := s.listInstalled(ctx, orgID)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]*edgeflow.InstalledNode, len(installed))
	for i := range installed {
		byID[installed[i].NodeID] = &installed[i]
	}
	nodes := s.registry.Nodes(ctx)
	out := make([]CatalogNode, 0, len(nodes))
	seen := map[string]bool{}
	for _, n := range nodes {
		seen[n.ID] = true
		out = append(out, withStatus(n, byID[n.ID]))
	}
	for _, in := range installed {
		if seen[in.NodeID] {
			continue
		}
		n, err := s.orphanNode(in)
		if err != nil {
			return nil, err
		}
		out = append(out, withStatus(n, &in))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// Details returns one node: its registry entry (or, for an installed node
// the registry no longer serves, its installed snapshot), the latest
// definition and the organization's installation. ENotFound when the node
// is neither in the registry nor installed.
func (s *Service) Details(ctx context.Context, orgID, nodeID string) (*Details, error) {
	in, err := s.store.FindInstalledNode(ctx, orgID, nodeID)
	if err != nil && !edgeflow.IsNotFound(err) {
		return nil, fmt.Errorf("find installed node %s: %w", nodeID, err)
	}
	if err != nil {
		in = nil
	}
	d := Details{UsedBy: []WorkflowRef{}}
	rd, rerr := s.registry.Details(ctx, nodeID)
	switch {
	case rerr == nil:
		d.CatalogNode = withStatus(rd.Node, in)
		d.Definition = rawJSON(rd.Definition)
	case errors.Is(rerr, registry.ErrNodeNotFound) && in != nil:
		n, err := s.orphanNode(*in)
		if err != nil {
			return nil, err
		}
		d.CatalogNode = withStatus(n, in)
		d.Definition = rawJSON(in.Definition)
	case errors.Is(rerr, registry.ErrNodeNotFound):
		return nil, edgeflow.Errorf(edgeflow.ENotFound, "node not found in the marketplace")
	default:
		return nil, fmt.Errorf("registry details %s: %w", nodeID, rerr)
	}
	if in != nil {
		b, err := s.verify(*in)
		if err != nil {
			return nil, err
		}
		inst := s.installation(*in, b)
		d.Installation = &InstallationDetails{Installation: inst, Definition: rawJSON(b.NodeJSON)}
		if d.UsedBy, err = s.usedBy(ctx, orgID, nodeID); err != nil {
			return nil, err
		}
	}
	return &d, nil
}

// Installed lists the organization's installations ordered by node id, one
// page at a time (edgeflow.ListOptions; an invalid cursor is EInvalid).
func (s *Service) Installed(ctx context.Context, orgID string, opts edgeflow.ListOptions) (edgeflow.Page[Installation], error) {
	p, err := s.store.ListInstalledNodes(ctx, orgID, opts)
	if err != nil {
		return edgeflow.Page[Installation]{}, err
	}
	out := edgeflow.Page[Installation]{Items: make([]Installation, 0, len(p.Items)), NextCursor: p.NextCursor}
	for _, in := range p.Items {
		b, err := s.verify(in)
		if err != nil {
			return edgeflow.Page[Installation]{}, err
		}
		out.Items = append(out.Items, s.installationWithLatest(ctx, in, b))
	}
	return out, nil
}

// Install installs nodeID at version (the latest when "") in the
// organization, snapshotting that registry version. Errors: EInvalid for a
// missing node id or a malformed version; ENotFound for a node or version the
// registry does not have; EConflict when the node is already installed (use
// Update to change its version).
func (s *Service) Install(ctx context.Context, orgID, userID, nodeID, version string) (*Installation, error) {
	if err := checkNodeID(nodeID); err != nil {
		return nil, err
	}
	if version != "" {
		if err := checkVersion(version); err != nil {
			return nil, err
		}
	}
	b, err := s.bundle(ctx, nodeID, version)
	if err != nil {
		return nil, err
	}
	if cur, err := s.store.FindInstalledNode(ctx, orgID, nodeID); err == nil {
		return nil, &edgeflow.Error{Code: edgeflow.EConflict,
			Message: fmt.Sprintf("node %s is already installed at version %s; use POST /marketplace/update to change its version", nodeID, cur.Version)}
	} else if !edgeflow.IsNotFound(err) {
		return nil, fmt.Errorf("find installed node %s: %w", nodeID, err)
	}
	in := &edgeflow.InstalledNode{
		ID:             edgeflow.NewID(edgeflow.PrefixInstall),
		OrganizationID: orgID,
		NodeID:         nodeID,
		Version:        b.Definition.Version,
		Definition:     append([]byte(nil), b.NodeJSON...),
		Template:       b.Template,
		Checksum:       b.Checksum,
		InstalledBy:    userID,
	}
	if err := s.store.InstallNode(ctx, in); err != nil {
		if edgeflow.IsConflict(err) {
			return nil, edgeflow.Errorf(edgeflow.EConflict, "node %s is already installed; use POST /marketplace/update to change its version", nodeID)
		}
		return nil, fmt.Errorf("install node %s: %w", nodeID, err)
	}
	inst := s.installationWithLatest(ctx, *in, b)
	return &inst, nil
}

// Update moves an installed node to another version of the registry, newer
// or older. Errors: EInvalid for a missing node id or version; ENotFound
// when the node is not installed in the organization or the registry has no
// such version; EConflict when the node is already at that version.
func (s *Service) Update(ctx context.Context, orgID, nodeID, version string) (*Installation, error) {
	if err := checkNodeID(nodeID); err != nil {
		return nil, err
	}
	if version == "" {
		return nil, edgeflow.Invalid("/version", "version is required: the version to move the installed node to")
	}
	if err := checkVersion(version); err != nil {
		return nil, err
	}
	in, err := s.store.FindInstalledNode(ctx, orgID, nodeID)
	if err != nil {
		if edgeflow.IsNotFound(err) {
			return nil, edgeflow.Errorf(edgeflow.ENotFound, "node %s is not installed in this organization", nodeID)
		}
		return nil, fmt.Errorf("find installed node %s: %w", nodeID, err)
	}
	b, err := s.bundle(ctx, nodeID, version)
	if err != nil {
		return nil, err
	}
	if in.Version == b.Definition.Version {
		return nil, edgeflow.Errorf(edgeflow.EConflict, "node %s is already installed at version %s", nodeID, in.Version)
	}
	in.Version = b.Definition.Version
	in.Definition = append([]byte(nil), b.NodeJSON...)
	in.Template = b.Template
	in.Checksum = b.Checksum
	if err := s.store.UpdateInstalledNode(ctx, in); err != nil {
		return nil, fmt.Errorf("update installed node %s: %w", nodeID, err)
	}
	inst := s.installationWithLatest(ctx, *in, b)
	return &inst, nil
}

// WorkflowRef names a workflow that blocks an uninstall.
type WorkflowRef struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	ProjectID string `json:"projectId"`
}

// Uninstall removes the node from the organization. Errors: EInvalid for a
// missing node id; ENotFound when it is not installed; EConflict while an
// active deployment of any workflow of the organization uses it (Details
// lists those workflows as []WorkflowRef, and the message names them).
func (s *Service) Uninstall(ctx context.Context, orgID, nodeID string) error {
	if err := checkNodeID(nodeID); err != nil {
		return err
	}
	if _, err := s.store.FindInstalledNode(ctx, orgID, nodeID); err != nil {
		if edgeflow.IsNotFound(err) {
			return edgeflow.Errorf(edgeflow.ENotFound, "node %s is not installed in this organization", nodeID)
		}
		return fmt.Errorf("find installed node %s: %w", nodeID, err)
	}
	refs, err := s.usedBy(ctx, orgID, nodeID)
	if err != nil {
		return err
	}
	if len(refs) > 0 {
		names := make([]string, len(refs))
		for i, w := range refs {
			names[i] = fmt.Sprintf("%q (%s)", w.Name, w.ID)
		}
		return &edgeflow.Error{Code: edgeflow.EConflict,
			Message: fmt.Sprintf("node %s is used by the deployed version of %s; take them down or deploy versions without it first", nodeID, strings.Join(names, ", ")),
			Details: refs}
	}
	if err := s.store.UninstallNode(ctx, orgID, nodeID); err != nil {
		if edgeflow.IsNotFound(err) {
			return edgeflow.Errorf(edgeflow.ENotFound, "node %s is not installed in this organization", nodeID)
		}
		return fmt.Errorf("uninstall node %s: %w", nodeID, err)
	}
	return nil
}

// usedBy names the workflows of the organization whose active deployment
// uses the node.
func (s *Service) usedBy(ctx context.Context, orgID, nodeID string) ([]WorkflowRef, error) {
	users, err := s.store.ListWorkflowsUsingNode(ctx, orgID, nodeID)
	if err != nil {
		return nil, fmt.Errorf("workflows using node %s: %w", nodeID, err)
	}
	refs := make([]WorkflowRef, len(users))
	for i, w := range users {
		refs[i] = WorkflowRef{ID: w.ID, Name: w.Name, ProjectID: w.ProjectID}
	}
	return refs, nil
}

// Bundles returns the verified snapshots of every node installed in the
// organization, sorted by node id. A snapshot that no longer matches its
// checksum is EConflict naming the node (reinstall or update it).
func (s *Service) Bundles(ctx context.Context, orgID string) ([]registry.Bundle, error) {
	installed, err := s.listInstalled(ctx, orgID)
	if err != nil {
		return nil, err
	}
	out := make([]registry.Bundle, 0, len(installed))
	for _, in := range installed {
		b, err := s.verify(in)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// bundle returns a registry version, mapping the registry's errors to
// ENotFound.
func (s *Service) bundle(ctx context.Context, nodeID, version string) (registry.Bundle, error) {
	b, err := s.registry.Bundle(ctx, nodeID, version)
	switch {
	case err == nil:
		return b, nil
	case errors.Is(err, registry.ErrNodeNotFound):
		return registry.Bundle{}, edgeflow.Errorf(edgeflow.ENotFound, "node %q not found in the marketplace", nodeID)
	case errors.Is(err, registry.ErrVersionNotFound):
		n, _ := s.registry.Node(ctx, nodeID)
		return registry.Bundle{}, edgeflow.Errorf(edgeflow.ENotFound, "node %s has no version %q (available: %s)", nodeID, version, versionList(n))
	default:
		return registry.Bundle{}, fmt.Errorf("registry bundle %s %s: %w", nodeID, version, err)
	}
}

// listInstalled reads every installation of the organization.
func (s *Service) listInstalled(ctx context.Context, orgID string) ([]edgeflow.InstalledNode, error) {
	var all []edgeflow.InstalledNode
	opts := edgeflow.ListOptions{Limit: 100}
	for {
		p, err := s.store.ListInstalledNodes(ctx, orgID, opts)
		if err != nil {
			return nil, fmt.Errorf("list installed nodes: %w", err)
		}
		all = append(all, p.Items...)
		if p.NextCursor == "" {
			return all, nil
		}
		opts.Cursor = p.NextCursor
	}
}

// verify checks a stored snapshot against its checksum (cached by content).
func (s *Service) verify(in edgeflow.InstalledNode) (registry.Bundle, error) {
	b, err := s.verified.get(in)
	if err != nil {
		s.logger.Error("installed node snapshot failed verification", "organization", in.OrganizationID, "node", in.NodeID, "version", in.Version, "err", err)
		return registry.Bundle{}, &edgeflow.Error{Code: edgeflow.EConflict,
			Message: fmt.Sprintf("the installed snapshot of node %s %s does not match its checksum and is refused; update or reinstall the node", in.NodeID, in.Version),
			Err:     err}
	}
	if b.Definition.ID != in.NodeID || b.Definition.Version != in.Version {
		return registry.Bundle{}, &edgeflow.Error{Code: edgeflow.EConflict,
			Message: fmt.Sprintf("the installed snapshot of node %s %s holds %s %s and is refused; update or reinstall the node", in.NodeID, in.Version, b.Definition.ID, b.Definition.Version)}
	}
	return b, nil
}

func (s *Service) installation(in edgeflow.InstalledNode, b registry.Bundle) Installation {
	d := b.Definition
	return Installation{
		ID: in.ID, NodeID: in.NodeID, Name: d.Name, Description: d.Description, Category: d.Category,
		Version: in.Version, Checksum: in.Checksum, InstalledBy: in.InstalledBy,
		InstalledAt: in.InstalledAt, UpdatedAt: in.UpdatedAt,
	}
}

func (s *Service) installationWithLatest(ctx context.Context, in edgeflow.InstalledNode, b registry.Bundle) Installation {
	inst := s.installation(in, b)
	if n, err := s.registry.Node(ctx, in.NodeID); err == nil {
		inst.Latest = n.Latest
		inst.UpdateAvail = registry.CompareVersions(n.Latest, in.Version) > 0
	}
	return inst
}

// orphanNode builds a catalog entry for an installed node the registry no
// longer serves, from its snapshot.
func (s *Service) orphanNode(in edgeflow.InstalledNode) (registry.Node, error) {
	b, err := s.verify(in)
	if err != nil {
		return registry.Node{}, err
	}
	d := b.Definition
	return registry.Node{
		ID: d.ID, Name: d.Name, Description: d.Description, Category: d.Category,
		Tags: append([]string{}, d.Tags...), Author: d.Author, License: d.License,
		Latest: d.Version, Versions: []registry.VersionInfo{{Version: d.Version, Checksum: b.Checksum, Changelog: d.Changelog}},
	}, nil
}

func withStatus(n registry.Node, in *edgeflow.InstalledNode) CatalogNode {
	c := CatalogNode{Node: n}
	if in != nil {
		v := in.Version
		c.Installed = true
		c.InstalledVersion = &v
		c.UpdateAvailable = registry.CompareVersions(n.Latest, v) > 0
	}
	return c
}

func versionList(n registry.Node) string {
	vs := make([]string, len(n.Versions))
	for i, v := range n.Versions {
		vs[i] = v.Version
	}
	return strings.Join(vs, ", ")
}

func checkNodeID(id string) error {
	if strings.TrimSpace(id) == "" {
		return edgeflow.Invalid("/nodeId", "nodeId is required")
	}
	if len(id) > 200 {
		return edgeflow.Invalid("/nodeId", "nodeId is longer than 200 characters")
	}
	return nil
}

func checkVersion(v string) error {
	if _, err := registry.ParseVersion(v); err != nil {
		return edgeflow.Invalid("/version", fmt.Sprintf("version %q is not a semantic version (MAJOR.MINOR.PATCH)", truncate(v, 64)))
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// NewEmbedded returns a Service over the registry embedded in the binary
// (no remote registry).
func NewEmbedded(store edgeflow.Store, logger *slog.Logger) (*Service, error) {
	reg, err := registry.New(registry.Options{Logger: logger})
	if err != nil {
		return nil, err
	}
	return New(Options{Store: store, Registry: reg, Logger: logger})
}

// CatalogFilter narrows the catalog: Words must each occur, in any case, in
// the node's id, name, description or one of its tags; Category, when not
// "", must equal the node's category.
type CatalogFilter struct {
	Words    []string
	Category string
}

// SearchWords splits a search text into its lowercased words.
func SearchWords(q string) []string {
	return strings.Fields(strings.ToLower(q))
}

// Filter returns the nodes that match f, in their order.
func (f CatalogFilter) Filter(nodes []CatalogNode) []CatalogNode {
	if len(f.Words) == 0 && f.Category == "" {
		return nodes
	}
	out := make([]CatalogNode, 0, len(nodes))
	for _, n := range nodes {
		if f.Category != "" && n.Category != f.Category {
			continue
		}
		text := strings.ToLower(n.ID + "\n" + n.Name + "\n" + n.Description + "\n" + strings.Join(n.Tags, "\n"))
		ok := true
		for _, w := range f.Words {
			if !strings.Contains(text, w) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, n)
		}
	}
	return out
}
