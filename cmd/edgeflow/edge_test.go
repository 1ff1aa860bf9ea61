package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEdgeUsageErrors: edgeflow edge with an unknown flag, an extra
// argument or a bad --addr exits 2 with the usage on stderr.
func TestEdgeUsageErrors(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"edge", "--bogus"}, {"edge", "extra"}, {"edge", "--addr", "nope"}, {"edge", "--addr", "127.0.0.1:99999"},
		{"edge", "--addr", "127.0.0.1:http"},
	} {
		code, out, errOut := runCLI(args...)
		if code != 2 || out != "" || !strings.Contains(errOut, "Usage: edgeflow edge") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and the usage on stderr", args, code, out, errOut)
		}
	}
	code, out, errOut := runCLI("edge", "--log-level", "loud")
	if code != 2 || out != "" || !strings.Contains(errOut, "--log-level") {
		t.Errorf("--log-level loud: exit %d, %q %q", code, out, errOut)
	}
}

// TestServeEdgeURLErrors: a bad --edge-url, a missing or empty token, and
// flags that exclude each other exit 2 naming the flag, before anything is
// written to the data dir.
func TestServeEdgeURLErrors(t *testing.T) {
	t.Parallel()
	if os.Getenv("EDGEFLOW_EDGE_TOKEN") != "" || os.Getenv("EDGEFLOW_EDGE_URL") != "" || os.Getenv("EDGEFLOW_EDGE_TOKEN_FILE") != "" {
		t.Fatal("unset EDGEFLOW_EDGE_TOKEN, EDGEFLOW_EDGE_URL and EDGEFLOW_EDGE_TOKEN_FILE to run this test")
	}
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("a-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	emptyFile := filepath.Join(dir, "empty")
	if err := os.WriteFile(emptyFile, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--edge-url", "ftp://127.0.0.1:8787", "--edge-token-file", tokenFile}, "--edge-url must start with http:// or https://"},
		{[]string{"--edge-url", "http://127.0.0.1:8787/client/v4", "--edge-token-file", tokenFile}, "without a path"},
		{[]string{"--edge-url", "http://user:pw@127.0.0.1:8787", "--edge-token-file", tokenFile}, "must not hold a user or password"},
		{[]string{"--edge-url", "127.0.0.1:8787", "--edge-token-file", tokenFile}, "--edge-url"},
		{[]string{"--edge-url", "http://127.0.0.1:8787"}, "--edge-url needs the edge's token"},
		{[]string{"--edge-url", "http://127.0.0.1:8787", "--edge-token-file", tokenFile, "--no-edge"}, "exclude each other"},
		{[]string{"--edge-url", "http://127.0.0.1:8787", "--edge-token-file", filepath.Join(dir, "missing")}, "--edge-token-file: open"},
		{[]string{"--edge-url", "http://127.0.0.1:8787", "--edge-token-file", emptyFile}, "is empty"},
		{[]string{"--edge-token-file", tokenFile}, "--edge-token-file needs --edge-url"},
	} {
		dataDir := filepath.Join(dir, "data")
		code, out, errOut := runCLI(append([]string{"serve", "--data-dir", dataDir}, c.args...)...)
		if code != 2 || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, code, out, errOut, c.want)
		}
		if strings.Contains(errOut, "a-token") {
			t.Errorf("%v: the token is in the error: %q", c.args, errOut)
		}
		if _, err := os.Stat(dataDir); err == nil {
			t.Errorf("%v: the data dir was created", c.args)
		}
	}
}
