import { useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { fieldErrors, type FieldErrors } from "../../api/forms";
import { webhookQueries } from "../../api/queries/webhooks";
import { webhookEventTypes, type Webhook, type WebhookWithSecret } from "../../api/models";
import { Field } from "../../app/fields";
import { Dialog, ErrorMessage } from "../../app/ui";

// WebhookDialog creates a webhook (no hook given) or changes one's URL and events.
export function WebhookDialog({
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
        ? ok(api.PATCH("/api/webhooks/{id}", { params: { path: { id: hook.id } }, body: { url: url.trim(), events } }))
        : ok(api.POST("/api/webhooks", { body: { url: url.trim(), events } })),
    onSuccess: (h) => {
      void qc.invalidateQueries({ queryKey: webhookQueries.list().queryKey });
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
