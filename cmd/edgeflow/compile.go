package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/edgeflow/edgeflow/internal/bundle"
	"github.com/edgeflow/edgeflow/internal/codegen"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	noderegistry "github.com/edgeflow/edgeflow/internal/nodes/registry"
	embedded "github.com/edgeflow/edgeflow/registry"
)

// runCompile implements `edgeflow compile FILE.ir.json [--out DIR]`: it
// validates the IR, compiles it to TypeScript and bundles it, writing
// DIR/src/<files> and DIR/index.js. Marketplace nodes come from the embedded
// registry. Exit status 1 on invalid input, 2 on bad usage.
func runCompile(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	out := fs.String("out", "", "directory to write src/*.ts and index.js into (default: next to FILE, named after it)")
	id := fs.String("id", "", "workflow id that names the script, Workflow and class (default: from the file name)")
	minify := fs.Bool("minify", false, "minify the bundle")
	cache := fs.String("cache", "", "npm dependency cache directory (default: the user cache dir)")
	var envVars, secrets, deps stringList
	fs.Var(&envVars, "env", "NAME of a plain environment variable the code reads (repeatable)")
	fs.Var(&secrets, "secret", "NAME of a secret the code reads (repeatable)")
	fs.Var(&deps, "dep", "npm dependency NAME@RANGE to import and bundle (repeatable)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: edgeflow compile FILE.ir.json [--out DIR] [--id ID] [--env NAME] [--secret NAME] [--dep PKG@RANGE] [--minify]")
		fs.PrintDefaults()
		printExamples(fs.Output(), "edgeflow compile examples/hello.json --out build/", "edgeflow compile orders.ir.json --env API_URL --secret API_TOKEN --dep zod@^3 --minify")
	}
	// Accept the file before or after the flags.
	var file string
	rest := args
	if len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		file, rest = rest[0], rest[1:]
	}
	if code, ok := parseFlags(fs, rest, stdout, stderr); !ok {
		return code
	}
	if file == "" && fs.NArg() == 1 {
		file = fs.Arg(0)
	} else if fs.NArg() != 0 || file == "" {
		fs.Usage()
		return 2
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow compile: %v\n", err)
		return 1
	}
	base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), ".json"), ".ir")
	if *id == "" {
		*id = base
	}
	if *out == "" {
		*out = filepath.Join(filepath.Dir(file), base+".out")
	}

	catalog, err := noderegistry.Load(embedded.FS())
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow compile: node registry: %v\n", err)
		return 1
	}
	// Marketplace nodes the IR names, at the versions it pins.
	var probe struct {
		Nodes []struct {
			Type    string `json:"type"`
			Version string `json:"version"`
		} `json:"nodes"`
	}
	_ = json.Unmarshal(raw, &probe)
	var entries []nodes.Entry
	var templates []codegen.NodeTemplate
	seen := map[string]bool{}
	for _, n := range probe.Nodes {
		key := n.Type + "@" + n.Version
		if ir.IsBuiltinType(n.Type) || seen[key] {
			continue
		}
		seen[key] = true
		b, err := catalog.Bundle(n.Type, n.Version)
		if err != nil {
			continue // the validator reports the unknown type or version
		}
		entries = append(entries, nodes.EntryFromBundle(b))
		def := b.Definition
		templates = append(templates, codegen.NodeTemplate{Type: n.Type, Version: n.Version, Source: b.Template, Definition: &def})
	}

	a, graph, problems := ir.ValidateGraph(raw, ir.Options{Nodes: nodes.NewCatalog(entries...)})
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "edgeflow compile: %s is not a valid IR (%d problems):\n", file, len(problems))
		for _, p := range problems {
			where := p.Path
			if p.NodeID != "" {
				where += " (node " + p.NodeID + ")"
			}
			fmt.Fprintf(stderr, "  %s: %s [%s]\n", where, p.Message, p.Rule)
		}
		return 1
	}
	opts := codegen.Options{WorkflowID: *id, DisplayName: a.Metadata.Name, Version: a.Metadata.Version, Templates: templates, Graph: graph}
	for _, n := range envVars {
		opts.EnvVars = append(opts.EnvVars, codegen.EnvVar{Name: n})
	}
	for _, n := range secrets {
		opts.EnvVars = append(opts.EnvVars, codegen.EnvVar{Name: n, Secret: true})
	}
	for _, d := range deps {
		i := strings.LastIndex(d, "@")
		if i <= 0 {
			fmt.Fprintf(stderr, "edgeflow compile: --dep %q: want NAME@RANGE\n", d)
			return 2
		}
		if opts.Dependencies == nil {
			opts.Dependencies = map[string]string{}
		}
		opts.Dependencies[d[:i]] = d[i+1:]
	}
	gen, err := codegen.Generate(a, opts)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow compile: %v\n", err)
		return 1
	}
	if *cache == "" {
		if dir, err := os.UserCacheDir(); err == nil {
			*cache = filepath.Join(dir, "edgeflow")
		}
	}
	// The TypeScript above is the readable, ejectable form; the bundle is
	// built from the same generator's JavaScript output, as deploy does.
	jsOpts := opts
	jsOpts.JavaScript = true
	js, err := codegen.Generate(a, jsOpts)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow compile: %v\n", err)
		return 1
	}
	b, err := bundle.Bundle(ctx, bundle.Input{Files: js.Files, Entry: js.MainModule, Regions: js.Regions, Dependencies: js.Dependencies, CacheDir: *cache, Minify: *minify})
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow compile: %v\n", err)
		return 1
	}
	for name, src := range gen.Files {
		if err := writeFile(filepath.Join(*out, "src", filepath.FromSlash(name)), []byte(src)); err != nil {
			fmt.Fprintf(stderr, "edgeflow compile: %v\n", err)
			return 1
		}
	}
	if err := writeFile(filepath.Join(*out, "index.js"), b.Code); err != nil {
		fmt.Fprintf(stderr, "edgeflow compile: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: script %s", file, gen.ScriptName)
	if gen.ClassName != "" {
		fmt.Fprintf(stdout, ", workflow %s, class %s", gen.WorkflowName, gen.ClassName)
	}
	fmt.Fprintf(stdout, "\nwrote %s (TypeScript) and %s (%d bytes)\n", filepath.Join(*out, "src"), filepath.Join(*out, "index.js"), len(b.Code))
	return 0
}

func writeFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// stringList is a repeatable string flag.
type stringList []string

// String joins the values with commas.
func (s *stringList) String() string { return strings.Join(*s, ",") }

// Set adds one value.
func (s *stringList) Set(v string) error {
	*s = append(*s, v)
	return nil
}
