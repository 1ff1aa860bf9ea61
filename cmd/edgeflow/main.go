// Command edgeflow is the edgeflow service and its command-line tools.
//
// main only wires: it picks the subcommand and hands it the process's
// arguments, streams and signal-aware context. Each subcommand lives in its
// own file of this package.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// command is one subcommand of the edgeflow binary.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

// commands lists every subcommand, in the order `edgeflow help` shows them.
func commands() []command {
	return []command{
		{"version", "print the version", runVersion},
		{"serve", "run the API server (and the local edge)", runServe},
		{"admin", "administration: admin bootstrap creates a user, organization, project and API key", runAdmin},
		{"registry", "build and verify the node registry (registry build|verify)", runRegistry},
		{"compile", "compile an IR file to TypeScript and a bundled ES module (compile FILE.ir.json [--out DIR])", runCompile},
		{"validate", "validate an IR file as the server does (validate [-json] FILE.ir.json)", runValidate},
		{"help", "list the commands", runHelp},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := dispatch(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		runHelp(ctx, nil, stderr, stderr)
		return 2
	}
	name := args[0]
	if name == "-h" || name == "--help" {
		name = "help"
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "edgeflow: unknown command %q\n\n", name)
	runHelp(ctx, nil, stderr, stderr)
	return 2
}

func runVersion(_ context.Context, _ []string, stdout, _ io.Writer) int {
	fmt.Fprintf(stdout, "edgeflow %s\n", version)
	return 0
}

func runHelp(_ context.Context, _ []string, stdout, _ io.Writer) int {
	fmt.Fprintln(stdout, "edgeflow: durable workflows on the edge, from a JSON IR.")
	fmt.Fprintln(stdout, "\nUsage: edgeflow <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(stdout, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(stdout, "\nRun 'edgeflow <command> -h' for the flags of a command.")
	return 0
}
