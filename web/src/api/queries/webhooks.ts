// Webhooks of the project and their deliveries (GET /api/webhooks…).
import { queryOptions } from "@tanstack/react-query";
import { api } from "../client";
import type { Page, Webhook, WebhookDelivery } from "../types";

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
      queryFn: () => api.get<Page<Webhook>>("/api/webhooks?limit=100"),
    }),
  // deliveries: the webhook's newest 50 deliveries.
  deliveries: (webhookId: string) =>
    queryOptions({
      queryKey: [...webhookKeys.one(webhookId), "deliveries"] as const,
      queryFn: () => api.get<Page<WebhookDelivery>>(`/api/webhooks/${encodeURIComponent(webhookId)}/deliveries?limit=50`),
    }),
};
