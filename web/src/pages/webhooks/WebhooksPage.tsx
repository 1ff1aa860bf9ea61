import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import { fieldErrors, type FieldErrors } from "../api/forms";
import {
  webhookEventTypes,
  type Page,
  type Webhook,
  type WebhookDelivery,
  type WebhookWithSecret,
} from "../api/types";
import { ConfirmDialog, CopyField, DataTable, Field } from "../app/fields";
import { Dialog, ErrorMessage, formatTime, Loading } from "../app/ui";

// WebhooksPage lists the active project's webhooks, creates, edits and deletes them, rotates their secrets, and
// shows each one's deliveries with their attempts (docs/runs.md, "Webhooks").
export function WebhooksPage() {
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ["webhooks"],
    queryFn: () => api.get<Page<Webhook>>("/api/webhooks?limit=100"),
  });
  const hooks = list.data?.data ?? [];
  const current = hooks.find((h) => h.id === selected) ?? null;

  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>Webhooks</h1>
          <p className="muted">
            Each webhook receives this project's run and deploy events, signed with its secret (Standard Webhooks).
          </p>
        </div>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New webhook
        </button>
      </div>
      {list.isPending && <Loading what="webhooks" />}
      <ErrorMessage error={list.error} title="The webhooks could not be loaded" />
      {list.isSuccess && hooks.length === 0 && (
        <div className="empty">
          <p>This project has no webhooks yet.</p>
          <p className="muted">
            Choose <strong>New webhook</strong> to send run and deploy events to a URL of yours.
          </p>
        </div>
      )}
      {hooks.length > 0 && (
        <DataTable columns={["URL", "Events", "Created"]} actions>
          {hooks.map((h) => (
            <tr key={h.id} className={h.id === selected ? "selected" : undefined}>
              <td>
                <code>{h.url}</code>
              </td>
              <td>{h.events.length === 0 ? "All events" : h.events.join(", ")}</td>
              <td>{formatTime(h.createdAt)}</td>
              <td>
                <div className="row-actions">
                  <button
                    type="button"
                    aria-pressed={h.id === selected}
                    aria-label={`Deliveries of ${h.url}`}
                    onClick={() => setSelected(h.id === selected ? null : h.id)}
                  >
                    Deliveries
                  </button>
                  <button type="button" aria-label={`Edit ${h.url}`} onClick={() => setEditing(h)}>
                    Edit
                  </button>
                  <button type="button" aria-label={`Rotate secret of ${h.url}`} onClick={() => setRotating(h)}>
                    Rotate secret
                  </button>
                  <button type="button" aria-label={`Delete ${h.url}`} onClick={() => setDeleting(h)}>
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {current && <Deliveries hook={current} />}
      {creating && (
        <WebhookDialog
          onClose={() => setCreating(false)}
          onSaved={(h) => {
            setCreating(false);
            setSelected(h.id);
            if ("secret" in h) setSecret(h as WebhookWithSecret);
          }}
        />
      )}
      {editing && <WebhookDialog hook={editing} onClose={() => setEditing(null)} onSaved={() => setEditing(null)} />}
      {rotating && (
        <RotateDialog
          hook={rotating}
          onClose={() => setRotating(null)}
          onRotated={(h) => {
            setRotating(null);
            setSecret(h);
          }}
        />
      )}
      {deleting && (
        <DeleteDialog
          hook={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            if (deleting.id === selected) setSelected(null);
            setDeleting(null);
          }}
        />
      )}
      {secret && <SecretDialog hook={secret} onClose={() => setSecret(null)} />}
    </main>
  );
}

// WebhookDialog creates a webhook (no hook given) or changes one's URL and events.
function WebhookDialog({
  hook,
  onClose,
  onSaved,
}: {
  hook?: Webhook;
  onClose: () => void;
  onSaved: (h: Webhook | WebhookWithSecret) => void;
}) {
  const qc = useQueryClient();
  const [url, setURL] = useState(hook?.url ?? "");
  const [events, setEvents] = useState<string[]>(hook?.events ?? []);
  const [errors, setErrors] = useState<FieldErrors>({});
  const m = useMutation({
    mutationFn: () =>
      hook
        ? api.patch<Webhook>(`/api/webhooks/${hook.id}`, { url: url.trim(), events })
        : api.post<WebhookWithSecret>("/api/webhooks", { url: url.trim(), events }),
    onSuccess: (h) => {
      void qc.invalidateQueries({ queryKey: ["webhooks"], exact: true });
      onSaved(h);
    },
    onError: (err) => setErrors(fieldErrors(err, ["url", "events"])),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err = url.trim() === "" ? "Enter the URL that receives the events." : "";
    setErrors(err ? { url: err } : {});
    if (!err) m.mutate();
  };
  const toggle = (t: string, on: boolean) =>
    setEvents((cur) => (on ? webhookEventTypes.filter((x) => x === t || cur.includes(x)) : cur.filter((x) => x !== t)));
  return (
    <Dialog title={hook ? "Edit webhook" : "New webhook"} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field id="webhook-url" label="Endpoint URL" type="url" value={url} autoFocus placeholder="https://example.com/edgeflow-events" onChange={setURL} error={errors.url} />
        <fieldset>
          <legend>Events</legend>
          <p className="hint">None checked sends every event.</p>
          {webhookEventTypes.map((t) => (
            <div className="choice" key={t}>
              <input
                type="checkbox"
                id={`event-${t}`}
                checked={events.includes(t)}
                onChange={(e) => toggle(t, e.target.checked)}
              />
              <label htmlFor={`event-${t}`}>{t}</label>
            </div>
          ))}
          {errors.events && <p className="field-error">{errors.events}</p>}
        </fieldset>
        {errors[""] && <ErrorMessage error={m.error} />}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={m.isPending}>
            {hook ? "Save changes" : "Create webhook"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

// SecretDialog shows a signing secret, which the server shows only this once, with a Copy button.
function SecretDialog({ hook, onClose }: { hook: WebhookWithSecret; onClose: () => void }) {
  return (
    <Dialog title="Signing secret" onClose={onClose}>
      <p>
        Copy the secret of <code>{hook.url}</code> now: it is shown only this once. It signs every message (the{" "}
        <code>webhook-signature</code> header); docs/runs.md shows how to verify it.
      </p>
      <CopyField id="webhook-secret" label="Secret" value={hook.secret} what="secret" />
      <div className="actions">
        <button type="button" className="primary" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
}

function RotateDialog({
  hook,
  onClose,
  onRotated,
}: {
  hook: Webhook;
  onClose: () => void;
  onRotated: (h: WebhookWithSecret) => void;
}) {
  const m = useMutation({
    mutationFn: () => api.post<WebhookWithSecret>(`/api/webhooks/${hook.id}/rotate-secret`),
    onSuccess: onRotated,
  });
  return (
    <ConfirmDialog
      title="Rotate the secret?"
      action="Rotate secret"
      failure="Not rotated"
      error={m.error}
      pending={m.isPending}
      onConfirm={() => m.mutate()}
      onClose={onClose}
    >
      <p>
        A new secret replaces the current one of <code>{hook.url}</code> at once: messages signed from now on, retries
        included, verify only with the new secret.
      </p>
    </ConfirmDialog>
  );
}

function DeleteDialog({ hook, onClose, onDeleted }: { hook: Webhook; onClose: () => void; onDeleted: () => void }) {
  const qc = useQueryClient();
  const m = useMutation({
    mutationFn: () => api.del<void>(`/api/webhooks/${hook.id}`),
    onSuccess: () => {
      onDeleted();
      qc.removeQueries({ queryKey: ["webhooks", hook.id] });
      void qc.invalidateQueries({ queryKey: ["webhooks"], exact: true });
    },
  });
  return (
    <ConfirmDialog
      title="Delete the webhook?"
      action="Delete webhook"
      danger
      failure="Not deleted"
      error={m.error}
      pending={m.isPending}
      onConfirm={() => m.mutate()}
      onClose={onClose}
    >
      <p>
        <code>{hook.url}</code> receives no more events, and its deliveries are deleted with it. This cannot be undone.
      </p>
    </ConfirmDialog>
  );
}

// Deliveries lists a webhook's deliveries, refreshed every few seconds while some are pending.
function Deliveries({ hook }: { hook: Webhook }) {
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ["webhooks", hook.id, "deliveries"],
    queryFn: () => api.get<Page<WebhookDelivery>>(`/api/webhooks/${hook.id}/deliveries?limit=50`),
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === "pending") ? 2000 : 10000),
  });
  const redeliver = useMutation({
    mutationFn: (d: WebhookDelivery) =>
      api.post<WebhookDelivery>(`/api/webhooks/${hook.id}/deliveries/${d.id}/redeliver`),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ["webhooks", hook.id, "deliveries"] }),
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

export default WebhooksPage;
