package marketplace

import (
	"fmt"
	"hash/maphash"
	"strings"
	"sync"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// maxCacheEntries bounds each cache; a full cache is emptied and refilled.
const maxCacheEntries = 4096

// boundedMap is a concurrency-safe map that forgets everything when it grows
// past maxCacheEntries.
type boundedMap[V any] struct {
	mu sync.RWMutex
	m  map[string]V
}

func (b *boundedMap[V]) load(key string) (V, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	v, ok := b.m[key]
	return v, ok
}

func (b *boundedMap[V]) store(key string, v V) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil || len(b.m) >= maxCacheEntries {
		b.m = map[string]V{}
	}
	b.m[key] = v
}

// verifiedCache remembers snapshots that passed verification, keyed by
// their checksum and a hash of their exact stored content (definition and
// template), so a row that changes in any byte is verified again. The hash is
// seeded randomly per process, so stored content cannot be crafted to
// collide with a verified one.
type verifiedCache struct {
	seed maphash.Seed
	m    boundedMap[registry.Bundle]
}

func newVerifiedCache() *verifiedCache { return &verifiedCache{seed: maphash.MakeSeed()} }

func (c *verifiedCache) get(in edgeflow.InstalledNode) (registry.Bundle, error) {
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.Write(in.Definition)
	d := h.Sum64()
	h.Reset()
	h.WriteString(in.Template)
	key := fmt.Sprintf("%s/%d/%x/%d/%x", in.Checksum, len(in.Definition), d, len(in.Template), h.Sum64())
	if b, ok := c.m.load(key); ok {
		return b, nil
	}
	b, err := registry.VerifyBundle(in.Definition, in.Template, in.Checksum)
	if err != nil {
		return registry.Bundle{}, err
	}
	c.m.store(key, b)
	return b, nil
}

// setKey identifies a set of verified installations: their node ids,
// versions and checksums.
func setKey(bundles []registry.Bundle) string {
	var k strings.Builder
	for _, b := range bundles {
		k.WriteString(b.Definition.ID)
		k.WriteByte('@')
		k.WriteString(b.Definition.Version)
		k.WriteByte('#')
		k.WriteString(b.Checksum)
		k.WriteByte(';')
	}
	return k.String()
}
