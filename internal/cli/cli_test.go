package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// run runs the client with args in a fresh configuration directory and
// answers the exit status and both streams.
func runCLI(t *testing.T, env Env, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	env.Stdout, env.Stderr = &out, &errOut
	if env.ConfigDir == nil {
		dir := t.TempDir()
		env.ConfigDir = func() (string, error) { return dir, nil }
	}
	code := Run(context.Background(), env, args)
	return code, out.String(), errOut.String()
}

// every walks the command tree.
func every(c *command, fn func(*command)) {
	fn(c)
	for _, s := range c.subs {
		every(s, fn)
	}
}

func TestHelpOfEveryCommandHasExamples(t *testing.T) {
	root := Root()
	every(root, func(c *command) {
		if c == root {
			return
		}
		args := append(strings.Fields(c.path()), "--help")
		code, out, errOut := runCLI(t, Env{}, args...)
		if code != 0 {
			t.Errorf("%s --help: exit %d, stderr %q", c.path(), code, errOut)
		}
		if !strings.Contains(out, "Usage: edgeflow "+c.path()) || !strings.Contains(out, "\nExamples:\n  ") {
			t.Errorf("%s --help lacks the usage or an Examples: section:\n%s", c.path(), out)
		}
		// -h, and --help after the arguments, do the same.
		if code, _, _ := runCLI(t, Env{}, append(strings.Fields(c.path()), "x", "-h")...); code != 0 {
			t.Errorf("%s x -h: exit %d", c.path(), code)
		}
	})
}

func TestFlagsBeforeOrAfterArguments(t *testing.T) {
	cmd := Root().sub("runs").sub("restart")
	for _, args := range [][]string{
		{"run_1", "--from-step", "b", "--wait"},
		{"--from-step", "b", "run_1", "--wait"},
		{"--wait", "--from-step=b", "run_1"},
	} {
		pos, values, set, err := cmd.parse(args)
		if err != nil || len(pos) != 1 || pos[0] != "run_1" || values["from-step"] != "b" || !set["wait"] {
			t.Errorf("parse %q = %q %v %v %v", args, pos, values, set, err)
		}
	}
	// A value flag before the subcommand's name is found too.
	root := Root()
	cmd2, rest := root.find([]string{"runs", "--limit", "5", "ls", "--json"})
	if cmd2.path() != "runs ls" || strings.Join(rest, " ") != "--limit 5 --json" {
		t.Errorf("find = %s %q", cmd2.path(), rest)
	}
	// "--" ends the flags.
	pos, _, _, err := Root().sub("push").parse([]string{"--", "-odd.ir.json"})
	if err != nil || len(pos) != 1 || pos[0] != "-odd.ir.json" {
		t.Errorf("-- : %q %v", pos, err)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"nonsense"},
		{"workflows"},
		{"workflows", "frobnicate"},
		{"workflows", "ls", "--no-such-flag"},
		{"workflows", "show"},
		{"workflows", "show", "a", "b"},
		{"versions", "diff", "w", "1"},
		{"deploy", "w"},
		{"deploy", "w", "--connection"},
		{"trigger", "w", "--params", "{not json"},
		{"send-event", "run_1"},
		{"completion", "powershell"},
		{"login"},
		{"login", "--url", "ftp://x", "--api-key", "k"},
		{"login", "--url", "http://127.0.0.1:1", "--api-key", "k", "--email", "a@b.c"},
		{"runs", "ls", "--limit", "-3"},
		{"workflows", "ls", "--json=yes"},
	} {
		code, _, errOut := runCLI(t, Env{}, args...)
		if code != ExitUsage {
			t.Errorf("%q: exit %d, want 2 (stderr %q)", args, code, errOut)
		}
		if errOut == "" {
			t.Errorf("%q: nothing said on stderr", args)
		}
	}
}

