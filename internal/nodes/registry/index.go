package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// FormatVersion is the version of the registry layout and index format this
// package reads and writes.
const FormatVersion = 1

// File names of the registry layout (docs/registry.md, "Layout").
const (
	IndexFile    = "index.json"
	NodesDir     = "nodes"
	NodeFile     = "node.json"
	TemplateFile = "template.ts"
)

// Size limits of registry files.
const (
	MaxNodeJSONSize = 64 << 10
	MaxTemplateSize = 256 << 10
	MaxIndexSize    = 8 << 20
)

// Errors of the registry. Functions wrap them with the node, version and
// detail concerned; test with errors.Is.
var (
	// ErrNodeNotFound: no node with that id in the catalog.
	ErrNodeNotFound = errors.New("node not found in the registry")
	// ErrVersionNotFound: the node exists but not at that version.
	ErrVersionNotFound = errors.New("version not found")
	// ErrChecksumMismatch: the files of a version do not hash to the
	// checksum recorded for it (tampered or changed without a rebuild).
	ErrChecksumMismatch = errors.New("checksum mismatch")
	// ErrInvalidNode: a node.json or template.ts breaks the format rules.
	ErrInvalidNode = errors.New("invalid node")
	// ErrStaleIndex: index.json does not describe the node files (run
	// `edgeflow registry build`).
	ErrStaleIndex = errors.New("index.json is out of date")
)

// Index is the content of index.json: every node of the registry with its
// versions and their checksums.
type Index struct {
	FormatVersion int    `json:"formatVersion"`
	Nodes         []Node `json:"nodes"`
}

// Node is a catalog entry: the metadata of a node's latest version, the
// latest version and every version, newest first.
type Node struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Category    string        `json:"category"`
	Tags        []string      `json:"tags"`
	Author      string        `json:"author"`
	License     string        `json:"license"`
	Latest      string        `json:"latest"`
	Versions    []VersionInfo `json:"versions"`
}

// VersionInfo is one published version of a node. Changelog is the
// version's node.json changelog; a catalog built from verified files takes it
// from there, never from an index alone.
type VersionInfo struct {
	Version   string `json:"version"`
	Checksum  string `json:"checksum"`
	Changelog string `json:"changelog,omitempty"`
}

// HasVersion reports whether the node has that exact version.
func (n Node) HasVersion(v string) bool {
	for _, x := range n.Versions {
		if x.Version == v {
			return true
		}
	}
	return false
}

// Build reads every registry/nodes/<id>/<version> folder of fsys (rooted at
// the registry directory), checks each node.json and template.ts, and
// returns the index with checksums and the semver-latest version of each
// node, nodes sorted by id. The error (wrapping ErrInvalidNode) lists every
// problem found, not only the first.
func Build(fsys fs.FS) (*Index, error) {
	idx, _, err := build(fsys)
	return idx, err
}

func build(fsys fs.FS) (*Index, map[string]map[string]Bundle, error) {
	ids, err := fs.ReadDir(fsys, NodesDir)
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", NodesDir, err)
	}
	idx := &Index{FormatVersion: FormatVersion, Nodes: []Node{}}
	all := map[string]map[string]Bundle{}
	var problems []string
	for _, idDir := range ids {
		if !idDir.IsDir() {
			continue
		}
		id := idDir.Name()
		versions, err := fs.ReadDir(fsys, path.Join(NodesDir, id))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", id, err))
			continue
		}
		bundles := map[string]Bundle{}
		for _, vDir := range versions {
			if !vDir.IsDir() {
				continue
			}
			dir := path.Join(NodesDir, id, vDir.Name())
			b, err := readBundle(fsys, dir, id, vDir.Name())
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: %v", dir, err))
				continue
			}
			bundles[vDir.Name()] = b
		}
		if len(bundles) == 0 {
			if len(problems) == 0 {
				problems = append(problems, fmt.Sprintf("%s: no version folders", path.Join(NodesDir, id)))
			}
			continue
		}
		all[id] = bundles
		idx.Nodes = append(idx.Nodes, nodeEntry(bundles))
	}
	if len(problems) > 0 {
		return nil, nil, fmt.Errorf("%w: %s", ErrInvalidNode, strings.Join(problems, "\n"))
	}
	sort.Slice(idx.Nodes, func(i, j int) bool { return idx.Nodes[i].ID < idx.Nodes[j].ID })
	return idx, all, nil
}

