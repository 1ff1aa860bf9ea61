import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import { parseJsonObject } from "../api/forms";
import { isFinalRun, type Run, type RunStep, type Version, type Workflow } from "../api/types";
import { Link } from "../app/Link";
import { isNotFound, WorkflowNotFound } from "./NotFound";
import { ErrorMessage, formatDuration, formatTime, Json, Loading, StatusBadge } from "../app/ui";
import { RecentRuns } from "./RunPanels";

// stepState names a step's state from its record: done, failed, running (started, not ended), pending (not
// started), or stopped (never ended in a run that is over: a race's losing arm, a terminated run).
export function stepState(s: RunStep, runFinal: boolean): "done" | "failed" | "running" | "pending" | "stopped" {
  if (s.success === false) return "failed";
  if (s.success === true || (s.start && s.end)) return "done";
  if (runFinal) return "stopped";
  if (s.start) return "running";
  return "pending";
}

// RunPage is /workflows/:id/runs/:runId: the run with its steps, updated every second until it is final, with
// pause, resume, terminate and send-event.
export default function RunPage({ workflowId, runId }: { workflowId: string; runId: string }) {
  const qc = useQueryClient();
  const key = ["workflow", workflowId, "run", runId];
  const workflow = useQuery({
    queryKey: ["workflow", workflowId, "record"],
    queryFn: () => api.get<Workflow>(`/api/workflows/${workflowId}`),
  });
  const run = useQuery({
    queryKey: key,
    queryFn: () => api.get<Run>(`/api/workflows/${workflowId}/runs/${runId}`),
    refetchInterval: (q) =>
      (q.state.data && isFinalRun(q.state.data.status)) || isNotFound(q.state.error) ? false : q.state.error ? 5_000 : 1_000,
  });
  const control = useMutation({
    mutationFn: (action: "pause" | "resume" | "terminate") =>
      api.post<Run>(`/api/workflows/${workflowId}/runs/${runId}/${action}`),
    onSuccess: (r) => {
      qc.setQueryData(key, r);
      void qc.invalidateQueries({ queryKey: ["workflow", workflowId, "runs"] });
    },
  });
  const r = run.data;
  const final = r ? isFinalRun(r.status) : false;
  useEffect(() => {
    // the run lists show the stored state: refresh them once the run is over
    if (final) void qc.invalidateQueries({ queryKey: ["workflow", workflowId, "runs"] });
  }, [final, qc, workflowId]);
  const name = workflow.data?.name ?? "…";
  if (isNotFound(workflow.error)) return <WorkflowNotFound workflowId={workflowId} error={workflow.error} />;
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <p className="crumbs">
            <Link href="/">Workflows</Link> / <Link href={`/workflows/${workflowId}`}>{name}</Link> / run
          </p>
          <h1>
            Run <code>{runId}</code>
          </h1>
        </div>
        {r && !isFinalRun(r.status) && (
          <div className="head-actions">
            {r.status === "running" && (
              <button type="button" onClick={() => control.mutate("pause")} disabled={control.isPending}>
                Pause
              </button>
            )}
            {r.status === "paused" && r.statusDetail === "paused" && (
              <button type="button" onClick={() => control.mutate("resume")} disabled={control.isPending}>
                Resume
              </button>
            )}
            <button type="button" className="danger" onClick={() => control.mutate("terminate")} disabled={control.isPending}>
              Terminate
            </button>
          </div>
        )}
      </div>
      <ErrorMessage error={control.error} title="The run did not change" />
      {run.isPending && <Loading what="the run" />}
      <ErrorMessage error={run.error} title="The run could not be loaded" />
      <div className="run-layout">
        {r && (
          <div>
            <dl className="facts">
              <dt>Status</dt>
              <dd>
                <span role="status" aria-live="polite">
                  <StatusBadge status={r.status} detail={r.statusDetail} />
                </span>
                {!isFinalRun(r.status) && <span className="muted small"> updating every second</span>}
              </dd>
              <dt>Started</dt>
              <dd>{formatTime(r.startedAt ?? r.createdAt)}</dd>
              <dt>Ended</dt>
              <dd>{formatTime(r.endedAt)}</dd>
              <dt>Duration</dt>
              <dd>{formatDuration(r.startedAt ?? r.createdAt, r.endedAt)}</dd>
              <dt>Instance</dt>
              <dd>
                <code>{r.instanceId}</code>
              </dd>
            </dl>
            {r.status === "paused" && r.statusDetail === "waiting" && <SendEvent workflowId={workflowId} run={r} onSent={() => void run.refetch()} />}
            <h2>Steps</h2>
            {(r.steps ?? []).length === 0 ? (
              <p className="muted">No step has run yet.</p>
            ) : (
              <ol className="steps">
                {(r.steps ?? []).map((s, i) => {
                  const state = stepState(s, isFinalRun(r.status));
                  return (
                    <li key={i} className={`step state-${state}`}>
                      <div className="step-head">
                        <span className={`badge step-${state}`}>{state}</span> <strong>{s.name}</strong>{" "}
                        <span className="muted small">
                          {s.type} · {formatDuration(s.start, s.end)}
                          {s.attempts && s.attempts.length > 1 ? ` · ${s.attempts.length} attempts` : ""}
                        </span>
                      </div>
                      {s.output !== undefined && s.output !== null && (
                        <details>
                          <summary>Output of {s.name}</summary>
                          <Json value={s.output} label={`Output of ${s.name}`} />
                        </details>
                      )}
                      {s.error !== undefined && s.error !== null && <Json value={s.error} label={`Error of ${s.name}`} />}
                    </li>
                  );
                })}
              </ol>
            )}
            <h2>Params</h2>
            <Json value={r.params} label="Params" />
            <h2>Output</h2>
            <Json value={r.output} label="Output" />
            {r.error !== undefined && r.error !== null && (
              <>
                <h2>Error</h2>
                <Json value={r.error} label="Error" />
              </>
            )}
          </div>
        )}
        <aside className="side">
          <RecentRuns workflowId={workflowId} currentRunId={runId} current={r} />
        </aside>
      </div>
    </main>
  );
}

function SendEvent({ workflowId, run, onSent }: { workflowId: string; run: Run; onSent: () => void }) {
  const [typed, setTyped] = useState<string | null>(null);
  // the event types the run's version waits for (its wait_for_event nodes), offered as suggestions
  const version = useQuery({
    queryKey: ["workflow", workflowId, "version", run.versionId],
    queryFn: () => api.get<Version>(`/api/workflows/${workflowId}/versions/${run.versionId}`),
    enabled: run.versionId !== "",
    staleTime: Infinity,
  });
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
      api.post<unknown>(`/api/workflows/${workflowId}/trigger`, {
        connectionId: run.connectionId,
        params: { instanceId: run.instanceId, eventType: eventType.trim(), payload: p },
      }),
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
