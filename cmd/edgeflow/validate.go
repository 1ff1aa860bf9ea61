package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	noderegistry "github.com/edgeflow/edgeflow/internal/nodes/registry"
	embedded "github.com/edgeflow/edgeflow/registry"
)

// runValidate implements `edgeflow validate [-json] FILE.ir.json`: it
// validates an IR as the server does when a version is submitted, with the
// builtin nodes and every node of the embedded marketplace registry. Exit
// status 0 and "valid", or 1 and one line per problem; 2 on bad usage.
func runValidate(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the problems as a JSON array of {path, message, nodeId, rule}")
	maxSteps := fs.Int("max-steps", ir.DefaultMaxSteps, "the most durable steps a workflow may have")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: edgeflow validate [-json] [-max-steps N] FILE.ir.json")
		fs.PrintDefaults()
		printExamples(fs.Output(), "edgeflow validate examples/hello.json", "edgeflow validate -json orders.ir.json")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	file := fs.Arg(0)
	raw, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow validate: %v\n", err)
		return 1
	}
	reg, err := noderegistry.Load(embedded.FS())
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow validate: node registry: %v\n", err)
		return 1
	}
	entries, err := nodes.CatalogEntries(reg)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow validate: node registry: %v\n", err)
		return 1
	}
	_, problems := ir.Validate(raw, ir.Options{Nodes: nodes.NewCatalog(entries...), MaxSteps: *maxSteps})
	if *asJSON {
		if problems == nil {
			problems = []ir.Problem{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(problems); err != nil {
			fmt.Fprintf(stderr, "edgeflow validate: %v\n", err)
			return 1
		}
	} else if len(problems) == 0 {
		fmt.Fprintln(stdout, "valid")
	} else {
		for _, p := range problems {
			where := p.Path
			if where == "" {
				where = "/"
			}
			if p.NodeID != "" {
				where += " (node " + p.NodeID + ")"
			}
			fmt.Fprintf(stdout, "%s: %s: %s [%s]\n", file, where, p.Message, p.Rule)
		}
	}
	if len(problems) > 0 {
		return 1
	}
	return 0
}
