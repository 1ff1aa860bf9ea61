package e2e_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// cliUser runs the built edgeflow binary as one user of a machine: its own
// configuration directory, a working directory for pulled files, and none
// of the caller's EDGEFLOW_* settings.
type cliUser struct {
	t    *testing.T
	bin  string
	home string
	dir  string
	env  []string
}

func newCLIUser(t *testing.T) *cliUser {
	home := t.TempDir()
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + os.Getenv("PATH")}
	return &cliUser{t: t, bin: buildEdgeflow(t), home: home, dir: t.TempDir(), env: env}
}

// run runs `edgeflow args…` with stdin and answers the exit status and the
// two streams. Output that is not a terminal carries no escape codes, ever.
func (u *cliUser) run(stdin string, extraEnv []string, args ...string) (int, string, string) {
	u.t.Helper()
	cmd := exec.Command(u.bin, args...)
	cmd.Dir = u.dir
	cmd.Env = append(append([]string{}, u.env...), extraEnv...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		u.t.Fatalf("edgeflow %v: %v", args, err)
	}
	if strings.ContainsAny(out.String(), "\x1b\r") {
		u.t.Errorf("edgeflow %v: escape codes or carriage returns on a pipe: %q", args, out.String())
	}
	return code, out.String(), errOut.String()
}

