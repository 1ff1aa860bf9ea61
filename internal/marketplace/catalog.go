package marketplace

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
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
// the installations once. It is what every version submission asks, so the
// answer is cached per organization: an install, update or uninstall through
// this Service drops the organization's entry at once, and an entry is used
// for at most CatalogMaxAge, which bounds how long a change made elsewhere
// (another API replica, a direct write to the store) goes unseen. NodeCatalog,
// Templates and Bundles, which deploys use, always read the store. Errors as
// NodeCatalog.
func (s *Service) NodesAndTemplates(ctx context.Context, orgID string) (*nodes.Catalog, []codegen.NodeTemplate, error) {
	if c, ok := s.orgs.load(orgID); ok {
		return c.nodes, append([]codegen.NodeTemplate(nil), c.templates...), nil
	}
	gen := s.orgs.generation()
	c, err := s.orgCatalog(ctx, orgID)
	if err != nil {
		return nil, nil, err
	}
	s.orgs.store(orgID, c, gen)
	return c.nodes, append([]codegen.NodeTemplate(nil), c.templates...), nil
}

// CatalogMaxAge is the longest NodesAndTemplates serves an organization's
// catalog from its cache without reading the installations again.
const CatalogMaxAge = time.Second

// orgCache holds each organization's catalog as last read, with the time it
// was read.
type orgCache struct {
	mu  sync.Mutex
	gen uint64 // bumped by every invalidation
	m   map[string]orgCacheEntry
}

type orgCacheEntry struct {
	c  *orgCatalog
	at time.Time
}

func (o *orgCache) load(orgID string) (*orgCatalog, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	e, ok := o.m[orgID]
	if !ok || time.Since(e.at) >= CatalogMaxAge {
		return nil, false
	}
	return e.c, true
}

// generation is taken before reading the installations; store keeps what was
// read only if no invalidation happened since, so a read that raced an
// install never outlives it.
func (o *orgCache) generation() uint64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.gen
}

func (o *orgCache) store(orgID string, c *orgCatalog, gen uint64) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if gen != o.gen {
		return
	}
	if o.m == nil || len(o.m) >= maxCacheEntries {
		o.m = map[string]orgCacheEntry{}
	}
	o.m[orgID] = orgCacheEntry{c: c, at: time.Now()}
}

// invalidate forgets the organization's catalog.
func (o *orgCache) invalidate(orgID string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.gen++
	delete(o.m, orgID)
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
		e, err := nodes.EntryFromBundle(b)
		if err != nil {
			return nil, &edgeflow.Error{Code: edgeflow.EConflict,
				Message: fmt.Sprintf("the installed definition of node %s %s cannot be used; update or reinstall the node", b.Definition.ID, b.Definition.Version),
				Err:     err}
		}
		entries = append(entries, e)
		def := b.Definition
		tpls = append(tpls, codegen.NodeTemplate{Type: def.ID, Version: def.Version, Source: b.Template, Definition: &def})
	}
	c := &orgCatalog{nodes: nodes.NewCatalog(entries...), templates: tpls}
	s.catalogs.store(key, c)
	return c, nil
}
