// The MCP server (GET /api/mcp/connect): what an AI assistant needs to connect to it.
import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../client";

export const mcpKeys = {
  connect: ["mcp", "connect"] as const,
};

export const mcpQueries = {
  // connect: the server's MCP address and the configurations of each client, for the current key.
  connect: () =>
    queryOptions({
      queryKey: mcpKeys.connect,
      queryFn: () => ok(api.GET("/api/mcp/connect")),
    }),
};
