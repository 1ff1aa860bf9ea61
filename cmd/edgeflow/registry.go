package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/edgeflow/edgeflow/internal/netguard"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
)

// runRegistry is `edgeflow registry build|verify`: the tools of registry
// authors (docs/registry.md).
func runRegistry(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func(w io.Writer) {
		fmt.Fprintln(w, `Usage:
  edgeflow registry build  [-dir registry]   check every node and write index.json with checksums
  edgeflow registry verify [-dir registry]   check the nodes and that index.json matches them
  edgeflow registry verify -url URL          fetch a remote registry and verify every version`)
		printExamples(w, "edgeflow registry build --dir registry", "edgeflow registry verify --url https://registry.example.com")
	}
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if isHelp(args[0]) {
		usage(stdout)
		return 0
	}
	sub := args[0]
	if sub != "build" && sub != "verify" {
		fmt.Fprintf(stderr, "edgeflow registry: unknown subcommand %q\n", sub)
		usage(stderr)
		return 2
	}
	fs := flag.NewFlagSet("registry "+sub, flag.ContinueOnError)
	dir := fs.String("dir", "registry", "the registry directory (holding index.json and nodes/)")
	remoteURL := fs.String("url", "", "verify: the base URL of a remote registry instead of -dir")
	fs.Usage = func() {
		usage(fs.Output())
		fs.PrintDefaults()
	}
	if code, ok := parseFlags(fs, args[1:], stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "edgeflow registry %s: unexpected argument %q\n", sub, fs.Arg(0))
		fs.Usage()
		return 2
	}
	switch sub {
	case "build":
		if *remoteURL != "" {
			fmt.Fprintln(stderr, "edgeflow registry build: -url applies to verify only")
			return 2
		}
		return registryBuild(*dir, stdout, stderr)
	case "verify":
		if *remoteURL != "" {
			return registryVerifyRemote(ctx, *remoteURL, stdout, stderr)
		}
		return registryVerify(*dir, stdout, stderr)
	}
	return 2 // not reached: sub was checked above
}

func registryBuild(dir string, stdout, stderr io.Writer) int {
	idx, err := registry.Build(os.DirFS(dir))
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow registry build: %v\n", err)
		return 1
	}
	data, err := registry.MarshalIndex(idx)
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow registry build: %v\n", err)
		return 1
	}
	path := filepath.Join(dir, registry.IndexFile)
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stderr, "edgeflow registry build: %v\n", err)
		return 1
	}
	state := "unchanged"
	if !bytes.Equal(old, data) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			fmt.Fprintf(stderr, "edgeflow registry build: %v\n", err)
			return 1
		}
		state = "written"
	}
	fmt.Fprintf(stdout, "%s: %d nodes, %d versions (%s)\n", path, len(idx.Nodes), countVersions(idx.Nodes), state)
	return 0
}

func registryVerify(dir string, stdout, stderr io.Writer) int {
	c, err := registry.Load(os.DirFS(dir))
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow registry verify: %v\n", err)
		return 1
	}
	nodes := c.Nodes()
	fmt.Fprintf(stdout, "%s: %d nodes, %d versions, checksums verified\n", dir, len(nodes), countVersions(nodes))
	return 0
}

func registryVerifyRemote(ctx context.Context, u string, stdout, stderr io.Writer) int {
	// as serve does: a private or loopback registry host must be on EDGEFLOW_ALLOW_HOSTS
	allow, err := netguard.ParseAllowList(os.Getenv("EDGEFLOW_ALLOW_HOSTS"))
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow registry verify: EDGEFLOW_ALLOW_HOSTS: %v\n", err)
		return 2
	}
	r, err := registry.New(registry.Options{RemoteURL: u, HTTPClient: netguard.New(allow).Client(registry.DefaultFetchTimeout)})
	if err != nil {
		fmt.Fprintf(stderr, "edgeflow registry verify: %v\n", err)
		return 1
	}
	if err := r.Refresh(ctx); err != nil {
		fmt.Fprintf(stderr, "edgeflow registry verify: %s: %v\n", u, err)
		return 1
	}
	st, _ := r.Status()
	fmt.Fprintf(stdout, "%s: %d nodes, %d versions, checksums verified\n", u, st.Nodes, st.Versions)
	return 0
}

func countVersions(nodes []registry.Node) int {
	n := 0
	for _, x := range nodes {
		n += len(x.Versions)
	}
	return n
}
