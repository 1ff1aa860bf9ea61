package registry_test

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// BenchmarkLoadEmbedded measures the start-up cost of the registry: reading
// and checking every node of the embedded registry and verifying every
// checksum.
func BenchmarkLoadEmbedded(b *testing.B) {
	for b.Loop() {
		if _, err := registry.New(registry.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCatalog measures one catalog listing (GET /marketplace).
func BenchmarkCatalog(b *testing.B) {
	r, err := registry.New(registry.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = r.Nodes(b.Context())
	}
}
