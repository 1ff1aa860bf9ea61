// The marketplace's catalog (GET /api/marketplace…): its nodes, categories and one node with its installation.
import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../client";
import { cursorPages, withPage } from "./cursor";

export const marketplaceKeys = {
  all: ["marketplace"] as const,
  node: (nodeId: string) => ["marketplace", "node", nodeId] as const,
};

export const marketplaceQueries = {
  categories: () =>
    queryOptions({
      queryKey: [...marketplaceKeys.all, "categories"] as const,
      queryFn: () => ok(api.GET("/api/marketplace/categories")),
      staleTime: 60_000,
    }),
  // catalog: the nodes a search finds (query is its query string), 50 a page.
  catalog: (query: string) =>
    cursorPages([...marketplaceKeys.all, "catalog", query] as const, (cursor) =>
      ok(api.GET("/api/marketplace", { querySerializer: () => withPage(query, 50, cursor) })),
    ),
  node: (nodeId: string) =>
    queryOptions({
      queryKey: marketplaceKeys.node(nodeId),
      queryFn: () => ok(api.GET("/api/marketplace/{nodeId}", { params: { path: { nodeId } } })),
    }),
};
