package e2e_test

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gettingStartedDoc is the page whose every command TestGettingStarted runs.
var gettingStartedDoc = filepath.Join("..", "..", "docs", "getting-started.md")

// fencedBlocks answers the contents of every fenced code block of a Markdown text, in order.
func fencedBlocks(doc string) []string {
	var blocks []string
	var cur []string
	in := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			if in {
				blocks = append(blocks, strings.Join(cur, "\n"))
				cur = nil
			}
			in = !in
			continue
		}
		if in {
			cur = append(cur, line)
		}
	}
	return blocks
}

// TestGettingStarted runs every fenced code block of docs/getting-started.md in bash, in order, as a newcomer
// would paste them: the blocks before `make run` in a first terminal (the clone), `make run` in the background
// there, every later block in one second terminal that starts in the directory holding the clone. It checks that
// every command succeeds (bash -e, pipefail) and that the run's output is printed.
//
// Only addresses are substituted: the clone's URL becomes this checkout (the commit checked out, HEAD), and
// 127.0.0.1:8080 becomes a free port (`make run` gets ADDR= for it). Offline, the test gives the clone the edge's
// npm packages that `npm ci` would download: edge/node_modules links to this checkout's, and the clone's lock
// file is dated back so that make does not reinstall them.
func TestGettingStarted(t *testing.T) {
	t.Parallel()
	requireEdge(t)
	for _, tool := range []string{"bash", "git", "make", "go", "curl", "grep", "sed", "cut"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "1" {
				t.Fatalf("%s is not installed; docs/getting-started.md needs it", tool)
			}
			t.Skipf("%s is not installed; docs/getting-started.md needs it", tool)
		}
	}
	root, err := exec.Command("git", "rev-parse", "--show-toplevel").Output()
	if err != nil {
		if os.Getenv("CI") == "1" {
			t.Fatalf("the repository is not a git checkout, which the page clones: %v", err)
		}
		t.Skipf("the repository is not a git checkout, which the page clones: %v", err)
	}
	repo := strings.TrimSpace(string(root))
	raw, err := os.ReadFile(gettingStartedDoc)
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(string(raw))

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	clone := regexp.MustCompile(`git clone \S+ `)
	var first, second []string
	runAt := -1
	for i, b := range blocks {
		b = strings.ReplaceAll(b, "127.0.0.1:8080", addr)
		b = clone.ReplaceAllLiteralString(b, "git clone "+repo+" ")
		switch {
		case strings.TrimSpace(b) == "make run":
			if runAt >= 0 {
				t.Fatalf("block %d: a second `make run`", i+1)
			}
			runAt = i
		case runAt < 0:
			first = append(first, b)
		default:
			second = append(second, b)
		}
	}
	if runAt < 0 || len(first) == 0 || len(second) == 0 {
		t.Fatalf("the page's blocks should clone, then `make run` alone in a block, then use the service; found %d blocks, make run at %d", len(blocks), runAt+1)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 12*time.Minute)
	defer cancel()
	home := t.TempDir()
	env := append(os.Environ(), "CF_API_TOKEN=", "CF_ACCOUNT_ID=", "KEY=", "EF=", "CONN=", "WF=", "RUN=")
	bash := func(dir, script string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, "bash", "-e", "-o", "pipefail", "-c", script)
		cmd.Dir = dir
		cmd.Env = env
		return cmd
	}

	// The first terminal: the clone.
	cwd := filepath.Join(home, ".cwd")
	out, err := bash(home, strings.Join(first, "\n")+"\npwd > "+cwd).CombinedOutput()
	if err != nil {
		t.Fatalf("the blocks before make run failed: %v\n%s", err, out)
	}
	dirRaw, err := os.ReadFile(cwd)
	if err != nil {
		t.Fatal(err)
	}
	dir := strings.TrimSpace(string(dirRaw))
	modules, err := filepath.EvalSymlinks(filepath.Join(repo, "edge", "node_modules"))
	if err != nil {
		t.Fatalf("the edge's npm packages: %v", err)
	}
	if err := os.Symlink(modules, filepath.Join(dir, "edge", "node_modules")); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "edge", "package-lock.json"), old, old); err != nil {
		t.Fatal(err)
	}

	// make run, in the background of the first terminal; stopped like Ctrl-C at the end.
	serverLog, err := os.Create(filepath.Join(home, "make-run.log"))
	if err != nil {
		t.Fatal(err)
	}
	defer serverLog.Close()
	srv := exec.Command("bash", "-c", "exec make run ADDR="+addr)
	srv.Dir, srv.Env, srv.Stdout, srv.Stderr = dir, env, serverLog, serverLog
	srv.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { srv.Wait(); close(done) }()
	defer func() {
		syscall.Kill(-srv.Process.Pid, syscall.SIGINT)
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			syscall.Kill(-srv.Process.Pid, syscall.SIGKILL)
			<-done
		}
	}()

	// The second terminal: every later block, one after the other in one shell.
	out, err = bash(home, strings.Join(second, "\n")).CombinedOutput()
	if err != nil {
		logged, _ := os.ReadFile(serverLog.Name())
		t.Fatalf("the blocks after make run failed: %v\n--- their output:\n%s\n--- make run:\n%s", err, out, logged)
	}
	for _, want := range []string{`{"status":"ok","database":"ok","edge":"ok"}`, `"status":"active"`,
		`"status":"complete"`, `"output":{"greeting":"Hello, Ada!","letters":3}`,
		// the Cloudflare connection without CF_API_TOKEN and CF_ACCOUNT_ID is refused, as the page says
		`"code":"validation_failed"`, `/credentials/apiToken`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the commands' output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), `"apiKey"`) || strings.Contains(string(out), "internal_error") {
		t.Errorf("unexpected answer in the output:\n%s", out)
	}
}
