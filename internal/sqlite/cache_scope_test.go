package sqlite_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestCacheWriteScope checks which of the Store's own writes drop which
// cache entries: a version keeps the cached API key, a rate-limit hit keeps
// the key and the list pages, a revocation drops the key, and any write by
// another Store on the file (a foreign commit) drops everything.
func TestCacheWriteScope(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	must(t, err)
	defer s.Close()
	if !s.WatchesShm() {
		testenv.Missing(t, "the WAL-index cannot be mapped here: every commit counts as foreign")
	}
	w := newCacheWorld(t, s)
	fill := func() {
		t.Helper()
		for range 2 {
			_, err := s.FindAPIKeyByHash(ctx, w.key.Hash)
			must(t, err)
		}
		if !s.APIKeyCached(ctx, w.key.Hash) {
			t.Fatal("key not cached after two reads")
		}
	}
	var calls int
	fill()
	encoded(t, s, w.project.ID, &calls)

	v := &edgeflow.Version{WorkflowID: w.workflows[1].ID, IR: json.RawMessage(`{}`)}
	must(t, s.CreateVersion(ctx, v))
	if !s.APIKeyCached(ctx, w.key.Hash) {
		t.Error("a version write dropped the cached API key")
	}
	before := calls
	got := encoded(t, s, w.project.ID, &calls)
	if calls != before+1 {
		t.Error("a version write kept the list page (current version changed)")
	}
	want := listed(t, s, w.project.ID)
	if want[1].CurrentVersionID != v.ID || got != listingJSON(t, want) {
		t.Errorf("list after CreateVersion = %s, want current version %s", got, v.ID)
	}

	before = calls
	_, err = s.Hit(ctx, "rate", time.Now())
	must(t, err)
	if !s.APIKeyCached(ctx, w.key.Hash) {
		t.Error("a rate-limit write dropped the cached API key")
	}
	encoded(t, s, w.project.ID, &calls)
	if calls != before {
		t.Error("a rate-limit write dropped the list page")
	}

	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	must(t, s.RevokeAPIKey(ctx, w.org.ID, w.key.ID, at))
	if s.APIKeyCached(ctx, w.key.Hash) {
		t.Error("the revocation kept the cached API key")
	}
	k, err := s.FindAPIKeyByHash(ctx, w.key.Hash)
	must(t, err)
	if k.RevokedAt == nil || !k.RevokedAt.Equal(at) {
		t.Errorf("RevokedAt = %v after the revocation, want %v", k.RevokedAt, at)
	}

	fill()
	other, err := sqlite.Open(ctx, path, sqlite.Options{})
	must(t, err)
	defer other.Close()
	must(t, other.CreateVersion(ctx, &edgeflow.Version{WorkflowID: w.workflows[2].ID, IR: json.RawMessage(`{}`)}))
	if s.APIKeyCached(ctx, w.key.Hash) {
		t.Error("a version written by another Store kept the cached API key")
	}
	fill()
	_, err = other.Hit(ctx, "rate", time.Now())
	must(t, err)
	if s.APIKeyCached(ctx, w.key.Hash) {
		t.Error("a write by another Store kept the cached API key")
	}
	before = calls
	encoded(t, s, w.project.ID, &calls)
	if calls != before+1 {
		t.Error("a write by another Store kept the list page")
	}
}
