// The server's own description of its API (GET /api/openapi.json): which routes this server has, read once.
import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../client";

export const openapiQueries = {
  // paths: the route patterns of the API, such as /api/workflows/{workflowId}/runs/{runId}/logs.
  paths: () =>
    queryOptions({
      queryKey: ["openapi", "paths"] as const,
      queryFn: async () => {
        const doc: { paths?: Record<string, unknown> } = await ok(api.GET("/api/openapi.json"));
        return new Set(Object.keys(doc.paths ?? {}));
      },
      staleTime: Infinity,
      gcTime: Infinity,
    }),
};
