// Package cli is the edgeflow command-line client: the commands of the
// edgeflow binary that talk to a running server through its public API
// (login, workflows, versions, runs, pull, push, deploy, trigger, test, …).
//
// A command is a tree node (command.go) with its flags, arguments, help text
// and examples; Run parses the arguments (flags may come before or after
// them), runs the command and turns its error into the exit status:
//
//	0 ok, 1 failed, 2 bad usage, 3 not found.
//
// The package never prints secrets: an API key or password is read from a
// flag or standard input and written only to the credentials file (0600).
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// Exit statuses.
const (
	ExitOK       = 0
	ExitFailed   = 1
	ExitUsage    = 2
	ExitNotFound = 3
)

// Env is what a command may use of the process: its streams, environment
// and configuration directory. Tests give their own.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Getenv reads an environment variable (EDGEFLOW_URL, EDGEFLOW_API_KEY,
	// NO_COLOR).
	Getenv func(string) string
	// ConfigDir is the user's configuration directory (os.UserConfigDir);
	// the credentials live in ConfigDir/edgeflow/credentials.json.
	ConfigDir func() (string, error)
	// Terminal reports whether Stdout is a terminal: progress bars are
	// redrawn in place and colours used only then (and never with NO_COLOR).
	Terminal bool
	// HTTP is the client for API calls (nil: one with sensible timeouts).
	HTTP *http.Client
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Poll is the interval between two reads of a run that is being waited
	// for or watched (0: one second).
	Poll time.Duration
	// Version is edgeflow's version (the MCP server names itself with it).
	Version string
	// ServeMCP serves MCP for `edgeflow mcp` (nil: the command says this
	// build has none). The server lives outside this package, which imports
	// none of the server's (cmd/edgeflow wires it).
	ServeMCP func(context.Context, MCPStdio) error
}

// ProcessEnv is the Env of the running process.
func ProcessEnv() Env {
	return Env{
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
		Getenv:    os.Getenv,
		ConfigDir: os.UserConfigDir,
		Terminal:  isTerminal(os.Stdout),
	}
}

// isTerminal reports whether f is a character device (a terminal), not a
// pipe or a file.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// exitError ends a command with a status and a message for standard error.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageError is a bad invocation (status 2); the command's usage line is
// printed after it.
func usageError(format string, args ...any) error {
	return &exitError{code: ExitUsage, msg: fmt.Sprintf(format, args...)}
}

// failed is a failure of the requested operation (status 1).
func failed(format string, args ...any) error {
	return &exitError{code: ExitFailed, msg: fmt.Sprintf(format, args...)}
}

// notFound is a named thing that does not exist (status 3).
func notFound(format string, args ...any) error {
	return &exitError{code: ExitNotFound, msg: fmt.Sprintf(format, args...)}
}

// quietFailure ends a command with status 1 after it printed what failed
// itself (a test's step table, an errored run's error).
var quietFailure = &exitError{code: ExitFailed}

// Run runs the client command args[0] with the rest of args and returns the
// exit status.
func Run(ctx context.Context, env Env, args []string) int {
	env = env.withDefaults()
	if len(args) == 0 {
		fmt.Fprintln(env.Stderr, "edgeflow: a command is required")
		return ExitUsage
	}
	root := Root()
	cmd, rest := root.find(args)
	if cmd == root {
		fmt.Fprintf(env.Stderr, "edgeflow: unknown command %q\n", args[0])
		return ExitUsage
	}
	return cmd.execute(ctx, env, rest)
}

func (e Env) withDefaults() Env {
	if e.Stdin == nil {
		e.Stdin = strings.NewReader("")
	}
	if e.Stdout == nil {
		e.Stdout = io.Discard
	}
	if e.Stderr == nil {
		e.Stderr = io.Discard
	}
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	if e.ConfigDir == nil {
		e.ConfigDir = os.UserConfigDir
	}
	if e.HTTP == nil {
		e.HTTP = &http.Client{Timeout: 0}
	}
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.Poll <= 0 {
		e.Poll = time.Second
	}
	return e
}

// color reports whether output may carry ANSI colours.
func (e Env) color() bool { return e.Terminal && e.Getenv("NO_COLOR") == "" }

// statusOf maps a command's error to its exit status, printing the message.
func statusOf(err error, cmd *command, env Env) int {
	if err == nil {
		return ExitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.msg != "" {
			fmt.Fprintf(env.Stderr, "edgeflow %s: %s\n", cmd.path(), ee.msg)
		}
		if ee.code == ExitUsage {
			fmt.Fprintf(env.Stderr, "Usage: edgeflow %s\nRun 'edgeflow %s --help' for more.\n", cmd.usageLine(), cmd.path())
		}
		return ee.code
	}
	var ae *APIError
	if errors.As(err, &ae) {
		fmt.Fprintf(env.Stderr, "edgeflow %s: %s\n", cmd.path(), ae.Describe())
		if ae.Status == http.StatusNotFound {
			return ExitNotFound
		}
		return ExitFailed
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintf(env.Stderr, "edgeflow %s: interrupted\n", cmd.path())
		return ExitFailed
	}
	fmt.Fprintf(env.Stderr, "edgeflow %s: %v\n", cmd.path(), err)
	return ExitFailed
}
