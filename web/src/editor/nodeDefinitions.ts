// useNodeDefinitions loads every node definition of the organization: GET /api/nodes, page after page.
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/client";
import type { NodeDefinition } from "../ir/nodeDefs";

export async function fetchNodeDefinitions(): Promise<NodeDefinition[]> {
  const out: NodeDefinition[] = [];
  let cursor: string | null = null;
  do {
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page: { data: NodeDefinition[]; nextCursor: string | null } = await api.get(`/api/nodes?limit=100${q}`);
    out.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return out;
}

export function useNodeDefinitions(enabled: boolean) {
  return useQuery({ queryKey: ["nodes"], queryFn: fetchNodeDefinitions, enabled, staleTime: 60_000 });
}
