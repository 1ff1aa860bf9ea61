import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { parseJsonObject } from "../../api/forms";
import { eventKeys, eventQueries } from "../../api/queries/events";
import { runKeys } from "../../api/queries/runs";
import { useAllWorkflows } from "../../api/queries/useAllWorkflows";
import type { SentEvent } from "../../api/models";
import { DataTable } from "../../app/fields";
import { Link } from "../../app/Link";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";
import "../settings/settings.css";

// EventsPage sends an event by type to every run of the project waiting for it (a wait_for_event node of that
// type), optionally one workflow's runs, lists the recent events with the runs they reached, and replays one
// (docs/runs.md, "Events").
export function EventsPage() {
  const qc = useQueryClient();
  const list = useQuery(eventQueries.list());
  const { workflows } = useAllWorkflows();
  const names = new Map(workflows.map((w) => [w.id, w.name]));
  const [last, setLast] = useState<SentEvent | null>(null);
  const sent = (e: SentEvent) => {
    setLast(e);
    void qc.invalidateQueries({ queryKey: eventKeys.all });
    void qc.invalidateQueries({ queryKey: runKeys.lists });
    void qc.invalidateQueries({ queryKey: runKeys.everyRun });
  };
  const replay = useMutation({
    mutationFn: (id: string) => ok(api.POST("/api/events/{eventId}/replay", { params: { path: { eventId: id } } })),
    onSuccess: sent,
  });
  const events = list.data?.data ?? [];
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <h1>Events</h1>
          <p className="muted">
            Send an event by type to every run of this project that waits for it (a Wait for event node of that type).
          </p>
        </div>
      </div>
      <SendForm workflows={workflows} onSent={sent} />
      {last && (
        <p className="ok" role="status">
          {outcome(last)}
        </p>
      )}
      <ErrorMessage error={replay.error} title="Not replayed" />
      <h2>Recent events</h2>
      {list.isPending && <Loading what="events" />}
      <ErrorMessage error={list.error} title="The events could not be loaded" />
      {list.isSuccess && events.length === 0 && (
        <div className="empty">
          <p>No event has been sent by type in this project yet.</p>
        </div>
      )}
      {events.length > 0 && (
        <DataTable columns={["Type", "Workflow", "Runs reached", "Sent"]} actions label="Recent events">
          {events.map((e) => (
            <tr key={e.id}>
              <td>
                <code>{e.type}</code>
                {e.replayOf && <span className="small muted"> (replay)</span>}
              </td>
              <td>{e.workflowId ? (names.get(e.workflowId) ?? e.workflowId) : "All workflows"}</td>
              <td>
                <RunsReached event={e} names={names} />
              </td>
              <td>{formatTime(e.createdAt)}</td>
              <td>
                <div className="row-actions">
                  <button
                    type="button"
                    aria-label={`Replay ${e.type} sent ${formatTime(e.createdAt)}`}
                    disabled={replay.isPending}
                    onClick={() => replay.mutate(e.id)}
                  >
                    Replay
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
    </main>
  );
}

// outcome says what a send did, in a sentence.
function outcome(e: SentEvent): string {
  const delivered = e.runs.filter((r) => r.state === "delivered").length;
  const failed = e.runs.length - delivered;
  if (e.runs.length === 0) return `No run was waiting for “${e.type}”.`;
  let s = `“${e.type}” sent to ${delivered} waiting run${delivered === 1 ? "" : "s"}`;
  if (failed > 0) s += `; ${failed} could not take it`;
  if (e.truncated) s += "; more runs may be waiting: send it again";
  return s + ".";
}

// RunsReached lists the runs an event reached, each a link to its run page, with why a delivery failed.
function RunsReached({ event, names }: { event: SentEvent; names: Map<string, string> }) {
  if (event.runs.length === 0) return <span className="muted">none waiting</span>;
  return (
    <ul className="plain">
      {event.runs.map((r) => (
        <li key={r.runId}>
          <Link href={`/workflows/${r.workflowId}/runs/${r.runId}`}>
            {names.get(r.workflowId) ?? r.workflowId} · <code>{r.runId}</code>
          </Link>{" "}
          {r.state === "delivered" ? (
            <span className="small muted">delivered</span>
          ) : (
            <span className="small field-error">not delivered: {r.error}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

// SendForm sends an event by type: the type, the workflow to limit it to (all by default) and its JSON payload.
function SendForm({
  workflows,
  onSent,
}: {
  workflows: { id: string; name: string }[];
  onSent: (e: SentEvent) => void;
}) {
  const [type, setType] = useState("");
  const [workflowId, setWorkflowId] = useState("");
  const [payload, setPayload] = useState("{\n  \n}");
  const [error, setError] = useState("");
  const m = useMutation({
    mutationFn: (p: Record<string, unknown>) =>
      ok(
        api.POST("/api/events", {
          body: { type: type.trim(), payload: p, ...(workflowId ? { workflowId } : {}) },
        }),
      ),
    onSuccess: onSent,
  });
  return (
    <section className="panel" aria-labelledby="send-event-title">
      <h2 id="send-event-title">Send an event</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (type.trim() === "") {
            setError("Enter the event type the runs wait for.");
            return;
          }
          const p = parseJsonObject(payload);
          if ("error" in p) {
            setError(p.error);
            return;
          }
          setError("");
          m.mutate(p.value);
        }}
      >
        <div className="field">
          <label htmlFor="send-event-type">Event type</label>
          <input
            id="send-event-type"
            className="code"
            placeholder="approval"
            value={type}
            onChange={(e) => setType(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="send-event-workflow">Workflow</label>
          <select id="send-event-workflow" value={workflowId} onChange={(e) => setWorkflowId(e.target.value)}>
            <option value="">All workflows</option>
            {workflows.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="send-event-payload">Payload (JSON)</label>
          <textarea
            id="send-event-payload"
            className="code"
            rows={5}
            spellCheck={false}
            value={payload}
            onChange={(e) => setPayload(e.target.value)}
          />
        </div>
        {error && <p className="field-error">{error}</p>}
        <ErrorMessage error={m.error} title="Not sent" />
        <button type="submit" className="primary" disabled={m.isPending}>
          Send event
        </button>
      </form>
    </section>
  );
}

export default EventsPage;
