import { useEffect, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api } from "../api/client";
import { parseJsonObject } from "../api/forms";
import { RUN_LOGS_PATTERN, useApiPaths } from "../api/live";
import { isFinalRun, type LogLine, type Run, type RunStep, type Version, type Workflow } from "../api/types";
import { Link } from "../app/Link";
import { isNotFound } from "./NotFound";
import { Dialog, ErrorMessage, formatDuration, formatTime, Json, Loading, StatusBadge } from "../app/ui";
import { RecentRuns } from "./RunPanels";
import { RunGraph } from "../runs/RunGraph";
import { nodeStateOfStep, restartable, stateLabel } from "../runs/steps";

// RunPage is /workflows/:id/runs/:runId: the run (read by its id, so a run kept after its workflow was deleted
// shows too) with its graph coloured by step state, the timeline of its steps, input, output, error and logs,
// updated every second until it is final; pause, resume, terminate (after a confirmation), send an event, and
// restart from a step chosen on the graph.
export default function RunPage({ workflowId, runId }: { workflowId: string; runId: string }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const key = ["run", runId];
  const run = useQuery({
    queryKey: key,
    queryFn: () => api.get<Run>(`/api/runs/${runId}`),
    refetchInterval: (q) =>
      (q.state.data && isFinalRun(q.state.data.status)) || isNotFound(q.state.error) ? false : q.state.error ? 5_000 : 1_000,
  });
  const r = run.data;
  const deleted = r?.deletedWorkflow;
  const workflow = useQuery({
    queryKey: ["workflow", workflowId, "record"],
    queryFn: () => api.get<Workflow>(`/api/workflows/${workflowId}`),
    // a run read before its workflow was deleted (kept) may be in the cache: wait for the fresh one
    enabled: r !== undefined && !deleted && run.isFetchedAfterMount,
  });
  const version = useQuery({
    queryKey: ["workflow", workflowId, "version", r?.versionId],
    queryFn: () => api.get<Version>(`/api/workflows/${workflowId}/versions/${r!.versionId}`),
    enabled: r !== undefined && !deleted && run.isFetchedAfterMount && r.versionId !== "",
    staleTime: Infinity,
  });
  const control = useMutation({
    mutationFn: (action: "pause" | "resume" | "terminate") =>
      api.post<Run>(`/api/workflows/${workflowId}/runs/${runId}/${action}`),
    onSuccess: (next) => {
      qc.setQueryData(key, next);
      void qc.invalidateQueries({ queryKey: ["workflow", workflowId, "runs"] });
      void qc.invalidateQueries({ queryKey: ["runs"] });
    },
  });
  const [confirmTerminate, setConfirmTerminate] = useState(false);
  const [fromStep, setFromStep] = useState("");
  const final = r ? isFinalRun(r.status) : false;
  useEffect(() => {
    // the run lists show the stored state: refresh them once the run is over
    if (final) {
      void qc.invalidateQueries({ queryKey: ["workflow", workflowId, "runs"] });
      void qc.invalidateQueries({ queryKey: ["runs"] });
    }
  }, [final, qc, workflowId]);
  const name = deleted ? deleted.name : (workflow.data?.name ?? "…");
  const steps = r?.steps ?? [];
  return (
    <main className="page">
      <div className="page-head">
        <div>
          <p className="crumbs">
            <Link href="/runs">Runs</Link> /{" "}
            {deleted ? <span>{name} (deleted)</span> : <Link href={`/workflows/${workflowId}`}>{name}</Link>} / run
          </p>
          <h1>
            Run <code>{runId}</code>
          </h1>
          {r?.restartOf && (
            <p className="small">
              Restarted from <Link href={`/workflows/${workflowId}/runs/${r.restartOf}`}>run {r.restartOf}</Link>
              {r.fromStep ? ` at step ${r.fromStep}` : " from the start"}.
            </p>
          )}
        </div>
        {r && !final && !deleted && (
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
            <button type="button" className="danger" onClick={() => setConfirmTerminate(true)} disabled={control.isPending}>
              Terminate
            </button>
          </div>
        )}
      </div>
      {confirmTerminate && (
        <Dialog title="Terminate this run?" onClose={() => setConfirmTerminate(false)}>
          <p>The run stops where it is and cannot go on. Its steps so far stay recorded.</p>
          <div className="dialog-actions">
            <button type="button" onClick={() => setConfirmTerminate(false)}>
              Keep running
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                setConfirmTerminate(false);
                control.mutate("terminate");
              }}
            >
              Terminate run
            </button>
          </div>
        </Dialog>
      )}
      {deleted && (
        <p className="notice">
          The workflow {deleted.name} was deleted on {formatTime(deleted.deletedAt)}; this run was kept. It can no longer
          be paused, resumed or restarted.
        </p>
      )}
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
                {!final && <span className="muted small"> updating every second</span>}
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
            {r.status === "paused" && r.statusDetail === "waiting" && !deleted && (
              <SendEvent workflowId={workflowId} run={r} onSent={() => void run.refetch()} />
            )}
            <h2>Graph</h2>
            {version.data ? (
              <RunGraph ir={version.data.ir} steps={steps} selected={fromStep} onSelect={setFromStep} />
            ) : deleted ? (
              <p className="muted">The workflow's versions were deleted with it: the graph is gone.</p>
            ) : (
              <>
                {version.isPending && <Loading what="the graph" />}
                <ErrorMessage error={version.error} title="The graph could not be loaded" />
              </>
            )}
            {!deleted && version.data && (
              <RestartPanel
                workflowId={workflowId}
                run={r}
                version={version.data}
                fromStep={fromStep}
                setFromStep={setFromStep}
                onRestarted={(next) => {
                  void qc.invalidateQueries({ queryKey: ["runs"] });
                  void qc.invalidateQueries({ queryKey: ["workflow", workflowId, "runs"] });
                  navigate(`/workflows/${workflowId}/runs/${next.id}`);
                }}
              />
            )}
            <h2>Steps</h2>
            <StepTimeline steps={steps} />
            <h2>Input</h2>
            <Json value={r.params} label="Input" />
            <h2>Output</h2>
            <Json value={r.output} label="Output" />
            {r.error !== undefined && r.error !== null && r.error !== "" && (
              <>
                <h2>Error</h2>
                <Json value={r.error} label="Error" />
              </>
            )}
            <LogsPanel workflowId={workflowId} run={r} />
          </div>
        )}
        <aside className="side">{!deleted && r && <RecentRuns workflowId={workflowId} currentRunId={runId} current={r} />}</aside>
      </div>
    </main>
  );
}

