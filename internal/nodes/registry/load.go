package registry

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// Catalog is a verified, immutable set of node versions: every bundle's
// files hash to the checksum its index lists.
type Catalog struct {
	nodes   map[string]Node
	bundles map[string]map[string]Bundle // id → version → bundle
}

// Load reads a registry directory (fsys rooted where index.json and nodes/
// are), checks every node and verifies index.json against the files: a
// version whose files do not hash to the index's checksum is refused with
// ErrChecksumMismatch naming it; versions missing from either side or other
// differences are ErrStaleIndex; format problems are ErrInvalidNode.
func Load(fsys fs.FS) (*Catalog, error) {
	data, err := readLimited(fsys, IndexFile, MaxIndexSize)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	stored, err := ParseIndex(data)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	built, bundles, err := build(fsys)
	if err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	if err := compareIndex(stored, built); err != nil {
		return nil, fmt.Errorf("registry: %w", err)
	}
	c := &Catalog{nodes: map[string]Node{}, bundles: bundles}
	for _, n := range built.Nodes {
		c.nodes[n.ID] = n
	}
	return c, nil
}

// compareIndex reports how the stored index differs from the one built from
// the files, checksum mismatches first.
func compareIndex(stored, built *Index) error {
	storedNodes := map[string]Node{}
	for _, n := range stored.Nodes {
		storedNodes[n.ID] = n
	}
	var mismatches, stale []string
	builtIDs := map[string]bool{}
	for _, b := range built.Nodes {
		builtIDs[b.ID] = true
		s, ok := storedNodes[b.ID]
		if !ok {
			stale = append(stale, fmt.Sprintf("node %s is not in index.json", b.ID))
			continue
		}
		sums := map[string]string{}
		for _, v := range s.Versions {
			sums[v.Version] = v.Checksum
		}
		for _, v := range b.Versions {
			want, ok := sums[v.Version]
			switch {
			case !ok:
				stale = append(stale, fmt.Sprintf("%s %s is not in index.json", b.ID, v.Version))
			case want != v.Checksum:
				mismatches = append(mismatches, fmt.Sprintf("nodes/%s/%s: index.json has %s, node.json and template.ts hash to %s", b.ID, v.Version, want, v.Checksum))
			}
			delete(sums, v.Version)
		}
		for v := range sums {
			stale = append(stale, fmt.Sprintf("index.json lists %s %s, which has no folder", b.ID, v))
		}
	}
	for id := range storedNodes {
		if !builtIDs[id] {
			stale = append(stale, fmt.Sprintf("index.json lists node %s, which has no folder", id))
		}
	}
	if len(mismatches) > 0 {
		return fmt.Errorf("%w (files changed after the index was built; refusing them): %s", ErrChecksumMismatch, strings.Join(mismatches, "; "))
	}
	if len(stale) == 0 {
		a, err1 := MarshalIndex(stored)
		b, err2 := MarshalIndex(built)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if !bytes.Equal(a, b) {
			stale = append(stale, "node metadata or latest versions differ from the node files")
		}
	}
	if len(stale) > 0 {
		return fmt.Errorf("%w (run `edgeflow registry build`): %s", ErrStaleIndex, strings.Join(stale, "; "))
	}
	return nil
}

// Nodes returns the catalog entries sorted by id.
func (c *Catalog) Nodes() []Node {
	out := make([]Node, 0, len(c.nodes))
	for _, id := range sortedKeys(c.nodes) {
		out = append(out, cloneNode(c.nodes[id]))
	}
	return out
}

// Bundle returns one version of a node; version "" means the latest. It
// returns ErrNodeNotFound or ErrVersionNotFound.
func (c *Catalog) Bundle(id, version string) (Bundle, error) {
	n, ok := c.nodes[id]
	if !ok {
		return Bundle{}, fmt.Errorf("%w: %q", ErrNodeNotFound, id)
	}
	if version == "" {
		version = n.Latest
	}
	b, ok := c.bundles[id][version]
	if !ok {
		return Bundle{}, fmt.Errorf("%w: node %s has no version %q (available: %s)", ErrVersionNotFound, id, version, versionList(n))
	}
	return b, nil
}

func versionList(n Node) string {
	vs := make([]string, len(n.Versions))
	for i, v := range n.Versions {
		vs[i] = v.Version
	}
	return strings.Join(vs, ", ")
}

func cloneNode(n Node) Node {
	n.Tags = append([]string{}, n.Tags...)
	n.Versions = append([]VersionInfo{}, n.Versions...)
	return n
}
