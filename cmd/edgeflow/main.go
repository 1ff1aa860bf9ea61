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

	"github.com/edgeflow/edgeflow/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// command is one subcommand of the edgeflow binary.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
	// client marks the commands that talk to a running server through its
	// API (internal/cli).
	client bool
}

// commands lists every subcommand, in the order `edgeflow help` shows them.
func commands() []command {
	list := []command{
		{name: "version", summary: "print the version", run: runVersion},
		{name: "serve", summary: "run the API server (and the local edge)", run: runServe},
		{name: "edge", summary: "run the local edge on its own, shared by serve --edge-url replicas", run: runEdge},
		{name: "admin", summary: "administration: admin bootstrap creates a user, organization, project and API key; admin setup-link prints the first user's sign-up link; admin reset-password sets a user's password", run: runAdmin},
		{name: "registry", summary: "build and verify the node registry (registry build|verify)", run: runRegistry},
		{name: "compile", summary: "compile an IR file to TypeScript and a bundled ES module (compile FILE.ir.json [--out DIR])", run: runCompile},
		{name: "validate", summary: "validate an IR file as the server does (validate [-json] FILE.ir.json)", run: runValidate},
		{name: "help", summary: "list the commands", run: runHelp},
	}
	for _, c := range cli.Commands() {
		list = append(list, command{name: c.Name, summary: c.Summary, run: clientCommand(c.Name), client: true})
	}
	return list
}

// clientCommand runs the client command name with the process's
// environment and the given streams.
func clientCommand(name string) func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		var others []string
		for _, c := range commands() {
			if !c.client {
				others = append(others, c.name)
			}
		}
		cli.SetServerCommands(others)
		env := cli.ProcessEnv()
		env.Stdout, env.Stderr, env.Version, env.ServeMCP = stdout, stderr, version, serveMCP
		if stdout != io.Writer(os.Stdout) {
			env.Terminal = false
		}
		return cli.Run(ctx, env, append([]string{name}, args...))
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
		printExamples(fs.Output(), "edgeflow version", "edgeflow --version")
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
		if !c.client {
			fmt.Fprintf(stdout, "  %-12s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(stdout, "\nClient commands (they talk to a running server; start with edgeflow login):")
	for _, c := range commands() {
		if c.client {
			fmt.Fprintf(stdout, "  %-12s %s\n", c.name, c.summary)
		}
	}
	fmt.Fprintln(stdout, "\nRun 'edgeflow <command> -h' for the flags of a command; 'edgeflow --version' for the version.")
	printExamples(stdout, "edgeflow serve", "edgeflow login --url http://127.0.0.1:8080 --api-key-stdin < key.txt", "edgeflow help deploy")
}
