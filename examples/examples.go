// Package examples embeds the example IRs of this directory (NAME.json,
// each beside NAME.params.json, the params to trigger it with), which the
// MCP server (internal/mcp) offers assistants as resources. It lives beside
// the files because an embedded file must sit at or below the package that
// embeds it; README.md describes each example.
package examples

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.json
var files embed.FS

// Example is one example: its name, its IR and the params to trigger it
// with.
type Example struct {
	Name   string
	IR     []byte
	Params []byte
}

// All returns every example, by name.
func All() []Example {
	entries, err := fs.Glob(files, "*.json")
	if err != nil {
		panic("examples: " + err.Error())
	}
	sort.Strings(entries)
	var out []Example
	for _, name := range entries {
		if strings.HasSuffix(name, ".params.json") {
			continue
		}
		base := strings.TrimSuffix(name, ".json")
		ir, _ := files.ReadFile(name)
		params, _ := files.ReadFile(base + ".params.json")
		out = append(out, Example{Name: base, IR: ir, Params: params})
	}
	return out
}
