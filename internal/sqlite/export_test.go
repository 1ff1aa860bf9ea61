package sqlite

import "context"

// OpenWithoutShmWatch opens a Store whose read cache detects commits of
// other connections with PRAGMA data_version only, as on systems where the
// WAL-index cannot be mapped.
func OpenWithoutShmWatch(ctx context.Context, path string) (*Store, error) {
	return Open(ctx, path, Options{noShmWatch: true})
}

// InvalidateCache ends the read cache's generation, as a write would.
func (s *Store) InvalidateCache() { s.cache.invalidate() }