// must runs a command that has to exit with want.
func (u *cliUser) must(want int, args ...string) string {
	u.t.Helper()
	code, out, errOut := u.run("", nil, args...)
	if code != want {
		u.t.Fatalf("edgeflow %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, want, out, errOut)
	}
	return out
}

func (u *cliUser) read(rel string) []byte {
	u.t.Helper()
	b, err := os.ReadFile(filepath.Join(u.dir, rel))
	if err != nil {
		u.t.Fatal(err)
	}
	return b
}

func (u *cliUser) write(rel string, b []byte) {
	u.t.Helper()
	if err := os.WriteFile(filepath.Join(u.dir, rel), b, 0o644); err != nil {
		u.t.Fatal(err)
	}
}

// versionCount is how many versions a workflow has, read through the API.
func versionCount(s *server, workflowID string) int {
	var page struct {
		Data []any `json:"data"`
	}
	s.must(200, "GET", "/api/workflows/"+workflowID+"/versions", nil).into(&page)
	return len(page.Data)
}

// TestCLI drives the client commands of the built binary against a server
// with the local edge, as a developer keeping workflows in Git would: log
// in, pull, edit a file, push (only that workflow gets a version), deploy,
// trigger and wait, test before deploying, follow runs, and the exit status
// of each kind of outcome.
func TestCLI(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)

	// Login: a wrong key is refused (1); the right one is stored privately.
	if code, _, errOut := u.run("ask_wrong-key-0000000000000000000000000\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 1 || !strings.Contains(errOut, "rejected") {
		t.Fatalf("wrong key: exit %d %s", code, errOut)
	}
	if code, out, errOut := u.run(s.key+"\n", nil, "login", "--url", s.url+"/api", "--api-key-stdin"); code != 0 || !strings.Contains(out, "e2e@example.com") {
		t.Fatalf("login: exit %d\n%s%s", code, out, errOut)
	}
	cred := filepath.Join(u.home, ".config", "edgeflow", "credentials.json")
	if st, err := os.Stat(cred); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("credentials file: %v %v", st, err)
	}
	if st, _ := os.Stat(filepath.Dir(cred)); st.Mode().Perm() != 0o700 {
		t.Errorf("credentials directory mode %v", st.Mode().Perm())
	}
	var who struct {
		User    struct{ Email string }
		APIKey  *struct{ Name string }
		Project *struct{ ID string }
	}
	json.Unmarshal([]byte(u.must(0, "whoami", "--json")), &who)
	if who.User.Email != "e2e@example.com" || who.APIKey == nil || who.APIKey.Name != "e2e" || who.Project == nil || who.Project.ID != s.projID {
		t.Fatalf("whoami --json = %+v", who)
	}
	if out := u.must(0, "whoami"); !strings.Contains(out, "organization") || !strings.Contains(out, "Default") {
		t.Errorf("whoami:\n%s", out)
	}

	// Two workflows and a failing one; a secret variable that pull must not write.
	hello, _ := s.workflow("hello", "workflow", chain("hello",
		step("greet", "return { greeting: 'Hello, ' + String(event.payload.name ?? 'world') + '!' };"),
		step("measure", "return { greeting: {{greet.greeting}}, letters: {{greet.greeting}}.length };")))
	s.must(200, "PATCH", "/api/workflows/"+hello, map[string]any{"envVars": []map[string]any{{"name": "API_TOKEN", "value": "s3cret-value-never-pulled", "isSecret": true}}})
	other, _ := s.workflow("other", "workflow", chain("other", step("only", "return 1;")))
	boom, _ := s.workflow("boom", "workflow", chain("boom", step("first", "return 1;"), step("explode", "throw new Error('exploded on purpose');")))

	// Pull: the files and the manifest, twice the same bytes, no secret value.
	u.must(0, "pull")
	files := []string{"workflows/hello.ir.json", "workflows/other.ir.json", "workflows/boom.ir.json", "edgeflow.json"}
	first := map[string][]byte{}
	for _, f := range files {
		first[f] = u.read(f)
		if bytes.Contains(first[f], []byte("s3cret-value")) || bytes.Contains(first[f], []byte("createdAt")) {
			t.Errorf("%s holds a secret value or a timestamp:\n%s", f, first[f])
		}
		if !bytes.HasSuffix(first[f], []byte("}\n")) || !bytes.Contains(first[f], []byte("\n  \"")) {
			t.Errorf("%s is not two-space indented JSON with a final newline", f)
		}
	}
	var manifest struct {
		Workflows map[string]struct {
			ID      string   `json:"id"`
			File    string   `json:"file"`
			EnvVars []string `json:"envVars"`
		} `json:"workflows"`
	}
	json.Unmarshal(first["edgeflow.json"], &manifest)
	if m := manifest.Workflows["hello"]; m.ID != hello || m.File != "workflows/hello.ir.json" || len(m.EnvVars) != 1 || m.EnvVars[0] != "API_TOKEN" {
		t.Errorf("manifest entry of hello: %+v", m)
	}
	u.must(0, "pull", "--dir", ".")
	for _, f := range files {
		if !bytes.Equal(first[f], u.read(f)) {
			t.Errorf("pulling twice changed %s", f)
		}
	}

	// Edit one file: a dry run names it alone, the push gives it alone a version.
	edited := bytes.Replace(first["workflows/hello.ir.json"], []byte("Hello, "), []byte("Hi, "), 1)
	u.write("workflows/hello.ir.json", edited)
	out := u.must(0, "push", "--dry-run")
	if !strings.Contains(out, `"hello" would get version 2`) || strings.Contains(out, "other") || strings.Contains(out, "boom") {
		t.Errorf("push --dry-run:\n%s", out)
	}
	if versionCount(s, hello) != 1 {
		t.Fatal("a dry run created a version")
	}
	if out := u.must(0, "push"); !strings.Contains(out, `workflow "hello" version 2`) {
		t.Errorf("push:\n%s", out)
	}
	if versionCount(s, hello) != 2 || versionCount(s, other) != 1 || versionCount(s, boom) != 1 {
		t.Fatalf("push made versions elsewhere: hello %d other %d boom %d", versionCount(s, hello), versionCount(s, other), versionCount(s, boom))
	}
	if out := u.must(0, "push"); !strings.Contains(out, "up to date") {
		t.Errorf("second push:\n%s", out)
	}
	// After the push, a pull gives back the edited file byte for byte.
	u.must(0, "pull")
	if !bytes.Equal(u.read("workflows/hello.ir.json"), edited) {
		t.Errorf("pull after push differs from the pushed file")
	}

	// Invalid IR: every problem as FILE: PATH (node ID): message, exit 1, nothing created.
	var ir map[string]any
	json.Unmarshal(edited, &ir)
	ir["edges"] = []any{map[string]any{"id": "e1", "source": "greet", "target": "nowhere"}}
	bad, _ := json.MarshalIndent(ir, "", "  ")
	u.write("workflows/hello.ir.json", append(bad, '\n'))
	code, _, errOut := u.run("", nil, "push", "workflows/hello.ir.json")
	if code != 1 || !strings.Contains(errOut, "workflows/hello.ir.json: /edges/0/target") {
		t.Errorf("push of invalid IR: exit %d\n%s", code, errOut)
	}
	if versionCount(s, hello) != 2 {
		t.Error("an invalid push created a version")
	}
	u.write("workflows/hello.ir.json", edited)

	// Versions: listing, diff (exit 0 either way), show --ir equals the file.
	var versions []struct{ Version int }
	json.Unmarshal([]byte(u.must(0, "versions", "ls", "hello", "--json")), &versions)
	if len(versions) != 2 || versions[0].Version != 2 {
		t.Errorf("versions ls --json: %+v", versions)
	}
	if d := u.must(0, "versions", "diff", "hello", "1", "2"); !strings.Contains(d, "-") || !strings.Contains(d, "+") || !strings.Contains(d, "Hi, ") {
		t.Errorf("versions diff:\n%s", d)
	}
	if d := u.must(0, "versions", "diff", "hello", "2", "2"); d != "" {
		t.Errorf("diff of a version with itself: %q", d)
	}
	if got := u.must(0, "versions", "show", "hello", "--ir"); got != string(edited) {
		t.Errorf("versions show --ir differs from the pushed file")
	}

	// Test before deploying: complete (0) and errored (1), nothing left behind.
	if out := u.must(0, "test", "hello", "--params", `{"name":"Ada"}`); !strings.Contains(out, "measure") || !strings.Contains(out, "Hi, Ada!") {
		t.Errorf("test hello:\n%s", out)
	}
	code, out, errOut = u.run("", nil, "test", "boom")
	if code != 1 || !strings.Contains(out, "explode") || !strings.Contains(errOut, "exploded on purpose") {
		t.Errorf("test boom: exit %d\n%s\n%s", code, out, errOut)
	}
	if out := u.must(0, "test", "boom", "--mocks", `{"explode": {"mocked": true}}`); !strings.Contains(out, "mocked") {
		t.Errorf("test boom with a mock:\n%s", out)
	}
	var deps struct{ Data []any }
	s.must(200, "GET", "/api/deployments", nil).into(&deps)
	if len(deps.Data) != 0 {
		t.Errorf("tests left deployments: %v", deps.Data)
	}

	// Deploy: one plain line per stage on a pipe.
	out = u.must(0, "deploy", "hello", "--connection", "edge")
	if !strings.Contains(out, "GENERATING_CODE") || !strings.Contains(out, "COMPLETED") || !strings.Contains(out, "Deployed") {
		t.Errorf("deploy:\n%s", out)
	}
	u.must(0, "deploy", "boom", "--connection", s.conn)

	// Trigger and wait: the output (0), or the error (1).
	out = u.must(0, "trigger", "hello", "--params", `{"name":"Ada"}`, "--wait")
	var output struct {
		Greeting string `json:"greeting"`
		Letters  int    `json:"letters"`
	}
	if err := json.Unmarshal([]byte(out), &output); err != nil || output.Greeting != "Hi, Ada!" || output.Letters != 8 {
		t.Errorf("trigger --wait: %q %v", out, err)
	}
	os.WriteFile(filepath.Join(u.dir, "params.json"), []byte(`{"name":"Grace"}`), 0o644)
	runID := strings.TrimSpace(u.must(0, "trigger", "--params", "@params.json", "hello"))
	if !strings.HasPrefix(runID, "run_") {
		t.Fatalf("trigger printed %q", runID)
	}
	code, _, errOut = u.run("", nil, "trigger", "boom", "--wait")
	if code != 1 || !strings.Contains(errOut, "exploded on purpose") {
		t.Errorf("trigger boom --wait: exit %d %s", code, errOut)
	}

	// Runs: watch (0 when complete), show, list as table and JSON.
	if out := u.must(0, "runs", "watch", runID); !strings.Contains(out, "complete") || !strings.Contains(out, "Hi, Grace!") {
		t.Errorf("runs watch:\n%s", out)
	}
	if out := u.must(0, "runs", "show", runID); !strings.Contains(out, "STEP") || !strings.Contains(out, "greet") {
		t.Errorf("runs show:\n%s", out)
	}
	var runs []struct{ ID, Status string }
	json.Unmarshal([]byte(u.must(0, "runs", "ls", "--workflow", "boom", "--json")), &runs)
	if len(runs) != 1 || runs[0].Status != "errored" {
		t.Fatalf("runs ls --workflow boom: %+v", runs)
	}
	if code, _, _ := u.run("", nil, "runs", "watch", runs[0].ID); code != 1 {
		t.Errorf("watching an errored run: exit %d", code)
	}
	if out := u.must(0, "runs", "ls", "--status", "complete"); !strings.Contains(out, runID) || !strings.Contains(out, "hello") {
		t.Errorf("runs ls:\n%s", out)
	}
	// Restart the errored run from its failing step, which now succeeds
	// with a new version deployed.
	fixed := chain("boom", step("first", "return 1;"), step("explode", "return { fixed: true };"))
	s.version(boom, fixed)
	u.must(0, "deploy", "boom", "--connection", "edge")
	out = u.must(0, "runs", "restart", runs[0].ID, "--from-step", "explode", "--version", "current", "--wait")
	if !strings.Contains(out, `"fixed": true`) {
		t.Errorf("runs restart --wait:\n%s", out)
	}

	// Exit statuses: not found (3), bad usage (2), failure (1).
	for _, c := range []struct {
		want int
		args []string
	}{
		{3, []string{"workflows", "show", "no-such-workflow"}},
		{3, []string{"versions", "show", "hello", "99"}},
		{3, []string{"runs", "show", "run_doesnotexist0000000"}},
		{3, []string{"deploy", "hello", "--connection", "no-such-connection"}},
		{2, []string{"workflows", "ls", "--frobnicate"}},
		{2, []string{"trigger"}},
		{2, []string{"workflows", "rm", "other"}}, // no --yes, and no answer on stdin: add --yes
	} {
		if code, _, errOut := u.run("", nil, c.args...); code != c.want {
			t.Errorf("edgeflow %s: exit %d, want %d (%s)", strings.Join(c.args, " "), code, c.want, errOut)
		}
	}
	if code, _, _ := u.run("", nil, "workflows", "rm", "other"); code == 0 {
		t.Error("rm without confirmation deleted")
	}
	u.must(0, "workflows", "rm", "--yes", "other")
	// A workflow deleted with its runs kept: its runs are still shown.
	if out := u.must(0, "workflows", "rm", "boom", "--runs", "keep", "--yes"); !strings.Contains(out, "runs are kept") {
		t.Errorf("rm --runs keep:\n%s", out)
	}
	if out := u.must(0, "runs", "show", runs[0].ID); !strings.Contains(out, "boom (deleted)") || !strings.Contains(out, "errored") {
		t.Errorf("runs show of a kept run:\n%s", out)
	}
	if code, _, _ := u.run("", nil, "workflows", "rm", "hello", "--runs", "maybe", "--yes"); code != 2 {
		t.Errorf("rm --runs maybe: exit %d, want 2", code)
	}
	if out := u.must(0, "workflows", "ls"); strings.Contains(out, "other") || !strings.Contains(out, "hello") {
		t.Errorf("workflows ls after rm:\n%s", out)
	}

	// Logout forgets the key; EDGEFLOW_URL and EDGEFLOW_API_KEY work without a login.
	u.must(0, "logout")
	if _, err := os.Stat(cred); !os.IsNotExist(err) {
		t.Errorf("credentials still there after logout: %v", err)
	}
	if code, _, errOut := u.run("", nil, "workflows", "ls"); code != 1 || !strings.Contains(errOut, "not logged in") {
		t.Errorf("after logout: exit %d %s", code, errOut)
	}
	code, out, errOut = u.run("", []string{"EDGEFLOW_URL=" + s.url, "EDGEFLOW_API_KEY=" + s.key}, "workflows", "ls", "--json")
	if code != 0 || !strings.Contains(out, hello) {
		t.Errorf("with EDGEFLOW_URL and EDGEFLOW_API_KEY: exit %d %s %s", code, out, errOut)
	}
}

