package marketplace

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// orgCatalog is what the validator and the compiler need from one set of
// installations, built once per set and shared (read-only).
type orgCatalog struct {
	nodes     *nodes.Catalog
	templates []codegen.NodeTemplate
}

// NodeCatalog returns the node catalog of the organization: the builtin node
// types plus every installed marketplace node at its installed version. The
// IR validator checks a marketplace node's type, version and data against
// it. The catalog is shared between callers: do not modify what it returns.
// Errors: EConflict for a snapshot that fails verification.
func (s *Service) NodeCatalog(ctx context.Context, orgID string) (*nodes.Catalog, error) {
	c, err := s.orgCatalog(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return c.nodes, nil
}

// Templates returns the templates of every node installed in the
// organization, one per node at its installed version, sorted by node type,
// each with its definition: what codegen.Options.Templates takes. The
// returned slice is the caller's; the definitions are shared, read-only.
// Errors as NodeCatalog.
func (s *Service) Templates(ctx context.Context, orgID string) ([]codegen.NodeTemplate, error) {
	c, err := s.orgCatalog(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return append([]codegen.NodeTemplate(nil), c.templates...), nil
}

// NodesAndTemplates returns NodeCatalog and Templates together, reading
// the installations once. Errors as NodeCatalog.
func (s *Service) NodesAndTemplates(ctx context.Context, orgID string) (*nodes.Catalog, []codegen.NodeTemplate, error) {
	c, err := s.orgCatalog(ctx, orgID)
	if err != nil {
		return nil, nil, err
	}
	return c.nodes, append([]codegen.NodeTemplate(nil), c.templates...), nil
}

func (s *Service) orgCatalog(ctx context.Context, orgID string) (*orgCatalog, error) {
	bundles, err := s.Bundles(ctx, orgID)
	if err != nil {
		return nil, err
	}
	key := setKey(bundles)
	if c, ok := s.catalogs.load(key); ok {
		return c, nil
	}
	entries := make([]nodes.Entry, 0, len(bundles))
	tpls := make([]codegen.NodeTemplate, 0, len(bundles))
	for _, b := range bundles {
		entries = append(entries, nodes.EntryFromBundle(b))
		def := b.Definition
		tpls = append(tpls, codegen.NodeTemplate{Type: def.ID, Version: def.Version, Source: b.Template, Definition: &def})
	}
	c := &orgCatalog{nodes: nodes.NewCatalog(entries...), templates: tpls}
	s.catalogs.store(key, c)
	return c, nil
}
