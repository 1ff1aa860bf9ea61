import { useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { webhookQueries } from "../../api/queries/webhooks";
import type { Webhook, WebhookWithSecret } from "../../api/models";
import { DataTable } from "../../app/fields";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";
import { Deliveries } from "./Deliveries";
import { DeleteDialog, RotateDialog, SecretDialog } from "./dialogs";
import { WebhookDialog } from "./WebhookDialog";

// WebhooksPage lists the active project's webhooks, creates, edits and deletes them, rotates their secrets, and
// shows each one's deliveries with their attempts (docs/runs.md, "Webhooks").
export function WebhooksPage() {
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<WebhookWithSecret | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const list = useQuery(webhookQueries.list());
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

export default WebhooksPage;
