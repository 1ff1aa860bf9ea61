// Command apidoc writes the endpoint reference of docs/api.md from the route
// table (internal/api/routes.go): it replaces the part of the file between
// the routes:begin and routes:end markers. Run it from the repository root:
//
//	go run ./internal/api/cmd/apidoc
//
// With -check it changes nothing and exits 1 when the file is out of date.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/edgeflow/edgeflow/internal/api"
)

func main() {
	path := flag.String("file", "docs/api.md", "the API document to update")
	check := flag.Bool("check", false, "only report whether the file is up to date (exit 1 when not)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "apidoc: unexpected arguments %q\n", flag.Args())
		flag.Usage()
		os.Exit(2)
	}
	if err := run(*path, *check); err != nil {
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
	if bytes.Equal(out, doc) {
		return nil
	}
	if check {
		return fmt.Errorf("apidoc: %s is out of date with the route table; run go run ./internal/api/cmd/apidoc", path)
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, info.Mode().Perm())
}
