// useNodeDefinitions loads every node definition of the organization (api/queries/nodes.ts) when enabled.
import { useQuery } from "@tanstack/react-query";
import { nodeQueries } from "../api/queries/nodes";

export function useNodeDefinitions(enabled: boolean) {
  return useQuery({ ...nodeQueries.definitions(), enabled });
}
