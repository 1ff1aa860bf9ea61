// API keys (GET /api/api-keys): an owner's or admin's view holds the organization's, others see their own.
import { queryOptions } from "@tanstack/react-query";
import type { ApiKey } from "../../pages/settings/types";
import { api } from "../client";
import type { Page } from "../types";
import { cursorPages } from "./cursor";

export const apiKeyKeys = {
  all: ["api-keys"] as const,
};

export const apiKeyQueries = {
  // list: every key, page after page.
  list: () => cursorPages<ApiKey>([...apiKeyKeys.all, "list"] as const, "/api/api-keys"),
  // firstPage: the first 100 keys (the audit log names its key actors with them).
  firstPage: () =>
    queryOptions({
      queryKey: [...apiKeyKeys.all, "first-page"] as const,
      queryFn: () => api.get<Page<ApiKey>>("/api/api-keys?limit=100"),
    }),
};
