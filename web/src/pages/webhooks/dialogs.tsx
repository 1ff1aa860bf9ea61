// The webhook page's confirmations: the secret shown once, rotating it, deleting a webhook.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { webhookKeys, webhookQueries } from "../../api/queries/webhooks";
import type { Webhook, WebhookWithSecret } from "../../api/models";
import { ConfirmDialog, CopyField } from "../../app/fields";
import { Dialog } from "../../app/ui";

// SecretDialog shows a signing secret, which the server shows only this once, with a Copy button.
export function SecretDialog({ hook, onClose }: { hook: WebhookWithSecret; onClose: () => void }) {
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

export function RotateDialog({
  hook,
  onClose,
  onRotated,
}: {
  hook: Webhook;
  onClose: () => void;
  onRotated: (h: WebhookWithSecret) => void;
}) {
  const m = useMutation({
    mutationFn: () => ok(api.POST("/api/webhooks/{id}/rotate-secret", { params: { path: { id: hook.id } } })),
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

export function DeleteDialog({ hook, onClose, onDeleted }: { hook: Webhook; onClose: () => void; onDeleted: () => void }) {
  const qc = useQueryClient();
  const m = useMutation({
    mutationFn: () => ok(api.DELETE("/api/webhooks/{id}", { params: { path: { id: hook.id } } })),
    onSuccess: () => {
      onDeleted();
      qc.removeQueries({ queryKey: webhookKeys.one(hook.id) });
      void qc.invalidateQueries({ queryKey: webhookQueries.list().queryKey });
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