// StepTimeline lists the run's steps in execution order with their state, times, attempts, output and error.
function StepTimeline({ steps }: { steps: readonly RunStep[] }) {
  if (steps.length === 0) return <p className="muted">No step has run yet.</p>;
  return (
    <ol className="steps" aria-label="Steps, in execution order">
      {steps.map((s, i) => {
        const state = nodeStateOfStep(s);
        return (
          <li key={i} className={`step state-${state}`}>
            <div className="step-head">
              <span className={`badge run-node-${state}`}>{s.state}</span> <strong>{s.name}</strong>{" "}
              <span className="muted small">
                {s.type} · {formatTime(s.startedAt)} · {formatDuration(s.startedAt, s.endedAt)}
                {s.attempts > 1 ? ` · ${s.attempts} attempts` : ""}
              </span>
            </div>
            {s.output !== undefined && s.output !== null && (
              <details>
                <summary>
                  Output of {s.name}
                  {s.outputTruncated ? " (first 64 KiB)" : ""}
                </summary>
                <Json value={s.output} label={`Output of ${s.name}`} />
              </details>
            )}
            {s.error && (
              <p className="step-error">
                <strong>{s.error.name}:</strong> {s.error.message}
              </p>
            )}
          </li>
        );
      })}
    </ol>
  );
}

