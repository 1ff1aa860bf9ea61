package bundle

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"sort"
	"strings"
	"sync"
)

// Bundles are deterministic: the same input gives the same module. Recent
// results are kept in memory, keyed by a hash of the input, so that
// resubmitting a workflow (the same IR under a new version number) does not
// parse and print it again. At most cacheEntries bundles of cacheBytes in
// all are kept, the least recently used dropped first; a bundle larger than
// a quarter of cacheBytes is not kept.
const (
	cacheEntries = 256
	cacheBytes   = 64 << 20
)

type cacheEntry struct {
	key [32]byte
	out Output
}

type lru struct {
	mu         sync.Mutex
	ll         *list.List
	items      map[[32]byte]*list.Element
	bytes      int
	maxEntries int
	maxBytes   int
}

func newLRU(maxEntries, maxBytes int) *lru {
	return &lru{ll: list.New(), items: map[[32]byte]*list.Element{}, maxEntries: maxEntries, maxBytes: maxBytes}
}

var results = newLRU(cacheEntries, cacheBytes)

func (c *lru) get(k [32]byte) (*Output, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.ll.MoveToFront(el)
	e := el.Value.(*cacheEntry)
	return &Output{Code: clone(e.out.Code), Map: clone(e.out.Map)}, true
}

func (c *lru) put(k [32]byte, out *Output) {
	size := len(out.Code) + len(out.Map)
	if size > c.maxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.items[k]; ok {
		return
	}
	c.items[k] = c.ll.PushFront(&cacheEntry{key: k, out: Output{Code: clone(out.Code), Map: clone(out.Map)}})
	c.bytes += size
	for c.ll.Len() > c.maxEntries || c.bytes > c.maxBytes {
		el := c.ll.Back()
		e := el.Value.(*cacheEntry)
		c.ll.Remove(el)
		delete(c.items, e.key)
		c.bytes -= len(e.out.Code) + len(e.out.Map)
	}
}

func clone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte(nil), b...)
}

// cacheKey hashes everything that decides the output. The comment lines that
// open a module are left out: esbuild drops them (they are not legal
// comments), so a header naming the version does not defeat the cache.
func cacheKey(in Input) [32]byte {
	h := sha256.New()
	writeString := func(h hash.Hash, s string) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
		h.Write(n[:])
		h.Write([]byte(s))
	}
	writeString(h, in.Entry)
	names := make([]string, 0, len(in.Files))
	for k := range in.Files {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		writeString(h, k)
		if in.Regions != nil && k == in.Entry {
			// The module is used as written, header comments included,
			// and the regions' offsets count them.
			writeString(h, in.Files[k])
			continue
		}
		writeString(h, stripHeader(in.Files[k]))
	}
	if in.Regions != nil {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(in.Regions)))
		h.Write(n[:])
		for _, r := range in.Regions {
			var e byte
			if r.Expression {
				e = 1
			}
			binary.LittleEndian.PutUint64(n[:], uint64(r.Start))
			h.Write(n[:])
			binary.LittleEndian.PutUint64(n[:], uint64(r.End))
			h.Write(n[:])
			h.Write([]byte{e})
		}
	}
	deps := make([]string, 0, len(in.Dependencies))
	for k, v := range in.Dependencies {
		deps = append(deps, k+"@"+v)
	}
	sort.Strings(deps)
	for _, d := range deps {
		writeString(h, d)
	}
	flags := []byte{0, 0}
	if in.Minify {
		flags[0] = 1
	}
	if in.SourceMap {
		flags[1] = 1
	}
	h.Write(flags)
	var k [32]byte
	copy(k[:], h.Sum(nil))
	return k
}

// stripHeader drops the "//" comment lines a module starts with, unless one
// is a legal comment ("//!"), which esbuild keeps.
func stripHeader(src string) string {
	rest := src
	for strings.HasPrefix(rest, "//") {
		if strings.HasPrefix(rest, "//!") {
			return src
		}
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			return ""
		}
		rest = rest[i+1:]
	}
	return rest
}