// readBundle reads and checks one version folder.
func readBundle(fsys fs.FS, dir, id, version string) (Bundle, error) {
	nodeJSON, err := readLimited(fsys, path.Join(dir, NodeFile), MaxNodeJSONSize)
	if err != nil {
		return Bundle{}, err
	}
	tmpl, err := readLimited(fsys, path.Join(dir, TemplateFile), MaxTemplateSize)
	if err != nil {
		return Bundle{}, err
	}
	b, err := NewBundle(nodeJSON, string(tmpl))
	if err != nil {
		return Bundle{}, err
	}
	if b.Definition.ID != id {
		return Bundle{}, fmt.Errorf("node.json id %q does not match its folder %q", b.Definition.ID, id)
	}
	if b.Definition.Version != version {
		return Bundle{}, fmt.Errorf("node.json version %q does not match its folder %q", b.Definition.Version, version)
	}
	return b, nil
}

func readLimited(fsys fs.FS, name string, limit int) ([]byte, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	if len(data) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes", path.Base(name), limit)
	}
	return data, nil
}

// nodeEntry builds the catalog entry of a node from its bundles.
func nodeEntry(bundles map[string]Bundle) Node {
	versions := make([]string, 0, len(bundles))
	for v := range bundles {
		versions = append(versions, v)
	}
	sort.Slice(versions, func(i, j int) bool { return CompareVersions(versions[i], versions[j]) > 0 })
	latest := Latest(versions)
	d := bundles[latest].Definition
	n := Node{
		ID: d.ID, Name: d.Name, Description: d.Description, Category: d.Category,
		Tags: append([]string{}, d.Tags...), Author: d.Author, License: d.License,
		Latest: latest,
	}
	for _, v := range versions {
		n.Versions = append(n.Versions, VersionInfo{Version: v, Checksum: bundles[v].Checksum, Changelog: bundles[v].Definition.Changelog})
	}
	return n
}

// MarshalIndex writes the index as index.json is stored: indented with two
// spaces, no HTML escaping, a final newline. The output depends only on the
// index, so a rebuild of unchanged nodes gives identical bytes.
func MarshalIndex(idx *Index) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(idx); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// ParseIndex decodes index.json strictly and checks its structure: the
// format version, node ids, semver versions, checksum syntax and that
// latest is one of the versions.
func ParseIndex(data []byte) (*Index, error) {
	var idx Index
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&idx); err != nil {
		return nil, fmt.Errorf("index.json: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("index.json: trailing data")
	}
	if idx.FormatVersion != FormatVersion {
		return nil, fmt.Errorf("index.json: formatVersion %d is not supported (this edgeflow reads %d)", idx.FormatVersion, FormatVersion)
	}
	seen := map[string]bool{}
	for i, n := range idx.Nodes {
		if !idPattern.MatchString(n.ID) {
			return nil, fmt.Errorf("index.json: nodes[%d]: invalid id %q", i, n.ID)
		}
		if seen[n.ID] {
			return nil, fmt.Errorf("index.json: node %q is listed twice", n.ID)
		}
		seen[n.ID] = true
		if len(n.Versions) == 0 {
			return nil, fmt.Errorf("index.json: node %q has no versions", n.ID)
		}
		vs := map[string]bool{}
		for _, v := range n.Versions {
			if _, err := ParseVersion(v.Version); err != nil {
				return nil, fmt.Errorf("index.json: node %q: %v", n.ID, err)
			}
			if vs[v.Version] {
				return nil, fmt.Errorf("index.json: node %q lists version %s twice", n.ID, v.Version)
			}
			vs[v.Version] = true
			if !checksumPattern.MatchString(v.Checksum) {
				return nil, fmt.Errorf("index.json: node %q version %s: checksum %q is not sha256:<64 hex digits>", n.ID, v.Version, v.Checksum)
			}
		}
		if !vs[n.Latest] {
			return nil, fmt.Errorf("index.json: node %q: latest %q is not one of its versions", n.ID, n.Latest)
		}
	}
	return &idx, nil
}

var checksumPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
