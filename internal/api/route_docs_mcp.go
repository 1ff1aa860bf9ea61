package api

import (
	"encoding/json"

	"github.com/edgeflow/edgeflow/internal/mcp"
)

// mcpRouteDocs document the MCP endpoint (mcp.go, internal/mcp,
// docs/agents.md).
var mcpRouteDocs = map[string]RouteDoc{
	"POST /api/mcp": {
		Summary: "Sends the MCP server a JSON-RPC message of the Model Context Protocol (Streamable HTTP transport).",
		Answer: "For a request, `text/event-stream` with the response as a `message` event (the transport's answer; the first " +
			"request, `initialize`, starts a session and answers its id in `Mcp-Session-Id`, which every later request " +
			"sends); for a notification or a response, 202 without a body. What the transport refuses it answers itself, " +
			"as the protocol says: 400 (not JSON-RPC, a protocol version it does not speak), 404 (`Mcp-Session-Id` names " +
			"no session of this process: it ended, or another replica holds it; initialize again), 403 (the session " +
			"belongs to another API key). A tool's failure (a missing scope, a record of another " +
			"organization, an invalid IR) is a tool result with `isError`. The tools and their scopes: docs/agents.md.",
		Errors: []ErrorCase{
			{429, "rate_limited", "an `initialize` past the sessions one API key (16) or the server (1,024) may hold open"},
		},
		BadBody: `{"jsonrpc": "1.0", "id": 1, "method": "ping"}`,
		Example: exMCPInitialize,
	},
	"GET /api/mcp": {
		Summary: "Opens the session's stream of messages from the MCP server (Streamable HTTP transport).",
		Answer: "`text/event-stream` of `message` events, for as long as the session lasts or the stream lifetime: the " +
			"messages the server sends outside the answer to a request (the protocol's pings and notifications; edgeflow's " +
			"tools send none today, so the stream mostly stays quiet). It needs `Mcp-Session-Id` and " +
			"`Accept: text/event-stream` (the transport answers 400 without them, 404 for a session that ended).",
		Example: exMCPStream,
	},
	"DELETE /api/mcp": {
		Summary: "Ends the MCP session named by `Mcp-Session-Id` (the transport answers 404 for a session that ended).",
		Example: exMCPEnd,
	},
	"GET /api/mcp/connect": {
		Summary: "How an assistant reaches this server's MCP endpoint: what Studio's \"Connect an assistant\" page shows.",
		Answer: "`{url, headers, stdio: {command, args, env}, clients: [{client, transport, file?, config?, command?}]}`: the " +
			"Streamable HTTP URL, the stdio command (`edgeflow mcp`), and the configurations of Claude Code, Cursor and VS " +
			"Code for each transport. It never holds a key: `" + mcp.KeyPlaceholder + "` stands where one goes.",
		Example: exMCPConnect,
	},
}

var (
	exMCPInitialize = Example{Path: "/api/mcp",
		Body: `{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "curl", "version": "8.0"}}}`,
		Answer: `event: message
data: {"jsonrpc":"2.0","id":1,"result":{"capabilities":{"logging":{},"prompts":{"listChanged":true},"resources":{"listChanged":true},"tools":{"listChanged":true}},"instructions":"edgeflow runs durable workflows …","protocolVersion":"2025-06-18","serverInfo":{"name":"edgeflow","title":"edgeflow","version":"dev"}}}
`}
	exMCPStream  = Example{Path: "/api/mcp", Answer: "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"}
	exMCPEnd     = Example{Path: "/api/mcp"}
	exMCPConnect = Example{Path: "/api/mcp/connect", Answer: exampleJSON(mcp.ConnectAt("https://edgeflow.example.com"))}
)

// exampleJSON is v as an example answer.
func exampleJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