func TestNotLoggedInFails(t *testing.T) {
	code, _, errOut := runCLI(t, Env{}, "workflows", "ls")
	if code != ExitFailed || !strings.Contains(errOut, "not logged in") {
		t.Errorf("exit %d, %q", code, errOut)
	}
}

func TestNormalizeURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://127.0.0.1:8080":                  "http://127.0.0.1:8080",
		"http://127.0.0.1:8080/":                 "http://127.0.0.1:8080",
		"http://127.0.0.1:8080/api":              "http://127.0.0.1:8080",
		"http://127.0.0.1:8080/api/":             "http://127.0.0.1:8080",
		"https://flows.example.com/edgeflow/api": "https://flows.example.com/edgeflow",
	} {
		got, err := normalizeURL(in)
		if err != nil || got != want {
			t.Errorf("normalizeURL(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "127.0.0.1:8080", "ftp://x", "http://", "http://u:p@h/", "http://h/?q=1"} {
		if _, err := normalizeURL(bad); err == nil {
			t.Errorf("normalizeURL(%q) accepted", bad)
		}
	}
}

func TestCredentialsFileIsPrivate(t *testing.T) {
	dir := t.TempDir()
	env := Env{ConfigDir: func() (string, error) { return dir, nil }}.withDefaults()
	path, err := env.saveCredentials(credentials{URL: "http://h", APIKey: "ef_secret"})
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "edgeflow", "credentials.json") {
		t.Errorf("path %s", path)
	}
	st, _ := os.Stat(path)
	dst, _ := os.Stat(filepath.Dir(path))
	if st.Mode().Perm() != 0o600 || dst.Mode().Perm() != 0o700 {
		t.Errorf("modes %v %v", st.Mode().Perm(), dst.Mode().Perm())
	}
	c, ok, err := env.loadCredentials()
	if err != nil || !ok || c.APIKey != "ef_secret" {
		t.Errorf("load = %+v %v %v", c, ok, err)
	}
	if ok, err := env.deleteCredentials(); !ok || err != nil {
		t.Errorf("delete = %v %v", ok, err)
	}
	if _, ok, _ := env.loadCredentials(); ok {
		t.Error("still there after delete")
	}
}

func TestEnvironmentOverridesStoredLogin(t *testing.T) {
	dir := t.TempDir()
	env := Env{ConfigDir: func() (string, error) { return dir, nil }}.withDefaults()
	env.saveCredentials(credentials{URL: "http://stored:1", APIKey: "stored-key", ProjectID: "prj_stored"})
	vars := map[string]string{"EDGEFLOW_URL": "http://ci:2/api", "EDGEFLOW_API_KEY": "ci-key"}
	env.Getenv = func(k string) string { return vars[k] }
	cl, err := (&call{env: env}).client()
	if err != nil {
		t.Fatal(err)
	}
	if cl.base != "http://ci:2" || cl.apiKey != "ci-key" || cl.project != "" {
		t.Errorf("client = %+v", cl)
	}
	vars["EDGEFLOW_PROJECT"] = "prj_ci"
	cl, _ = (&call{env: env}).client()
	if cl.project != "prj_ci" {
		t.Errorf("EDGEFLOW_PROJECT not used: %+v", cl)
	}
}

