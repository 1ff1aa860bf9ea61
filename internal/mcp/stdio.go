package mcp

import (
	"context"
	"io"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// StdioOptions configure the standard input/output transport.
type StdioOptions struct {
	// API sends the tools' requests to the server (a Remote with the CLI's
	// login) (required).
	API Backend
	// OpenAPI is the API's OpenAPI document (required).
	OpenAPI []byte
	// Version is edgeflow's version.
	Version string
	// Logger receives the SDK's diagnostics (standard error: standard
	// output carries only protocol messages); nil discards them.
	Logger *slog.Logger
}

// ServeStdio speaks MCP on in and out, one JSON-RPC message a line, until
// the client closes in or ctx ends. Nothing but protocol messages is ever
// written to out.
func ServeStdio(ctx context.Context, in io.Reader, out io.Writer, opts StdioOptions) error {
	server, err := NewServer(Options{
		OpenAPI: opts.OpenAPI, Version: opts.Version, Logger: opts.Logger,
		Backend: func(*sdk.CallToolRequest) Backend { return opts.API },
	})
	if err != nil {
		return err
	}
	return server.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
