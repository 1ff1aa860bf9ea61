// API keys (GET /api/api-keys): an owner's or admin's view holds the organization's, others see their own.
import { queryOptions } from "@tanstack/react-query";
import { api, ok, pageQuery } from "../client";
import { cursorPages } from "./cursor";

export const apiKeyKeys = {
  all: ["api-keys"] as const,
};

const page = (limit: number, cursor?: string) => ok(api.GET("/api/api-keys", { params: { query: pageQuery(limit, cursor) } }));

export const apiKeyQueries = {
  // list: every key, page after page.
  list: () => cursorPages([...apiKeyKeys.all, "list"] as const, (cursor) => page(50, cursor)),
  // firstPage: the first 100 keys (the audit log names its key actors with them).
  firstPage: () =>
    queryOptions({
      queryKey: [...apiKeyKeys.all, "first-page"] as const,
      queryFn: () => page(100),
    }),
};
