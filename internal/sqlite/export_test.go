package sqlite

import "context"

// OpenWithoutShmWatch opens a Store whose read cache detects commits of
// other connections with PRAGMA data_version only, as on systems where the
// WAL-index cannot be mapped.
func OpenWithoutShmWatch(ctx context.Context, path string) (*Store, error) {
	return Open(ctx, path, Options{noShmWatch: true})
}

// InvalidateCache ends the read cache's generation, as a write would.
func (s *Store) InvalidateCache() { s.cache.invalidate(scopeAll) }

// WatchesShm reports whether the read cache reads the WAL-index header (and
// so can tell the Store's own commits from other connections').
func (s *Store) WatchesShm() bool {
	s.cache.shmMu.Lock()
	defer s.cache.shmMu.Unlock()
	return s.cache.shm != nil
}

// APIKeyCached reports whether FindAPIKeyByHash would now serve hash from
// the read cache.
func (s *Store) APIKeyCached(ctx context.Context, hash []byte) bool {
	gen, ok := s.cache.current(ctx, scopeKeys)
	if !ok {
		return false
	}
	_, hit := s.cache.key(gen, hash)
	return hit
}

// WorkflowCached reports whether FindWorkflowByID would now serve workflow
// id from the read cache.
func (s *Store) WorkflowCached(ctx context.Context, id string) bool {
	gen, ok := s.cache.current(ctx, scopeRows)
	if !ok {
		return false
	}
	w, _ := s.cache.row(gen, id)
	return w != nil
}
