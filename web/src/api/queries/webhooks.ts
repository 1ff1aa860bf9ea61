// Webhooks of the project and their deliveries (GET /api/webhooks…).
import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../client";

export const webhookKeys = {
  all: ["webhooks"] as const,
  // one: everything read about one webhook (its deliveries).
  one: (webhookId: string) => ["webhooks", "one", webhookId] as const,
};

export const webhookQueries = {
  // list: the project's first 100 webhooks.
  list: () =>
    queryOptions({
      queryKey: [...webhookKeys.all, "list"] as const,
      queryFn: () => ok(api.GET("/api/webhooks", { params: { query: { limit: 100 } } })),
    }),
  // deliveries: the webhook's newest 50 deliveries.
  deliveries: (webhookId: string) =>
    queryOptions({
      queryKey: [...webhookKeys.one(webhookId), "deliveries"] as const,
      queryFn: () => ok(api.GET("/api/webhooks/{id}/deliveries", { params: { path: { id: webhookId }, query: { limit: 50 } } })),
    }),
};
