package marketplace

import (
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

// verifiedCache remembers snapshots that passed verification, keyed by their
// exact stored content (definition, template and checksum), so a row that
// changes in any byte is verified again.
type verifiedCache struct {
	m boundedMap[registry.Bundle]
}

func newVerifiedCache() *verifiedCache { return &verifiedCache{} }

func (c *verifiedCache) get(in edgeflow.InstalledNode) (registry.Bundle, error) {
	var k strings.Builder
	k.Grow(len(in.Checksum) + len(in.Definition) + len(in.Template) + 2)
	k.WriteString(in.Checksum)
	k.WriteByte(0)
	k.Write(in.Definition)
	k.WriteByte(0)
	k.WriteString(in.Template)
	key := k.String()
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
