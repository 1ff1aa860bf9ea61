package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// commit is the VCS revision the binary was built from, set with
// -ldflags "-X main.commit=..." (the Makefile does); when empty, the
// revision Go stamped into the build info is used, if any.
var commit = ""

// parseFlags parses args into fs the way every edgeflow command does:
// -h/--help prints the usage to stdout and ends the command with status 0;
// an unknown or malformed flag prints the error and the usage to stderr and
// ends it with status 2. ok is true when the command should go on. A
// command's fs.Usage must write to fs.Output().
func parseFlags(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	var buf bytes.Buffer
	fs.SetOutput(&buf)
	err := fs.Parse(args)
	fs.SetOutput(stderr)
	switch {
	case err == nil:
		return 0, true
	case errors.Is(err, flag.ErrHelp):
		fs.SetOutput(stdout)
		fs.Usage()
		fs.SetOutput(stderr)
		return 0, false
	}
	stderr.Write(buf.Bytes()) // the error and the usage
	return 2, false
}

// printExamples ends a command's help with its Examples: section.
func printExamples(w io.Writer, examples ...string) {
	fmt.Fprintln(w, "\nExamples:")
	for _, e := range examples {
		fmt.Fprintln(w, "  "+e)
	}
}

// isHelp reports whether arg asks for help.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help" || arg == "help"
}

// versionText is what `edgeflow version` prints: the version, the commit
// when the build knows it, and the Go version and platform.
func versionText() string {
	rev, modified := commit, false
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if rev == "" {
					rev = s.Value
				}
			case "vcs.modified":
				modified = s.Value == "true" && commit == ""
			}
		}
	}
	if rev == "" {
		rev = "unknown"
	} else if modified {
		rev += " (modified)"
	}
	return fmt.Sprintf("edgeflow %s\ncommit  %s\ngo      %s %s/%s\n", version, rev, runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
