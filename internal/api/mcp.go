package api

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/edgeflow/edgeflow/internal/mcp"
)

// The MCP endpoint (internal/mcp, docs/agents.md): the Model Context
// Protocol's Streamable HTTP transport at /api/mcp, for API keys only (a
// cookie is refused there, so no cross-site request can act through it).
// Its tools call this server's own routes in-process with the caller's
// Authorization header, so each needs the scope of the route it stands for
// and counts against the same limits; the MCP requests themselves count
// against the per-address limit, and POST and GET as streams
// (streamlimit.go), since a tool call may wait minutes and GET is a
// session's long-lived stream.

// mcpMessage is a JSON-RPC 2.0 message of the Model Context Protocol: a
// request (id and method), a notification (method alone) or a response
// (id with result or error).
type mcpMessage struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *mcpError       `json:"error,omitempty"`
}

// mcpError is the error of a JSON-RPC response.
type mcpError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// mcpEvents are the events of the transport's streams: one JSON-RPC
// message each.
var mcpEvents = map[string]any{"message": mcpMessage{}}

// newMCP builds the MCP endpoint over s.
func newMCP(s *Server) (*mcp.HTTPHandler, error) {
	return mcp.NewHTTPHandler(mcp.HTTPOptions{API: s, OpenAPI: s.openAPI, Version: s.Version, Logger: s.Logger})
}

// handleMCPMessage serves the transport's POST: a message of the client.
func (s *Server) handleMCPMessage(w http.ResponseWriter, r *http.Request) error {
	return s.serveMCP(w, r)
}

// handleMCPStream serves the transport's GET: the session's stream of
// messages from the server.
func (s *Server) handleMCPStream(w http.ResponseWriter, r *http.Request) error {
	return s.serveMCP(w, r)
}

// handleMCPEnd serves the transport's DELETE: the end of a session.
func (s *Server) handleMCPEnd(w http.ResponseWriter, r *http.Request) error { return s.serveMCP(w, r) }

// serveMCP hands a request of the transport to internal/mcp with the caller
// the API admitted. A stream ends at the stream lifetime; the client opens
// it again.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) error {
	p := PrincipalFrom(r)
	if p.APIKey == nil {
		return errForbidden("%s /api/mcp accepts API keys only", r.Method)
	}
	ctx, cancel := context.WithDeadline(r.Context(), streamOf(r).deadline)
	defer cancel()
	return s.mcp.Serve(w, r.WithContext(ctx), mcp.Caller{KeyID: p.APIKey.ID, Address: s.clientIP(r), RequestID: requestIDFrom(r)})
}

// handleMCPConnect answers how an assistant reaches this server's MCP
// endpoint, over HTTP and stdio, with ready-made configurations for the
// clients docs/agents.md describes: what Studio's "Connect an assistant"
// page shows. It never holds a key: mcp.KeyPlaceholder stands for it.
func (s *Server) handleMCPConnect(w http.ResponseWriter, r *http.Request) error {
	writeJSON(w, http.StatusOK, mcp.ConnectAt(s.baseURL(r)))
	return nil
}
