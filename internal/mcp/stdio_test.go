package mcp_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/cli"
	"github.com/edgeflow/edgeflow/internal/mcp"
)

// lockedBuffer is a buffer written by one goroutine and read by another.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// serveMCP is cmd/edgeflow's wiring of `edgeflow mcp` to the MCP server.
func serveMCP(ctx context.Context, p cli.MCPStdio) error {
	doc, err := api.OpenAPI()
	if err != nil {
		return err
	}
	return mcp.ServeStdio(ctx, p.Stdin, p.Stdout, mcp.StdioOptions{
		API:     &mcp.Remote{BaseURL: p.BaseURL, Client: p.HTTP, Authorize: p.Authorize},
		OpenAPI: doc, Version: p.Version, Logger: slog.New(slog.NewTextHandler(p.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
}

// stdioServer runs `edgeflow mcp` in-process with the environment's login
// and connects the Go SDK's client to its standard input and output. It
// answers the session, what the command wrote to standard output and to
// standard error, and its exit status once the session is closed.
func stdioServer(t *testing.T, getenv map[string]string) (s *session, stdout, stderr *lockedBuffer, done <-chan int) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	stdout, stderr = &lockedBuffer{}, &lockedBuffer{}
	config := t.TempDir()
	env := cli.Env{Stdin: inR, Stdout: io.MultiWriter(outW, stdout), Stderr: stderr,
		Getenv: func(k string) string { return getenv[k] }, ConfigDir: func() (string, error) { return config, nil }, ServeMCP: serveMCP}
	exit := make(chan int, 1)
	go func() {
		code := cli.Run(context.Background(), env, []string{"mcp"})
		outW.Close()
		exit <- code
	}()
	client := sdk.NewClient(&sdk.Implementation{Name: "edgeflow-test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v\nstderr: %s", err, stderr)
	}
	return newSession(t, cs), stdout, stderr, exit
}

// TestStdio: `edgeflow mcp` serves the same tools over standard
// input/output, acting with EDGEFLOW_URL and EDGEFLOW_API_KEY: what a key
// may do succeeds, a missing scope and another organization's workflow are
// tool errors, standard output holds protocol messages only, and the
// command ends when the client closes standard input.
func TestStdio(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	owner := w.connect(w.a.key("read", "write"))
	private := owner.ok("create_workflow", map[string]any{"name": "Private"})["id"].(string)

	s, stdout, stderr, done := stdioServer(t, map[string]string{"EDGEFLOW_URL": w.url, "EDGEFLOW_API_KEY": w.b.key("read", "write")})
	if got := len(s.tools); got != len(toolNames) {
		t.Fatalf("%d tools over stdio", got)
	}
	wfID := s.ok("create_workflow", map[string]any{"name": "Over stdio"})["id"].(string)
	s.fails("submit_version", map[string]any{"workflowId": wfID, "ir": json.RawMessage(invalidIR)}, "invalid_ir", "/edges/2/target")
	s.ok("submit_version", map[string]any{"workflowId": wfID, "ir": example(t, "hello")})
	s.fails("deploy", map[string]any{"workflowId": wfID, "connectionId": "con_x"}, `lacks the "deploy" scope`)
	s.fails("get_workflow", map[string]any{"workflowId": private}, "not_found")
	if l := s.ok("list_workflows", nil); len(l["data"].([]any)) != 1 {
		t.Fatalf("list_workflows over stdio: %v", l)
	}
	s.cs.Close()
	if code := <-done; code != 0 {
		t.Fatalf("edgeflow mcp exited %d\nstderr: %s", code, stderr)
	}
	sc := bufio.NewScanner(strings.NewReader(stdout.String()))
	sc.Buffer(nil, 16<<20)
	lines := 0
	for sc.Scan() {
		var m struct {
			JSONRPC string `json:"jsonrpc"`
		}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil || m.JSONRPC != "2.0" {
			t.Fatalf("standard output holds a line that is not a JSON-RPC message: %q", sc.Text())
		}
		lines++
	}
	if lines < 8 {
		t.Fatalf("only %d messages on standard output", lines)
	}
	if !strings.Contains(stderr.String(), "serving MCP on standard input/output for "+w.url) {
		t.Fatalf("stderr: %s", stderr)
	}
}

// TestStdioRefusedLogin: a login the server refuses ends the command at
// once with the reason on standard error and nothing on standard output.
func TestStdioRefusedLogin(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	var stdout, stderr bytes.Buffer
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, ConfigDir: func() (string, error) { return t.TempDir(), nil }, ServeMCP: serveMCP,
		Getenv: func(k string) string {
			return map[string]string{"EDGEFLOW_URL": w.url, "EDGEFLOW_API_KEY": "ask_0000000000000000000000000000000000000000000"}[k]
		}}
	if code := cli.Run(context.Background(), env, []string{"mcp"}); code != cli.ExitFailed {
		t.Fatalf("exit %d, want %d; stderr: %s", code, cli.ExitFailed, stderr.String())
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "invalid API key") {
		t.Fatalf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}

// TestRouteExamplesMCP sends the examples of the MCP routes that need a
// session (GET and DELETE /api/mcp), which internal/api's
// TestRouteExamples leaves out, on a session the POST example opens, and
// checks their answers against the route table.
func TestRouteExamplesMCP(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	routes := map[string]api.Route{}
	for _, rt := range api.DocRoutes() {
		routes[rt.Method+" "+rt.Pattern] = rt
	}
	key := w.a.key("read")
	post := routes["POST /api/mcp"]
	r := w.must(post.Status, "POST", post.Example.Path, post.Example.Body, bearer(key))
	if err := post.CheckReply(r.body, false); err != nil {
		t.Fatal(err)
	}
	h := bearer(key)
	h["Mcp-Session-Id"] = r.header.Get("Mcp-Session-Id")
	h["Mcp-Protocol-Version"] = "2025-06-18"
	w.must(202, "POST", "/api/mcp", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, h)

	// The stream answers its headers at once and then waits for messages:
	// read the headers, then end the session, which ends the stream.
	get := routes["GET /api/mcp"]
	req, err := newRequest("GET", w.url+get.Example.Path, h)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	res, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != get.Status || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET /api/mcp: %d %v", res.StatusCode, res.Header)
	}
	del := routes["DELETE /api/mcp"]
	w.must(del.Status, "DELETE", del.Example.Path, "", h)
	rest, _ := io.ReadAll(res.Body)
	if err := get.CheckReply(rest, false); err != nil {
		t.Fatalf("the stream: %v", err)
	}
	w.must(404, "POST", "/api/mcp", `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, h)
}
