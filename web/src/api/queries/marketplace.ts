// The marketplace's catalog (GET /api/marketplace…): its nodes, categories and one node with its installation.
import { queryOptions } from "@tanstack/react-query";
import type { CatalogNode, Category, NodeDetails } from "../../pages/marketplace/model";
import { api } from "../client";
import { cursorPages } from "./cursor";

export const marketplaceKeys = {
  all: ["marketplace"] as const,
  node: (nodeId: string) => ["marketplace", "node", nodeId] as const,
};

export const marketplaceQueries = {
  categories: () =>
    queryOptions({
      queryKey: [...marketplaceKeys.all, "categories"] as const,
      queryFn: () => api.get<{ categories: Category[] }>("/api/marketplace/categories"),
      staleTime: 60_000,
    }),
  // catalog: the nodes a search finds (query is its query string), 50 a page.
  catalog: (query: string) =>
    cursorPages<CatalogNode>([...marketplaceKeys.all, "catalog", query] as const, query ? `/api/marketplace?${query}` : "/api/marketplace", 50),
  node: (nodeId: string) =>
    queryOptions({
      queryKey: marketplaceKeys.node(nodeId),
      queryFn: () => api.get<NodeDetails>(`/api/marketplace/${encodeURIComponent(nodeId)}`),
    }),
};
