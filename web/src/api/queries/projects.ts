// The projects of the active organization (GET /api/projects).
import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../client";

export const projectKeys = {
  all: ["projects"] as const,
};

export const projectQueries = {
  // list: the first 100 projects of an organization (an organization has few).
  list: (organizationId: string) =>
    queryOptions({
      queryKey: [...projectKeys.all, organizationId] as const,
      queryFn: () => ok(api.GET("/api/projects", { params: { query: { limit: 100 } } })),
    }),
};
