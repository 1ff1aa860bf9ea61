import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { webhookQueries } from "../../api/queries/webhooks";
import type { Webhook, WebhookDelivery } from "../../api/models";
import { DataTable } from "../../app/fields";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";

// Deliveries lists a webhook's deliveries, refreshed every few seconds while some are pending.
export function Deliveries({ hook }: { hook: Webhook }) {
  const qc = useQueryClient();
  const list = useQuery({
    ...webhookQueries.deliveries(hook.id),
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === "pending") ? 2000 : 10000),
  });
  const redeliver = useMutation({
    mutationFn: (d: WebhookDelivery) =>
      ok(api.POST("/api/webhooks/{id}/deliveries/{deliveryId}/redeliver", { params: { path: { id: hook.id, deliveryId: d.id } } })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: webhookQueries.deliveries(hook.id).queryKey }),
  });
  const rows = list.data?.data ?? [];
  return (
    <section aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries to {hook.url}</h2>
      {list.isPending && <Loading what="deliveries" />}
      <ErrorMessage error={list.error ?? redeliver.error} />
      {list.isSuccess && rows.length === 0 && <p className="empty">No event was sent to this webhook yet.</p>}
      {rows.length > 0 && (
        <DataTable columns={["Event", "Status", "Response", "Attempts", "Next attempt", "Created"]} actions>
          {rows.map((d) => (
            <tr key={d.id}>
              <td>
                {d.eventType}
                <div className="muted small">
                  <code>{d.messageId}</code>
                  {d.redeliveryOf ? " · redelivery" : ""}
                </div>
              </td>
              <td>
                <span className={`badge status-${d.status}`}>{d.status}</span>
              </td>
              <td>{d.responseStatus === 0 ? "—" : d.responseStatus}</td>
              <td>
                <details>
                  <summary>
                    {d.attempts.length} {d.attempts.length === 1 ? "attempt" : "attempts"}
                  </summary>
                  <ol className="attempts">
                    {d.attempts.map((a, i) => (
                      <li key={i}>
                        {formatTime(a.at)}: {a.responseStatus === 0 ? "no answer" : a.responseStatus} in{" "}
                        {a.durationMs} ms{a.error ? ` — ${a.error}` : ""}
                      </li>
                    ))}
                  </ol>
                </details>
              </td>
              <td>{formatTime(d.nextAttemptAt)}</td>
              <td>{formatTime(d.createdAt)}</td>
              <td>
                <div className="row-actions">
                  <button
                    type="button"
                    aria-label={`Redeliver ${d.eventType} ${d.messageId}`}
                    onClick={() => redeliver.mutate(d)}
                    disabled={redeliver.isPending}
                  >
                    Redeliver
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </section>
  );
}
