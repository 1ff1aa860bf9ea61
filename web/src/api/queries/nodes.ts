// The node types of the organization (GET /api/nodes): the builtins and the installed marketplace nodes, which the
// editor's palette, settings and validation use.
import { queryOptions } from "@tanstack/react-query";
import type { NodeDefinition } from "../models";
import { api, ok, pageQuery } from "../client";

export const nodeKeys = {
  all: ["nodes"] as const,
};

// fetchNodeDefinitions reads every node definition, page after page.
export async function fetchNodeDefinitions(): Promise<NodeDefinition[]> {
  const out: NodeDefinition[] = [];
  let cursor = "";
  do {
    const page = await ok(api.GET("/api/nodes", { params: { query: pageQuery(100, cursor) } }));
    out.push(...page.data);
    cursor = page.nextCursor ?? "";
  } while (cursor);
  return out;
}

export const nodeQueries = {
  definitions: () => queryOptions({ queryKey: nodeKeys.all, queryFn: fetchNodeDefinitions, staleTime: 60_000 }),
};
