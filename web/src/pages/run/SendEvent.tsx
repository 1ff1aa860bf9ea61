import { useState } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { parseJsonObject } from "../../api/forms";
import { workflowQueries } from "../../api/queries/workflows";
import type { Run } from "../../api/models";
import { ErrorMessage } from "../../app/ui";

// SendEvent sends the event a waiting run waits for (POST …/trigger with the run's instance and the event type),
// offering the event types the run's version waits for.
export function SendEvent({ workflowId, run, onSent }: { workflowId: string; run: Run; onSent: () => void }) {
  const [typed, setTyped] = useState<string | null>(null);
  // the event types the run's version waits for (its wait_for_event nodes), offered as suggestions
  const version = useQuery({ ...workflowQueries.version(workflowId, run.versionId), enabled: run.versionId !== "" });
  const eventTypes = [
    ...new Set(
      (version.data?.ir.nodes ?? [])
        .filter((n) => n.type === "wait_for_event" && typeof n.data.eventType === "string")
        .map((n) => n.data.eventType as string),
    ),
  ];
  const eventType = typed ?? eventTypes[0] ?? "";
  const setEventType = (v: string) => setTyped(v);
  const [payload, setPayload] = useState("{\n  \n}");
  const [error, setError] = useState("");
  const m = useMutation({
    mutationFn: (p: Record<string, unknown>) =>
      ok(
        api.POST("/api/workflows/{workflowId}/trigger", {
          params: { path: { workflowId } },
          body: {
            connectionId: run.connectionId,
            params: { instanceId: run.instanceId, eventType: eventType.trim(), payload: p },
          },
        }),
      ),
    onSuccess: onSent,
  });
  return (
    <section className="panel send-event" aria-labelledby="event-title">
      <h2 id="event-title">Send event</h2>
      <p className="small muted">The run waits for an event. Send it one to go on.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const p = parseJsonObject(payload);
          if (eventType.trim() === "") {
            setError("Enter the event type the run waits for.");
            return;
          }
          if ("error" in p) {
            setError(p.error);
            return;
          }
          setError("");
          m.mutate(p.value);
        }}
      >
        <div className="field">
          <label htmlFor="event-type">Event type</label>
          <input
            id="event-type"
            className="code"
            list="event-types"
            value={eventType}
            onChange={(e) => setEventType(e.target.value)}
          />
          <datalist id="event-types">
            {eventTypes.map((t) => (
              <option key={t} value={t} />
            ))}
          </datalist>
        </div>
        <div className="field">
          <label htmlFor="event-payload">Payload (JSON)</label>
          <textarea id="event-payload" className="code" rows={5} spellCheck={false} value={payload} onChange={(e) => setPayload(e.target.value)} />
        </div>
        {error && <p className="field-error">{error}</p>}
        <ErrorMessage error={m.error} title="Not sent" />
        {m.isSuccess && <p className="ok" role="status">Event sent.</p>}
        <button type="submit" className="primary" disabled={m.isPending}>
          Send event
        </button>
      </form>
    </section>
  );
}
