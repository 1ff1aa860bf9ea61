// Connections of the organization and the active project (GET /api/connections).
import { queryOptions } from "@tanstack/react-query";
import { api, ok, pageQuery } from "../client";
import { cursorPages } from "./cursor";

export const connectionKeys = {
  all: ["connections"] as const,
};

const page = (limit: number, cursor?: string) => ok(api.GET("/api/connections", { params: { query: pageQuery(limit, cursor) } }));

export const connectionQueries = {
  // list: every connection, page after page.
  list: () => cursorPages([...connectionKeys.all, "list"] as const, (cursor) => page(50, cursor)),
  // firstPage: the first 100 connections (the deploy panel offers them).
  firstPage: () =>
    queryOptions({
      queryKey: [...connectionKeys.all, "first-page"] as const,
      queryFn: () => page(100),
    }),
};
