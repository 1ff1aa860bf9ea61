package mcp

import (
	"context"
	"io"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgeflow/edgeflow/internal/cli"
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

// ServeCLI is `edgeflow mcp`'s server (cli.Env.ServeMCP, bound to the API's
// OpenAPI document by its caller, since the api package imports this one):
// MCP over the command's standard input and output, the tools calling the
// API of the CLI's login over HTTP, the SDK's warnings on standard error.
func ServeCLI(ctx context.Context, p cli.MCPStdio, openAPI []byte) error {
	logger := slog.New(slog.NewTextHandler(p.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return ServeStdio(ctx, p.Stdin, p.Stdout, StdioOptions{
		API:     &Remote{BaseURL: p.BaseURL, Client: p.HTTP, Authorize: p.Authorize},
		OpenAPI: openAPI, Version: p.Version, Logger: logger,
	})
}