// RestartPanel starts a new run from a step of this one: the step is chosen on the graph (or in the list), the
// version is the run's own or the one deployed now; a refusal is shown in the server's words.
function RestartPanel({
  workflowId,
  run,
  version,
  fromStep,
  setFromStep,
  onRestarted,
}: {
  workflowId: string;
  run: Run;
  version: Version;
  fromStep: string;
  setFromStep: (id: string) => void;
  onRestarted: (r: Run) => void;
}) {
  const [which, setWhich] = useState<"same" | "current">("same");
  const choices = version.ir.nodes.filter(restartable);
  const chosen = choices.find((n) => n.id === fromStep);
  const m = useMutation({
    mutationFn: () =>
      api.post<Run>(`/api/workflows/${workflowId}/runs/${run.id}/restart`, {
        ...(fromStep ? { fromStep } : {}),
        version: which,
      }),
    onSuccess: onRestarted,
  });
  const { reset } = m;
  useEffect(() => reset(), [fromStep, which, reset]); // a refusal was about the former choice
  const states = new Map(run.steps?.map((s) => [s.nodeId, nodeStateOfStep(s)]) ?? []);
  return (
    <section className="panel restart" aria-labelledby="restart-title">
      <h2 id="restart-title">Restart</h2>
      <p className="small muted">
        Click a step on the graph, or choose it below. The steps before it keep their outputs from this run; the new
        run executes from it on.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          m.mutate();
        }}
      >
        <div className="field">
          <label htmlFor="restart-from">Restart from</label>
          <select id="restart-from" value={fromStep} onChange={(e) => setFromStep(e.target.value)}>
            <option value="">the start</option>
            {choices.map((n) => (
              <option key={n.id} value={n.id}>
                {n.name || n.id} ({stateLabel(states.get(n.id) ?? "not-run")})
              </option>
            ))}
          </select>
        </div>
        <fieldset className="field">
          <legend>Version</legend>
          <label>
            <input type="radio" name="restart-version" checked={which === "same"} onChange={() => setWhich("same")} /> This
            run's version
          </label>
          <label>
            <input type="radio" name="restart-version" checked={which === "current"} onChange={() => setWhich("current")} />{" "}
            The version deployed now
          </label>
        </fieldset>
        <ErrorMessage error={m.error} title="Not restarted" />
        <button type="submit" className="primary" disabled={m.isPending}>
          {chosen ? `Restart from ${chosen.name || chosen.id}` : "Restart from the start"}
        </button>
      </form>
    </section>
  );
}

// LogsPanel shows the run's console output and exceptions (GET …/runs/:runId/logs) where the server records them,
// read again every two seconds while the run is not final.
function LogsPanel({ workflowId, run }: { workflowId: string; run: Run }) {
  const paths = useApiPaths();
  const has = paths?.has(RUN_LOGS_PATTERN) ?? false;
  const final = isFinalRun(run.status);
  const logs = useQuery({
    queryKey: ["run", run.id, "logs"],
    queryFn: () => api.get<{ data: LogLine[] }>(`/api/workflows/${workflowId}/runs/${run.id}/logs`),
    enabled: has && !run.deletedWorkflow,
    refetchInterval: final ? false : 2_000,
  });
  return (
    <section aria-labelledby="logs-title">
      <h2 id="logs-title">Logs</h2>
      {!paths ? (
        <Loading what="the logs" />
      ) : !has ? (
        <p className="muted">This server does not record the logs of runs.</p>
      ) : run.deletedWorkflow ? (
        <p className="muted">The logs went with the deleted workflow.</p>
      ) : (
        <>
          {logs.isPending && <Loading what="the logs" />}
          <ErrorMessage error={logs.error} title="The logs could not be loaded" />
          {logs.data && logs.data.data.length === 0 && <p className="muted">No log lines.</p>}
          {logs.data && logs.data.data.length > 0 && (
            <ol className="logs" aria-label="Log lines" tabIndex={0}>
              {logs.data.data.map((l, i) => (
                <li key={i} className={`log log-${l.level}`}>
                  <span className="muted">{formatTime(l.timestamp)}</span> <span className="log-level">{l.level}</span>{" "}
                  <span className="log-message">{l.message}</span>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
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
