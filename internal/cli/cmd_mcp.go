package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// MCPStdio is what `edgeflow mcp` hands the MCP server (Env.ServeMCP): the
// process's streams and the login's server and credentials.
type MCPStdio struct {
	Stdin  io.Reader
	Stdout io.Writer
	// Stderr takes diagnostics; standard output carries only protocol messages.
	Stderr io.Writer
	// BaseURL is the server's address, without /api.
	BaseURL string
	HTTP    *http.Client
	// Authorize sets the login's credentials on a request.
	Authorize func(*http.Request)
	Version   string
}

func mcpCommand() *command {
	return &command{
		name: "mcp", summary: "serve MCP on standard input/output, for an AI assistant, acting with this login",
		about: `Speaks the Model Context Protocol on standard input and output, so that an AI assistant (Claude Code,
Cursor, VS Code) can build, validate, deploy, run and debug workflows with edgeflow's tools, resources and
prompt (docs/agents.md). Every tool calls the API of the server of the current login (edgeflow login, or
EDGEFLOW_URL and EDGEFLOW_API_KEY) and can do what that login may: an API key's scopes decide which tools
succeed. Standard output carries only protocol messages; diagnostics go to standard error. The command runs
until the assistant closes standard input.`,
		examples: []string{
			`claude mcp add edgeflow -- edgeflow mcp`,
			`{"mcpServers": {"edgeflow": {"command": "edgeflow", "args": ["mcp"]}}}   (Cursor's .cursor/mcp.json)`,
		},
		maxArgs: 0,
		run:     runMCP,
	}
}

func runMCP(c *call) error {
	if c.env.ServeMCP == nil {
		return errors.New("this build of edgeflow has no MCP server")
	}
	cl, err := c.client()
	if err != nil {
		return err
	}
	// A login the server refuses is worth saying at once; a server that
	// does not answer yet may come up later (the tools then say so).
	if err := cl.request(c.ctx, http.MethodGet, "/api/whoami", nil, nil, nil); isStatus(err, http.StatusUnauthorized) {
		return err
	} else if err != nil {
		fmt.Fprintf(c.env.Stderr, "edgeflow mcp: warning: %v\n", err)
	}
	fmt.Fprintf(c.env.Stderr, "edgeflow mcp: serving MCP on standard input/output for %s\n", cl.base)
	err = c.env.ServeMCP(c.ctx, MCPStdio{Stdin: c.env.Stdin, Stdout: c.env.Stdout, Stderr: c.env.Stderr,
		BaseURL: cl.base, HTTP: cl.http, Authorize: cl.authorize, Version: c.env.Version})
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}
