package sqlite

import (
	"context"
	"slices"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The reads below go through the read cache (cache.go) and fall back to the
// shared store's queries.

// FindAPIKeyByHash returns the key whatever its state, or ENotFound, through
// the read cache: a revocation, in this process or another one, shows from
// the next call on. Unknown hashes are not cached.
func (s *Store) FindAPIKeyByHash(ctx context.Context, hash []byte) (*edgeflow.APIKey, error) {
	gen, ok := s.cache.current(ctx, scopeKeys)
	if ok {
		if k, hit := s.cache.key(gen, hash); hit {
			return cloneKey(k), nil
		}
	}
	k, err := s.shared.FindAPIKeyByHash(ctx, hash)
	if err != nil {
		return nil, err
	}
	if ok {
		s.cache.putKey(gen, *cloneKey(*k))
	}
	return k, nil
}

// FindWorkflowByID returns the project's workflow or ENotFound, through the
// read cache: every submission reads its workflow first.
func (s *Store) FindWorkflowByID(ctx context.Context, projectID, id string) (*edgeflow.Workflow, error) {
	gen, cached := s.cache.current(ctx, scopeRows)
	var ver uint64
	if cached {
		var w *edgeflow.Workflow
		if w, ver = s.cache.row(gen, id); w != nil && w.ProjectID == projectID {
			return w, nil
		}
	}
	w, err := s.shared.FindWorkflowByID(ctx, projectID, id)
	if err != nil {
		return nil, err
	}
	if cached {
		s.cache.putRow(gen, ver, w)
	}
	return w, nil
}

// ListWorkflows lists the project's workflows and functions, newest first,
// in one indexed query (workflows_project_created), through the read cache.
// The items' slices and maps (EnvVars, Dependencies, DeployConfig) may be
// shared with the cache: callers must not modify them.
func (s *Store) ListWorkflows(ctx context.Context, projectID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Workflow], error) {
	page, _, _, err := s.listWorkflows(ctx, projectID, opts)
	if err != nil {
		return page, err
	}
	page.Items = slices.Clone(page.Items)
	return page, nil
}
