package mcp

import "strings"

// KeyPlaceholder stands where a client's configuration needs the API key:
// the server never shows a key after its creation.
const KeyPlaceholder = "<API key>"

// Connect is what an assistant's configuration needs to reach the MCP
// server of the edgeflow server at a base URL, for each transport and for
// the clients docs/agents.md describes. It holds no key, only
// KeyPlaceholder.
type Connect struct {
	// URL is the Streamable HTTP endpoint.
	URL string `json:"url"`
	// Headers are the HTTP transport's request headers.
	Headers map[string]string `json:"headers"`
	// Stdio is the command of the standard input/output transport, with the
	// environment that logs it in (or run `edgeflow login` once instead).
	Stdio StdioCommand `json:"stdio"`
	// Clients are ready-made configurations, HTTP first.
	Clients []ClientConfig `json:"clients"`
}

// StdioCommand is the command an assistant runs for the stdio transport.
type StdioCommand struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// ClientConfig is one client's configuration of one transport: a file's
// content, or a command that adds the server.
type ClientConfig struct {
	// Client is the client's name: "Claude Code", "Cursor", "VS Code".
	Client string `json:"client"`
	// Transport is "http" or "stdio".
	Transport string `json:"transport"`
	// File is where Config goes, relative to the project ("" for a command).
	File string `json:"file,omitempty"`
	// Config is the file's content.
	Config map[string]any `json:"config,omitempty"`
	// Command adds the server from a shell.
	Command string `json:"command,omitempty"`
}

// ConnectAt is the configuration for the server at base (its public URL,
// without /api).
func ConnectAt(base string) Connect {
	base = strings.TrimRight(base, "/")
	url := base + "/api/mcp"
	bearer := "Bearer " + KeyPlaceholder
	env := map[string]string{"EDGEFLOW_URL": base, "EDGEFLOW_API_KEY": KeyPlaceholder}
	stdio := map[string]any{"command": "edgeflow", "args": []string{"mcp"}, "env": env}
	return Connect{
		URL:     url,
		Headers: map[string]string{"Authorization": bearer},
		Stdio:   StdioCommand{Command: "edgeflow", Args: []string{"mcp"}, Env: env},
		Clients: []ClientConfig{
			{Client: "Claude Code", Transport: "http",
				Command: "claude mcp add --transport http edgeflow " + url + ` --header "Authorization: ` + bearer + `"`},
			{Client: "Claude Code", Transport: "stdio",
				Command: "claude mcp add edgeflow --env EDGEFLOW_URL=" + base + " --env EDGEFLOW_API_KEY=" + KeyPlaceholder + " -- edgeflow mcp"},
			{Client: "Cursor", Transport: "http", File: ".cursor/mcp.json",
				Config: map[string]any{"mcpServers": map[string]any{"edgeflow": map[string]any{"url": url, "headers": map[string]string{"Authorization": bearer}}}}},
			{Client: "Cursor", Transport: "stdio", File: ".cursor/mcp.json",
				Config: map[string]any{"mcpServers": map[string]any{"edgeflow": stdio}}},
			{Client: "VS Code", Transport: "http", File: ".vscode/mcp.json",
				Config: map[string]any{"servers": map[string]any{"edgeflow": map[string]any{"type": "http", "url": url,
					"headers": map[string]string{"Authorization": "Bearer ${input:edgeflow-api-key}"}}},
					"inputs": []any{map[string]any{"type": "promptString", "id": "edgeflow-api-key", "description": "edgeflow API key", "password": true}}}},
			{Client: "VS Code", Transport: "stdio", File: ".vscode/mcp.json",
				Config: map[string]any{"servers": map[string]any{"edgeflow": map[string]any{"type": "stdio", "command": "edgeflow", "args": []string{"mcp"},
					"env": map[string]string{"EDGEFLOW_URL": base, "EDGEFLOW_API_KEY": "${input:edgeflow-api-key}"}}},
					"inputs": []any{map[string]any{"type": "promptString", "id": "edgeflow-api-key", "description": "edgeflow API key", "password": true}}}},
		},
	}
}
