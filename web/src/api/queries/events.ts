// Events sent by type to the project's waiting runs (GET /api/events; docs/runs.md, "Events").
import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../client";

export const eventKeys = {
  all: ["events"] as const,
};

export const eventQueries = {
  // list: the project's newest 50 sent events, with the runs each reached.
  list: () =>
    queryOptions({
      queryKey: [...eventKeys.all, "list"] as const,
      queryFn: () => ok(api.GET("/api/events", { params: { query: { limit: 50 } } })),
    }),
};
