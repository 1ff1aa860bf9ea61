package localedge_test

import (
	"bytes"
	"testing"

	"github.com/edgeflow/edgeflow/internal/localedge"
)

// TestEdgeKey: the edge's key is derived, stable for one secret key, different for another, and never the
// secret key itself.
func TestEdgeKey(t *testing.T) {
	t.Parallel()
	a := bytes.Repeat([]byte{1}, 32)
	k1, err := localedge.EdgeKey(a)
	if err != nil {
		t.Fatal(err)
	}
	k2, _ := localedge.EdgeKey(a)
	k3, _ := localedge.EdgeKey(bytes.Repeat([]byte{2}, 32))
	if len(k1) != 32 || !bytes.Equal(k1, k2) || bytes.Equal(k1, k3) || bytes.Equal(k1, a) {
		t.Errorf("EdgeKey: %x %x %x", k1, k2, k3)
	}
	if _, err := localedge.EdgeKey([]byte("short")); err == nil {
		t.Error("EdgeKey accepted a 5-byte key")
	}
}
