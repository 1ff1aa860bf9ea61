// Package mcptest runs the official MCP TypeScript SDK's client
// (internal/mcp/testdata/client) against edgeflow's MCP server, for the
// tests of internal/mcp and internal/e2e.
package mcptest

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// Plan is what the client does: its transport, then the tool calls in
// order. A string argument "${N.path}" is replaced by the value at path
// (dot-separated) of the structured content of call N.
type Plan struct {
	Transport string `json:"transport"` // "http" or "stdio"
	// URL and Key are the HTTP transport's endpoint and API key.
	URL string `json:"url,omitempty"`
	Key string `json:"key,omitempty"`
	// Command, Args and Env start the stdio transport's server.
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	Calls   []Call            `json:"calls"`
}

// Call is one tool call.
type Call struct {
	Tool string         `json:"tool"`
	Args map[string]any `json:"args,omitempty"`
}

// Report is what the client saw.
type Report struct {
	Server struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	Instructions string       `json:"instructions"`
	Tools        []Tool       `json:"tools"`
	Resources    []string     `json:"resources"`
	Prompt       string       `json:"prompt"`
	Results      []CallResult `json:"results"`
}

// Tool is a listed tool: whether Ajv (as the SDK uses it) compiles its
// schemas, and its annotations.
type Tool struct {
	Name              string         `json:"name"`
	Annotations       map[string]any `json:"annotations"`
	InputSchemaValid  bool           `json:"inputSchemaValid"`
	OutputSchemaValid bool           `json:"outputSchemaValid"`
	InputError        string         `json:"inputError"`
	OutputError       string         `json:"outputError"`
}

// CallResult is a tool call's result, or the protocol error the client
// raised (which includes structured content that does not fit the tool's
// output schema).
type CallResult struct {
	Tool          string         `json:"tool"`
	IsError       bool           `json:"isError"`
	Text          string         `json:"text"`
	Structured    map[string]any `json:"structured"`
	ProtocolError string         `json:"protocolError"`
}

// Dir is the client's npm package.
func Dir() string { return filepath.Join(testenv.Root(), "internal", "mcp", "testdata", "client") }

// Run runs the client with the plan; without node or the package's
// node_modules the test skips (fails in CI).
func Run(t testing.TB, plan Plan) Report {
	t.Helper()
	testenv.NodeModules(t, Dir(), filepath.Join("@modelcontextprotocol", "sdk"))
	in, err := json.Marshal(plan)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", "session.mjs")
	cmd.Dir = Dir()
	cmd.Stdin = bytes.NewReader(in)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("the TypeScript client failed: %v\nstderr: %s\nstdout: %s", err, errOut.String(), out.String())
	}
	var r Report
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("the TypeScript client's report: %v\n%s\nstderr: %s", err, out.String(), errOut.String())
	}
	return r
}
