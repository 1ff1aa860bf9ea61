// Deployments of the project (GET /api/deployments).
import { queryOptions } from "@tanstack/react-query";
import { api } from "../client";
import type { Deployment, Page } from "../types";

export const deploymentKeys = {
  all: ["deployments"] as const,
};

export const deploymentQueries = {
  // list: the project's newest 100 deployments.
  list: () =>
    queryOptions({
      queryKey: [...deploymentKeys.all, "list"] as const,
      queryFn: () => api.get<Page<Deployment>>("/api/deployments?limit=100"),
    }),
};