func TestCanonicalIRIsStable(t *testing.T) {
	a := []byte(`{"nodes":[{"id":"a","data":{"z":1,"a":"<b>"}}],"metadata":{"name":"n","version":3,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"x"},"edges":[]}`)
	b := []byte(`{"edges":[],"metadata":{"updatedAt":"y","name":"n","version":4},"nodes":[{"data":{"a":"<b>","z":1},"id":"a"}]}`)
	ca, err := canonicalIR(a)
	if err != nil {
		t.Fatal(err)
	}
	cb, _ := canonicalIR(b)
	if !bytes.Equal(ca, cb) {
		t.Errorf("not equal:\n%s\n%s", ca, cb)
	}
	want := "{\n  \"edges\": [],\n  \"metadata\": {\n    \"name\": \"n\"\n  },\n  \"nodes\": [\n    {\n      \"data\": {\n        \"a\": \"<b>\",\n        \"z\": 1\n      },\n      \"id\": \"a\"\n    }\n  ]\n}\n"
	if string(ca) != want {
		t.Errorf("canonical form:\n%s", ca)
	}
	if _, err := canonicalIR([]byte(`[1]`)); err == nil {
		t.Error("an array accepted as IR")
	}
	if _, err := canonicalIR([]byte(`{} {}`)); err == nil {
		t.Error("two values accepted")
	}
}

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
	b := "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\n"
	got := unifiedDiff("A", "B", []byte(a), []byte(b))
	want := "--- A\n+++ B\n@@ -1,6 +1,6 @@\n a\n b\n-c\n+C\n d\n e\n f\n@@ -8,3 +8,4 @@\n h\n i\n j\n+k\n"
	if got != want {
		t.Errorf("diff:\n%s\nwant:\n%s", got, want)
	}
	if d := unifiedDiff("A", "B", []byte(a), []byte(a)); d != "" {
		t.Errorf("equal texts differ: %q", d)
	}
	if d := unifiedDiff("A", "B", nil, []byte("x\n")); d != "--- A\n+++ B\n@@ -0,0 +1 @@\n+x\n" {
		t.Errorf("from empty: %q", d)
	}
	// The edits applied to a give b, on random-ish inputs.
	for n := 0; n < 50; n++ {
		var la, lb []string
		for i := 0; i < 30; i++ {
			if (i*7+n)%5 != 0 {
				la = append(la, string(rune('a'+(i*3+n)%7)))
			}
			if (i*11+n)%4 != 0 {
				lb = append(lb, string(rune('a'+(i*5+n)%7)))
			}
		}
		var out []string
		pos := 0
		for _, e := range diffLines(la, lb) {
			out = append(out, la[pos:e.ai]...)
			out = append(out, lb[e.bi:e.biEnd()]...)
			pos = e.aiEnd()
		}
		out = append(out, la[pos:]...)
		if strings.Join(out, ",") != strings.Join(lb, ",") {
			t.Fatalf("case %d: edits do not turn a into b", n)
		}
	}
}

func TestCompletionScripts(t *testing.T) {
	SetServerCommands([]string{"serve", "admin"})
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, out, errOut := runCLI(t, Env{}, "completion", shell)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", shell, code, errOut)
		}
		for _, word := range []string{"workflows", "versions", "serve", "from-step"} {
			if !strings.Contains(out, word) {
				t.Errorf("%s completion lacks %q", shell, word)
			}
		}
	}
	if _, err := os.Stat("/bin/bash"); err == nil {
		_, out, _ := runCLI(t, Env{}, "completion", "bash")
		script := out + "\nCOMP_WORDS=(edgeflow versions l); COMP_CWORD=2; _edgeflow; echo \"${COMPREPLY[@]}\"\n"
		res, err := execBash(script)
		if err != nil || strings.TrimSpace(res) != "lock ls" {
			t.Errorf("bash completion of 'versions l' = %q, %v", res, err)
		}
	}
}

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{"orders": "orders", "Order fulfilment": "Order-fulfilment", "a/b": "a-b", "..": "workflow", "é": "-"} {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReadSSE(t *testing.T) {
	in := ": comment\nevent: progress\nid: 0\ndata: {\"a\":1}\n\nevent: result\ndata: line1\ndata: line2\n\n"
	var got []string
	err := readSSE(strings.NewReader(in), func(ev string, data []byte) error {
		got = append(got, ev+"="+string(data))
		return nil
	})
	if err != nil || strings.Join(got, "|") != "progress={\"a\":1}|result=line1\nline2" {
		t.Errorf("readSSE = %q %v", got, err)
	}
}

func execBash(script string) (string, error) {
	out, err := exec.Command("/bin/bash", "-c", script).Output()
	return string(out), err
}
