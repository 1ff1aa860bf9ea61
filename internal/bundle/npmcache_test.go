package bundle_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// fakeEntry writes an installed set into the npm cache as Install leaves
// one: a directory with a file of size bytes and the marker recording key
// and size, last used at used.
func fakeEntry(t *testing.T, cache, key string, size int, used time.Time) string {
	t.Helper()
	dir := filepath.Join(cache, "npm", key)
	if err := os.MkdirAll(filepath.Join(dir, "node_modules", "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "node_modules", "p", "index.js"), make([]byte, size), 0o444); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, ".edgeflow-installed")
	if err := os.WriteFile(marker, []byte(key+"\n"+strconv.Itoa(size)+"\n"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(marker, used, used); err != nil {
		t.Fatal(err)
	}
	return dir
}

func cacheKeys(t *testing.T, cache string) []string {
	t.Helper()
	list, err := os.ReadDir(filepath.Join(cache, "npm"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, d := range list {
		keys = append(keys, d.Name())
	}
	return keys
}

// TestTrimCache: past its limit the npm cache loses the sets used least
// recently, until the rest fit; a set used since (its marker touched, as a
// cache hit does) stays and still holds its files. Leftovers of builds and
// evictions that died are removed; a negative limit removes only those.
func TestTrimCache(t *testing.T) {
	t.Parallel()
	cache := t.TempDir()
	t0 := time.Now().Add(-10 * time.Minute)
	fakeEntry(t, cache, "aaa", 100, t0)
	fakeEntry(t, cache, "bbb", 100, t0.Add(time.Minute))
	fakeEntry(t, cache, "ccc", 100, t0.Add(2*time.Minute))
	if removed, err := bundle.TrimCache(cache, 300); err != nil || len(removed) != 0 {
		t.Fatalf("within the limit: removed %v, %v", removed, err)
	}
	removed, err := bundle.TrimCache(cache, 250)
	if err != nil || !slices.Equal(removed, []string{"aaa"}) {
		t.Fatalf("removed %v, %v; want the least recently used, aaa", removed, err)
	}
	if got := cacheKeys(t, cache); !slices.Equal(got, []string{"bbb", "ccc"}) {
		t.Fatalf("cache holds %v", got)
	}
	// bbb is used again (a hit), then ddd arrives: ccc is now the oldest.
	now := time.Now()
	if err := os.Chtimes(filepath.Join(cache, "npm", "bbb", ".edgeflow-installed"), now, now); err != nil {
		t.Fatal(err)
	}
	fakeEntry(t, cache, "ddd", 100, now.Add(-time.Second))
	removed, err = bundle.TrimCache(cache, 250)
	if err != nil || !slices.Equal(removed, []string{"ccc"}) {
		t.Fatalf("removed %v, %v; want ccc", removed, err)
	}
	if b, err := os.ReadFile(filepath.Join(cache, "npm", "bbb", "node_modules", "p", "index.js")); err != nil || len(b) != 100 {
		t.Fatalf("the kept set lost its files: %d bytes, %v", len(b), err)
	}
	// A marker without a recorded size (an older install) counts its files.
	old := fakeEntry(t, cache, "eee", 100, t0)
	os.Chmod(filepath.Join(old, ".edgeflow-installed"), 0o644)
	os.WriteFile(filepath.Join(old, ".edgeflow-installed"), []byte("eee\n"), 0o444)
	os.Chtimes(filepath.Join(old, ".edgeflow-installed"), t0, t0)
	if removed, _ = bundle.TrimCache(cache, 200); !slices.Equal(removed, []string{"eee"}) {
		t.Fatalf("removed %v, want eee", removed)
	}

	// Leftovers: a build directory and an unmarked entry older than an hour,
	// an interrupted eviction. Fresh ones stay.
	long := time.Now().Add(-2 * time.Hour)
	for _, d := range []string{"builds/build-old", "builds/build-new", "npm/unmarked-old", "npm/unmarked-new", "npm/.evict-xyz-1"} {
		if err := os.MkdirAll(filepath.Join(cache, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.Chtimes(filepath.Join(cache, "builds/build-old"), long, long)
	os.Chtimes(filepath.Join(cache, "npm/unmarked-old"), long, long)
	if removed, err = bundle.TrimCache(cache, -1); err != nil || len(removed) != 0 {
		t.Fatalf("no limit: removed %v, %v", removed, err)
	}
	if got := cacheKeys(t, cache); !slices.Equal(got, []string{"bbb", "ddd", "unmarked-new"}) {
		t.Errorf("npm holds %v", got)
	}
	if builds, _ := os.ReadDir(filepath.Join(cache, "builds")); len(builds) != 1 || builds[0].Name() != "build-new" {
		t.Errorf("builds holds %v", builds)
	}
}

// TestLegitBundleCacheLimit bundles with two dependency sets and a limit
// one set exceeds: each new install removes the set used least recently
// (never the one being built with), and building again with the kept set
// is a cache hit (no new entry, its last use moves on).
func TestLegitBundleCacheLimit(t *testing.T) {
	t.Parallel()
	needNPM(t)
	cache := t.TempDir()
	build := func(version string) {
		t.Helper()
		_, err := bundle.Bundle(context.Background(), bundle.Input{
			Files:        map[string]string{"index.ts": `import ms from "ms"; export default { fetch() { return new Response(String(ms("1h"))); } };`},
			Entry:        "index.ts",
			Dependencies: map[string]string{"ms": version},
			CacheDir:     cache, CacheLimit: 1, NoCache: true,
		})
		if err != nil {
			var ie *bundle.InstallError
			if errors.As(err, &ie) && (strings.Contains(ie.Message, "ENOTFOUND") || strings.Contains(ie.Message, "EAI_AGAIN")) {
				testenv.Missing(t, "the npm registry is not reachable: %v", err)
			}
			t.Fatal(err)
		}
	}
	build("2.1.3")
	first := cacheKeys(t, cache)
	if len(first) != 1 {
		t.Fatalf("after one install the cache holds %v", first)
	}
	build("2.1.2")
	second := cacheKeys(t, cache)
	if len(second) != 1 || second[0] == first[0] {
		t.Fatalf("after a second set the cache holds %v, want only the new one (was %v)", second, first)
	}
	marker := filepath.Join(cache, "npm", second[0], ".edgeflow-installed")
	before, err := os.Stat(marker)
	if err != nil {
		t.Fatal(err)
	}
	past := before.ModTime().Add(-time.Hour)
	os.Chtimes(marker, past, past)
	build("2.1.2")
	after, err := os.Stat(marker)
	if got := cacheKeys(t, cache); err != nil || !slices.Equal(got, second) || !after.ModTime().After(past) {
		t.Fatalf("a hit: cache %v, last use %v (was %v), %v", got, after.ModTime(), past, err)
	}
}
