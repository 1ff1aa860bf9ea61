package main

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/cli"
	"github.com/edgeflow/edgeflow/internal/mcp"
)

// serveMCP is `edgeflow mcp`'s server (mcp.ServeCLI) with the API's
// OpenAPI document.
func serveMCP(ctx context.Context, p cli.MCPStdio) error {
	doc, err := api.OpenAPI()
	if err != nil {
		return err
	}
	return mcp.ServeCLI(ctx, p, doc)
}
