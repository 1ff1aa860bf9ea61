// Package registry holds edgeflow's node registry: the marketplace nodes
// under nodes/<id>/<version>/ (node.json and template.ts) and index.json,
// embedded into the binary. It lives at the repository root because an
// embedded file must sit at or below the package that embeds it;
// internal/nodes/registry loads and verifies it. docs/registry.md describes
// the format.
package registry

import (
	"embed"
	"io/fs"
)

//go:embed index.json nodes/*/*/node.json nodes/*/*/template.ts
var files embed.FS

// FS returns the embedded registry, rooted where index.json and nodes/ are.
// Only index.json, node.json and template.ts files are embedded (test
// fixtures stay out of the binary).
func FS() fs.FS { return files }
