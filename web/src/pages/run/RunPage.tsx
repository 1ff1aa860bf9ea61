import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { invalidateRunLists } from "../../api/queries/runs";
import type { RunStep } from "../../api/models";
import { Link } from "../../app/Link";
import { Dialog, ErrorMessage, formatDuration, formatTime, Json, Loading, StatusBadge } from "../../app/ui";
import type { WorkflowIR } from "../../ir/types";
import { RunGraph } from "../../runs/RunGraph";
import { containerEntries, outputSource } from "../../runs/steps";
import { AgentConversations } from "./AgentConversation";
import { LogsPanel } from "./LogsPanel";
import { RecentRuns } from "./RecentRuns";
import { ReplayPanel } from "./ReplayPanel";
import { RestartPanel } from "./RestartPanel";
import { SendEvent } from "./SendEvent";
import { StepOutputDialog } from "./StepOutputDialog";
import { Rollbacks, StepTimeline } from "./StepTimeline";
import { TraceLink } from "./TraceLink";
import { Waterfall } from "./Waterfall";
import { useRunQueries } from "./useRunQueries";

// RunPage is /workflows/:id/runs/:runId: the run (read by its id, so a run kept after its workflow was deleted
// shows too) with its graph coloured by step state, the timeline of its steps, its rollbacks in order, the conversation of each agent node
// and the tokens they used, input, output, error and logs, updated every second until it is final; pause, resume,
// terminate (after a confirmation), send an event, and restart from a step chosen on the graph.
export default function RunPage({ workflowId, runId }: { workflowId: string; runId: string }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const { run, workflow, version, control, final, deleted } = useRunQueries(workflowId, runId);
  const r = run.data;
  const [confirmTerminate, setConfirmTerminate] = useState(false);
  const [fromStep, setFromStep] = useState("");
  const [outputOf, setOutputOf] = useState<RunStep | null>(null);
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
          {r && <TraceLink run={r} />}
          {r?.replayOf && (
            <p className="small">
              Replay of <Link href={`/workflows/${workflowId}/runs/${r.replayOf}`}>run {r.replayOf}</Link>
              {r.fromStep ? ` from step ${r.fromStep}` : " from the start"}
              {r.paramsChanged ? ", with changed params" : ", with the same params"}.
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
            <button
              type="button"
              className="danger"
              onClick={() => setConfirmTerminate(true)}
              disabled={control.isPending}
            >
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
          The workflow {deleted.name} was deleted on {formatTime(deleted.deletedAt)}; this run was kept. It can no
          longer be paused, resumed or restarted.
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
              {r.usage && (
                <>
                  <dt>Tokens</dt>
                  <dd>
                    {r.usage.inputTokens} in, {r.usage.outputTokens} out
                  </dd>
                </>
              )}
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
                  invalidateRunLists(qc, workflowId);
                  if (next.id === runId)
                    void run.refetch(); // restarted in place: the same run, running again
                  else navigate(`/workflows/${workflowId}/runs/${next.id}`);
                }}
              />
            )}
            {!deleted && (
              <ReplayPanel
                workflowId={workflowId}
                run={r}
                fromStep={fromStep}
                onReplayed={(next) => {
                  invalidateRunLists(qc, workflowId);
                  navigate(`/workflows/${workflowId}/runs/${next.id}`);
                }}
              />
            )}
            <h2>Steps</h2>
            <Waterfall steps={steps} />
            <StepTimeline
              steps={steps}
              containers={version.data ? containerEntries(version.data.ir.nodes, version.data.ir.edges, steps) : []}
              onOpenOutput={deleted ? undefined : setOutputOf}
            />
            <Rollbacks steps={steps} />
            {outputOf && (
              <StepOutputDialog
                workflowId={workflowId}
                runId={runId}
                step={outputOf}
                onClose={() => setOutputOf(null)}
              />
            )}
            <AgentConversations steps={steps} />
            <h2>Input</h2>
            <Json value={r.params} label="Input" />
            <h2>Output</h2>
            <OutputFrom ir={version.data?.ir} steps={steps} final={final} />
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
        <aside className="side">
          {!deleted && r && <RecentRuns workflowId={workflowId} currentRunId={runId} current={r} />}
        </aside>
      </div>
    </main>
  );
}

// OutputFrom says which node a finished run's output came from (docs/ir.md, "The run's output").
function OutputFrom({ ir, steps, final }: { ir?: WorkflowIR; steps: readonly RunStep[]; final: boolean }) {
  if (!final || !ir) return null;
  const id = outputSource(ir.outputNodeId, steps);
  const node = id ? ir.nodes.find((n) => n.id === id) : undefined;
  if (!node) return null;
  return (
    <p className="muted small">
      From <strong>{node.name || node.id}</strong> (<code>{node.id}</code>)
      {ir.outputNodeId ? ", the workflow's output node" : ", the last node that completed"}.
    </p>
  );
}
