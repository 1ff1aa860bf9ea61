// Command edgeflow is the edgeflow service and its command-line tools.
//
// main only wires: it picks the subcommand and hands it the process's
// arguments, streams and signal-aware context. Each subcommand lives in its
// own file of this package.
package main

import (
	"context"
	"flag"
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
		{"edge", "run the local edge on its own, shared by serve --edge-url replicas", runEdge},
		{"admin", "administration: admin bootstrap creates a user, organization, project and API key; admin reset-password sets a user's password", runAdmin},
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
		printCommands(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "-h", "--help", "-help":
		name = "help"
	case "--version", "-version":
		name = "version"
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "edgeflow: unknown command %q\n\n", name)
	printCommands(stderr)
	return 2
}

func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: edgeflow version (or edgeflow --version): the version, the commit and the Go version")
	}
	if code, ok := parseFlags(fs, args, stdout, stderr); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "edgeflow version: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return 2
	}
	fmt.Fprint(stdout, versionText())
	return 0
}

func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && !isHelp(args[0]) {
		for _, c := range commands() {
			if c.name == args[0] && c.name != "help" {
				return c.run(ctx, []string{"--help"}, stdout, stderr)
			}
		}
		fmt.Fprintf(stderr, "edgeflow help: unknown command %q\n\n", args[0])
		printCommands(stderr)
		return 2
	}
	printCommands(stdout)
	return 0
}

func printCommands(stdout io.Writer) {
	fmt.Fprintln(stdout, "edgeflow: durable workflows on the edge, from a JSON IR.")
	fmt.Fprintln(stdout, "\nUsage: edgeflow <command> [flags]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(stdout, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(stdout, "\nRun 'edgeflow <command> -h' for the flags of a command; 'edgeflow --version' for the version.")
}
