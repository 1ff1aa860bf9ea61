// Deployments of the project (GET /api/deployments).
import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../client";

export const deploymentKeys = {
  all: ["deployments"] as const,
};

export const deploymentQueries = {
  // list: the project's newest 100 deployments.
  list: () =>
    queryOptions({
      queryKey: [...deploymentKeys.all, "list"] as const,
      queryFn: () => ok(api.GET("/api/deployments", { params: { query: { limit: 100 } } })),
    }),
};
