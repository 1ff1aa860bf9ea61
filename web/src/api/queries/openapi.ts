// The server's own description of its API (GET /api/openapi.json): which routes this server has, read once.
import { queryOptions } from "@tanstack/react-query";
import { api } from "../client";

export const openapiQueries = {
  // paths: the route patterns of the API, such as /api/workflows/{workflowId}/runs/{runId}/logs.
  paths: () =>
    queryOptions({
      queryKey: ["openapi", "paths"] as const,
      queryFn: async () => new Set(Object.keys((await api.get<{ paths?: Record<string, unknown> }>("/api/openapi.json")).paths ?? {})),
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};
