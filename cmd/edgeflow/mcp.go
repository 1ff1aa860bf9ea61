package main

import (
	"context"
	"log/slog"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/cli"
	"github.com/edgeflow/edgeflow/internal/mcp"
)

// serveMCP is `edgeflow mcp`'s server: the MCP server over standard
// input/output, its tools calling the API of the CLI's login over HTTP.
func serveMCP(ctx context.Context, p cli.MCPStdio) error {
	doc, err := api.OpenAPI()
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(p.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	return mcp.ServeStdio(ctx, p.Stdin, p.Stdout, mcp.StdioOptions{
		API:     &mcp.Remote{BaseURL: p.BaseURL, Client: p.HTTP, Authorize: p.Authorize},
		OpenAPI: doc, Version: p.Version, Logger: logger,
	})
}