// TestCLIEmailLogin: a login with email and password keeps a session, and
// `use project` switches the project the commands act in.
func TestCLIEmailLogin(t *testing.T) {
	t.Parallel()
	s := newServer(t, serverOptions{})
	u := newCLIUser(t)
	if code, _, errOut := u.run("not-the-password\n", nil, "login", "--url", s.url, "--email", "e2e@example.com", "--password-stdin"); code != 1 || !strings.Contains(errOut, "wrong email or password") {
		t.Fatalf("wrong password: exit %d %s", code, errOut)
	}
	if code, out, errOut := u.run("e2e-password-1\n", nil, "login", "--url", s.url, "--email", "e2e@example.com", "--password-stdin"); code != 0 {
		t.Fatalf("login: exit %d %s %s", code, out, errOut)
	}
	if out := u.must(0, "whoami"); !strings.Contains(out, "signed in with email and password") {
		t.Errorf("whoami:\n%s", out)
	}
	s.must(201, "POST", "/api/projects", map[string]any{"name": "staging"})
	u.must(0, "workflows", "create", "in-default")
	u.must(0, "use", "project", "staging")
	u.must(0, "workflows", "create", "in-staging")
	if out := u.must(0, "workflows", "ls"); !strings.Contains(out, "in-staging") || strings.Contains(out, "in-default") {
		t.Errorf("workflows of staging:\n%s", out)
	}
	u.must(0, "workflows", "mv", "in-staging", "Default")
	u.must(0, "use", "project", "Default")
	if out := u.must(0, "workflows", "ls"); !strings.Contains(out, "in-staging") || !strings.Contains(out, "in-default") {
		t.Errorf("workflows of Default after mv:\n%s", out)
	}
	if code, _, _ := u.run("", nil, "use", "project", "nope"); code != 3 {
		t.Errorf("use project nope: exit %d", code)
	}
	u.must(0, "logout")
	// The session ended on the server too.
	if code, _, _ := u.run("", nil, "whoami"); code != 1 {
		t.Errorf("whoami after logout: exit %d", code)
	}
}
