// Command apidoc writes what is generated from the route table
// (internal/api/routes.go): the endpoint reference of docs/api.md (the part
// of the file between the routes:begin and routes:end markers) and Studio's
// API types, web/src/api/schema.gen.ts, which openapi-typescript makes from
// the OpenAPI document (the npm package in ts/ beside this file; npm ci
// there). Run it from the repository root, or with `make apidoc`:
//
//	go run ./internal/api/cmd/apidoc
//
// With -check it changes nothing and exits 1 when a file is out of date.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/edgeflow/edgeflow/internal/api"
)

func main() {
	path := flag.String("file", "docs/api.md", "the API document to update")
	ts := flag.String("ts", "web/src/api/schema.gen.ts", `Studio's API types to write ("" for none)`)
	generator := flag.String("generator", "internal/api/cmd/apidoc/ts", "the npm package that generates the types")
	check := flag.Bool("check", false, "only report whether the files are up to date (exit 1 when not)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "apidoc: unexpected arguments %q\n", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	err := run(*path, *check)
	if err == nil && *ts != "" {
		err = runTypes(*ts, *generator, *check)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(path string, check bool) error {
	doc, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("apidoc: %w (run it from the repository root, or pass -file)", err)
	}
	ref, err := api.Reference()
	if err != nil {
		return err
	}
	out, err := api.ReplaceReference(doc, ref)
	if err != nil {
		return err
	}
	return update(path, doc, out, check)
}

// runTypes writes Studio's API types to path.
func runTypes(path, generator string, check bool) error {
	out, err := studioTypes(generator)
	if err != nil {
		return err
	}
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	return update(path, old, out, check)
}

// update writes out to path unless it is what the file holds (old); with
// check it only says so.
func update(path string, old, out []byte, check bool) error {
	if bytes.Equal(out, old) {
		return nil
	}
	if check {
		return fmt.Errorf("apidoc: %s is out of date with the route table; run make apidoc", path)
	}
	mode := os.FileMode(0o644)
	if info, err := os.Stat(path); err == nil {
		mode = info.Mode().Perm()
	}
	return os.WriteFile(path, out, mode)
}

// studioTypes are the TypeScript types openapi-typescript makes from the
// route table's OpenAPI document, with the generator's script in the npm
// package generator.
func studioTypes(generator string) ([]byte, error) {
	doc, err := api.OpenAPI()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "apidoc-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "openapi.json")
	if err := os.WriteFile(file, doc, 0o600); err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd := exec.Command("node", filepath.Join(generator, "generate.mjs"), file)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("apidoc: generating Studio's API types with openapi-typescript (node and `npm ci` in %s are needed; "+
			"-ts \"\" skips them): %v\n%s", generator, err, stderr.Bytes())
	}
	return out, nil
}
