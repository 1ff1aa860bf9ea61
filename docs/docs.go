// Package docs embeds the parts of edgeflow's user documentation that the
// binary serves itself: the IR reference (ir.md) and the node reference
// (nodes.md), which the MCP server (internal/mcp) offers assistants as
// resources. It lives beside the documents because an embedded file must
// sit at or below the package that embeds it.
package docs

import "embed"

//go:embed ir.md nodes.md
var files embed.FS

// IRReference returns docs/ir.md, the workflow IR's reference.
func IRReference() []byte { return mustRead("ir.md") }

// NodeReference returns docs/nodes.md, the builtin nodes' reference.
func NodeReference() []byte { return mustRead("nodes.md") }

func mustRead(name string) []byte {
	b, err := files.ReadFile(name)
	if err != nil {
		panic("docs: " + name + " is not embedded: " + err.Error())
	}
	return b
}
