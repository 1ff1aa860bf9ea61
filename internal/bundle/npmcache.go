package bundle

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The npm dependency cache (<cacheDir>/npm/<key>/, see Install) is kept
// under a size limit: after each new install, the entries used least
// recently are removed until the cache fits (TrimCache). An entry's last use
// is the modification time of its marker file, set on every build that
// reads it; its size is written into the marker when it is installed.

// DefaultCacheLimit is the size the npm dependency cache is kept under when
// no other limit is set: 2 GiB.
const DefaultCacheLimit int64 = 2 << 30

// staleAfter is how old a leftover must be before a trim removes it: the
// build directory of a process that died, an entry directory that never got
// its marker. A build runs for minutes at most (installTimeout per npm step).
const staleAfter = time.Hour

// evictPrefix names an entry being removed: it is renamed first, so that no
// build finds it half deleted.
const evictPrefix = ".evict-"

// cacheUses counts, per entry directory, the calls of this process that use
// it (from the lookup to the end of the build that reads it) and holds the
// lock that lets one of them install it. A trim never removes an entry in
// use. The record goes away with its last user, so the map holds only
// entries in use.
type cacheUses struct {
	mu      sync.Mutex
	entries map[string]*cacheUse
}

type cacheUse struct {
	n       int
	install sync.Mutex
}

var uses = &cacheUses{entries: map[string]*cacheUse{}}

// acquire marks dir in use and returns its record and the function that
// ends the use (safe to call more than once).
func (u *cacheUses) acquire(dir string) (*cacheUse, func()) {
	u.mu.Lock()
	e := u.entries[dir]
	if e == nil {
		e = &cacheUse{}
		u.entries[dir] = e
	}
	e.n++
	u.mu.Unlock()
	var once sync.Once
	return e, func() {
		once.Do(func() {
			u.mu.Lock()
			if e.n--; e.n == 0 {
				delete(u.entries, dir)
			}
			u.mu.Unlock()
		})
	}
}

// evict renames dir to to unless dir is in use, and says whether it did.
func (u *cacheUses) evict(dir, to string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.entries[dir] != nil {
		return false
	}
	return os.Rename(dir, to) == nil
}

// markUsed records a use of the entry whose marker is marker.
func markUsed(marker string) {
	now := time.Now()
	_ = os.Chtimes(marker, now, now)
}

// markerText is what an entry's marker holds: its key and its size.
func markerText(key string, size int64) []byte {
	return []byte(key + "\n" + strconv.FormatInt(size, 10) + "\n")
}

// entrySize is the size an entry's marker records, or, for a marker
// without one, the size of its files.
func entrySize(dir string) int64 {
	if b, err := os.ReadFile(filepath.Join(dir, installedMarker)); err == nil {
		lines := strings.Split(string(b), "\n")
		if len(lines) > 1 {
			if n, err := strconv.ParseInt(strings.TrimSpace(lines[1]), 10, 64); err == nil && n >= 0 {
				return n
			}
		}
	}
	return dirSize(dir)
}

// dirSize adds up the sizes of the regular files under dir.
func dirSize(dir string) int64 {
	var n int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
}

var trimMu sync.Mutex // one trim at a time in this process

// TrimCache keeps the npm dependency cache under cacheDir within limit
// bytes: it removes the entries used least recently until the rest fit,
// skipping any entry a build of this process is using, and removes
// leftovers older than an hour (build directories of a process that died,
// entries never completed). A negative limit removes only leftovers. It
// answers the keys of the entries it removed, least recently used first.
// Another process sharing the directory is not seen: an entry it is reading
// may be removed, and its build then fails and is tried again.
func TrimCache(cacheDir string, limit int64) ([]string, error) {
	trimMu.Lock()
	defer trimMu.Unlock()
	now := time.Now()
	if builds, err := os.ReadDir(filepath.Join(cacheDir, "builds")); err == nil {
		for _, b := range builds {
			if info, err := b.Info(); err == nil && now.Sub(info.ModTime()) > staleAfter {
				_ = os.RemoveAll(filepath.Join(cacheDir, "builds", b.Name()))
			}
		}
	}
	npmDir := filepath.Join(cacheDir, "npm")
	list, err := os.ReadDir(npmDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	type entry struct {
		key, dir string
		size     int64
		used     time.Time
	}
	var entries []entry
	var total int64
	for _, d := range list {
		dir := filepath.Join(npmDir, d.Name())
		if !d.IsDir() {
			continue
		}
		if strings.HasPrefix(d.Name(), evictPrefix) {
			_ = os.RemoveAll(dir) // an eviction this or another process did not finish
			continue
		}
		info, err := os.Stat(filepath.Join(dir, installedMarker))
		if err != nil {
			to := filepath.Join(npmDir, evictPrefix+d.Name()+"-"+randomHex())
			if dinfo, err := d.Info(); err == nil && now.Sub(dinfo.ModTime()) > staleAfter && uses.evict(dir, to) {
				_ = os.RemoveAll(to)
			}
			continue
		}
		e := entry{key: d.Name(), dir: dir, size: entrySize(dir), used: info.ModTime()}
		entries = append(entries, e)
		total += e.size
	}
	if limit < 0 || total <= limit {
		return nil, nil
	}
	sort.Slice(entries, func(i, j int) bool {
		if !entries[i].used.Equal(entries[j].used) {
			return entries[i].used.Before(entries[j].used)
		}
		return entries[i].key < entries[j].key
	})
	var removed []string
	for _, e := range entries {
		if total <= limit {
			break
		}
		to := filepath.Join(npmDir, evictPrefix+e.key+"-"+randomHex())
		if !uses.evict(e.dir, to) {
			continue
		}
		_ = os.RemoveAll(to)
		total -= e.size
		removed = append(removed, e.key)
	}
	return removed, nil
}

func randomHex() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
