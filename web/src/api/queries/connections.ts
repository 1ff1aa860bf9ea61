// Connections of the organization and the active project (GET /api/connections).
import { queryOptions } from "@tanstack/react-query";
import { api } from "../client";
import type { Connection, Page } from "../types";
import { cursorPages } from "./cursor";

export const connectionKeys = {
  all: ["connections"] as const,
};

export const connectionQueries = {
  // list: every connection, page after page.
  list: () => cursorPages<Connection>([...connectionKeys.all, "list"] as const, "/api/connections"),
  // firstPage: the first 100 connections (the deploy panel offers them).
  firstPage: () =>
    queryOptions({
      queryKey: [...connectionKeys.all, "first-page"] as const,
      queryFn: () => api.get<Page<Connection>>("/api/connections?limit=100"),
    }),
};
