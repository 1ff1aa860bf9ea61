package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/sqlite"
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
		{"admin", "setup-link", "-h"},
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

// TestBootstrapNameRules: admin bootstrap checks --org and --project with the rules the API checks names with
// (edgeflow.NameProblem), so it cannot create an organization or project the API would refuse; names the API
// accepts are taken as they are.
func TestBootstrapNameRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		org, project string
		code         int
		stderr       string
	}{
		{"Acme", strings.Repeat("p", 201), 1, "--project: name must be at most 200 characters"},
		{"Acme\u202Eexe", "Default", 1, "--org: name must not contain control characters (found U+202E)"},
		{"Acme", "line\nbreak", 1, "--project: name must not contain control characters (found U+000A)"},
		{"Écritures comptables", strings.Repeat("p", 200), 0, ""},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		code, _, errOut := runCLI("admin", "bootstrap", "--data-dir", dir, "--email", "ci@example.com", "--password", "password-1",
			"--org", tc.org, "--project", tc.project)
		if code != tc.code || !strings.Contains(errOut, tc.stderr) {
			t.Errorf("--org %q --project %q: exit %d, stderr %q; want exit %d with %q", tc.org, tc.project, code, errOut, tc.code, tc.stderr)
		}
	}
}

// TestAdminSetupLink: setup-link prints a fresh link while no user exists
// and refuses once one does; bootstrap --scopes sets its key's scopes.
func TestAdminSetupLink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, out, errOut := runCLI("admin", "setup-link", "--data-dir", dir, "--url", "https://edgeflow.example.com/")
	if code != 0 || !strings.HasPrefix(out, "https://edgeflow.example.com/setup?token=setup_") {
		t.Fatalf("setup-link: exit %d, %q %q", code, out, errOut)
	}
	_, again, _ := runCLI("admin", "setup-link", "--data-dir", dir, "--url", "https://edgeflow.example.com")
	if again == out {
		t.Fatal("setup-link printed the same link twice")
	}
	if code, _, errOut := runCLI("admin", "setup-link", "--data-dir", dir, "--url", "ftp://x"); code != 2 || !strings.Contains(errOut, "--url") {
		t.Fatalf("bad --url: exit %d %q", code, errOut)
	}
	if code, _, errOut := runCLI("admin", "bootstrap", "--data-dir", dir, "--email", "ci@example.com", "--password", "password-1",
		"--scopes", "write"); code != 2 || !strings.Contains(errOut, "--scopes") {
		t.Fatalf("bootstrap --scopes write: exit %d %q", code, errOut)
	}
	code, out, errOut = runCLI("admin", "bootstrap", "--data-dir", dir, "--email", "ci@example.com", "--password", "password-1",
		"--scopes", "read,deploy", "--json")
	if code != 0 {
		t.Fatalf("bootstrap: exit %d %q", code, errOut)
	}
	var res struct{ APIKey, OrganizationID string }
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(dir, "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	k, err := st.FindAPIKeyByHash(ctx, auth.HashToken(res.APIKey))
	st.Close()
	if err != nil || fmt.Sprint(k.Scopes) != "[read deploy]" {
		t.Fatalf("bootstrap key scopes: %v %v", k, err)
	}
	code, out, errOut = runCLI("admin", "setup-link", "--data-dir", dir)
	if code != 1 || out != "" || !strings.Contains(errOut, "users exist already") {
		t.Fatalf("setup-link with a user: exit %d, %q %q", code, out, errOut)
	}
}
