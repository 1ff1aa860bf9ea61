package ir

import "slices"

// Defaults of the IR (docs/ir.md, "Defaults"): the keys that carry no
// meaning a user must choose may be omitted, and the reader fills them in.
// The IR the validator returns is then the complete one; FilledDefaults
// tells a caller that it differs from the document it read.

// DefaultProvider is a node's provider when it is omitted.
const DefaultProvider = ProviderCloudflare

// BuiltinNodeVersion is the version of every builtin node type, and a
// builtin node's version when it is omitted. A marketplace node's omitted
// version is the newest version of it in the validation's catalog (the
// installed one).
const BuiltinNodeVersion = "1.0.0"

var metaDefaultedMask = keyMask(metaKeys, []string{"version", "createdAt", "updatedAt"})

var (
	nodePositionKey = keyMask(nodeKeys, []string{"position"})
	nodeVersionKey  = keyMask(nodeKeys, []string{"version"})
	nodeProviderKey = keyMask(nodeKeys, []string{"provider"})

	nodeDefaultedMask = nodePositionKey | nodeVersionKey | nodeProviderKey
)

// FilledDefaults reports whether the reader filled in an omitted key (a
// node's position, version or provider, or metadata.version, createdAt or
// updatedAt), so that the document it read is not the complete IR. The
// filled-in IR is a itself (json.Marshal writes every key).
func (a *ArtifactIR) FilledDefaults() bool { return a.filled }

// nodeDefaults fills in the keys of node n, the node at index r.nodeIndex,
// that seen says were omitted.
func (r *streamReader) nodeDefaults(n *Node, seen keySet) {
	if seen&nodeDefaultedMask == nodeDefaultedMask {
		return
	}
	r.filled = true
	if seen&nodeProviderKey == 0 {
		n.Provider = DefaultProvider
	}
	if seen&nodeVersionKey == 0 {
		if IsBuiltinType(n.Type) {
			n.Version = BuiltinNodeVersion
		} else {
			r.versionOmitted = append(r.versionOmitted, r.nodeIndex)
		}
	}
}

// defaultVersion gives a marketplace node whose version was omitted the
// newest version its type has in the catalog. It reports false when the
// type has none (the node-type rule then reports the unknown type).
func (v *validator) defaultVersion(i int) bool {
	n := &v.a.Nodes[i]
	if !v.a.omittedVersion(i) || v.opts.Nodes == nil {
		return false
	}
	versions := v.opts.Nodes.Versions(n.Type)
	if len(versions) == 0 {
		return false
	}
	n.Version = versions[len(versions)-1]
	return true
}

// omittedVersion reports whether the node at index i is a marketplace node
// whose version was omitted (and not filled in yet).
func (a *ArtifactIR) omittedVersion(i int) bool {
	if a.Nodes[i].Version != "" {
		return false
	}
	// The reader lists the nodes in order: a search, not a scan per node.
	_, found := slices.BinarySearch(a.versionOmitted, i)
	return found
}
