package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut strings.Builder
	code = dispatch(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestCLIHelp: -h and --help on every command and subcommand print the
// usage to stdout and exit 0.
func TestCLIHelp(t *testing.T) {
	t.Parallel()
	cases := [][]string{{"-h"}, {"--help"}, {"help"}, {"help", "serve"}, {"help", "--help"},
		{"admin", "bootstrap", "-h"}, {"admin", "bootstrap", "--help"}, {"admin", "help"}, {"admin", "reset-password", "--help"},
		{"registry", "build", "-h"}, {"registry", "verify", "--help"}, {"registry", "help"},
		{"compile", "x.ir.json", "--help"}}
	for _, c := range commands() {
		cases = append(cases, []string{c.name, "-h"}, []string{c.name, "--help"})
	}
	for _, args := range cases {
		code, out, errOut := runCLI(args...)
		if code != 0 || !strings.Contains(out, "Usage") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 0 and the usage on stdout", args, code, out, errOut)
		}
	}
}

// TestCLIUsageErrors: an unknown command, subcommand or flag, or a missing
// or extra argument, exits 2 with the usage on stderr and nothing on stdout.
func TestCLIUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{}, {"bogus"}, {"--bogus"}, {"help", "bogus"},
		{"version", "--bogus"}, {"version", "extra"},
		{"serve", "--bogus"}, {"serve", "extra"},
		{"admin"}, {"admin", "nope"}, {"admin", "bootstrap", "--bogus"}, {"admin", "bootstrap", "--email", "a@example.com"},
		{"admin", "reset-password", "--bogus"}, {"admin", "reset-password", "--email", "a@example.com"},
		{"registry"}, {"registry", "nope"}, {"registry", "nope", "-h"}, {"registry", "build", "--bogus"},
		{"compile"}, {"compile", "--bogus"}, {"validate"}, {"validate", "--bogus", "x.ir.json"},
	} {
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(strings.ToLower(errOut), "usage") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", args, code, out, errOut)
		}
	}
}

// TestCLIVersion: --version and version print the version, the commit and
// the Go version.
func TestCLIVersion(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, out, errOut := runCLI(args...)
		if code != 0 || errOut != "" || !strings.HasPrefix(out, "edgeflow "+version+"\n") ||
			!strings.Contains(out, "\ncommit  ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%v: exit %d, %q %q", args, code, out, errOut)
		}
	}
}

// TestCLIVersionOfBuiltBinary builds the binary as the Makefile does
// (version and commit by -ldflags) and runs --version.
func TestCLIVersionOfBuiltBinary(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "edgeflow")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-X main.version=v9.8.7 -X main.commit=0123abcd", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "--version").Output()
	if err != nil || !strings.Contains(string(out), "edgeflow v9.8.7\ncommit  0123abcd\ngo      "+runtime.Version()) {
		t.Fatalf("--version: %v %q", err, out)
	}
	cmd := exec.Command(bin, "--nope")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "Usage") {
		t.Fatalf("--nope: %v, stderr %q", err, stderr.String())
	}
}

// TestBootstrapRefusesInvalidEmail: admin bootstrap refuses an address
// sign-up would refuse, before it opens (or creates) the database.
func TestBootstrapRefusesInvalidEmail(t *testing.T) {
	t.Parallel()
	for _, email := range []string{"not-an-email", "Bob <bob@example.com>", "bob@", "@example.com", "bob@example.com extra"} {
		dir := t.TempDir()
		code, out, errOut := runCLI("admin", "bootstrap", "--data-dir", dir, "--email", email, "--password", "password-1")
		if code != 2 || out != "" || !strings.Contains(errOut, "not a valid email address") {
			t.Errorf("%q: exit %d, %q %q", email, code, out, errOut)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Errorf("%q: the data dir was written: %v", email, entries)
		}
	}
}
