import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api } from "../api/client";
import { parseJsonObject } from "../api/forms";
import type { Page, Run, WorkflowFull } from "../api/types";
import { Link } from "../app/Link";
import { ErrorMessage, formatTime, Loading, StatusBadge } from "../app/ui";

// RunPanel triggers a run of the deployed workflow with JSON params and opens the run's page.
export function RunPanel({ full }: { full: WorkflowFull }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const [text, setText] = useState("{\n  \n}");
  const [error, setError] = useState("");
  const dep = full.activeDeployment;
  const trigger = useMutation({
    mutationFn: (params: Record<string, unknown>) =>
      api.post<{ id: string }>(`/api/workflows/${full.workflow.id}/trigger`, { connectionId: dep!.connectionId, params }),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: ["runs"] });
      void qc.invalidateQueries({ queryKey: ["workflow", full.workflow.id, "runs"] });
      navigate(`/workflows/${full.workflow.id}/runs/${r.id}`);
    },
  });
  return (
    <section className="panel" aria-labelledby="run-title">
      <h2 id="run-title">Run</h2>
      {!dep ? (
        <p className="muted">Deploy the workflow first: a run starts on its deployment.</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const p = parseJsonObject(text);
            if ("error" in p) {
              setError(p.error);
              return;
            }
            setError("");
            trigger.mutate(p.value);
          }}
        >
          <div className="field">
            <label htmlFor="run-params">Params (JSON)</label>
            <textarea
              id="run-params"
              className="code"
              rows={8}
              spellCheck={false}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby="run-params-hint"
            />
            <p id="run-params-hint" className="hint">
              The trigger payload: the code reads it as <code>event.payload</code>.
            </p>
            {error && <p className="field-error">{error}</p>}
          </div>
          <ErrorMessage error={trigger.error} title="Not started" />
          <button type="submit" className="primary" disabled={trigger.isPending}>
            {trigger.isPending ? "Starting…" : "Start run"}
          </button>
        </form>
      )}
    </section>
  );
}

// InvokePanel shows how to call a deployed function: it answers at its own URL (docs/deploy.md, "Functions").
export function InvokePanel({ full }: { full: WorkflowFull }) {
  const [text, setText] = useState('{\n  "hello": "world"\n}');
  const dep = full.activeDeployment;
  const parsed = parseJsonObject(text);
  const body = "value" in parsed ? JSON.stringify(parsed.value) : "";
  const curl = dep ? `curl -s -X POST -H 'Content-Type: application/json' -d '${body.replace(/'/g, "'\\''")}' ${dep.url}` : "";
  return (
    <section className="panel" aria-labelledby="invoke-title">
      <h2 id="invoke-title">Invoke</h2>
      {!dep ? (
        <p className="muted">Deploy the function first: it answers at its deployment's URL.</p>
      ) : (
        <>
          <p className="small">
            The function answers POST requests with a JSON body at <code className="break">{dep.url}</code>.
          </p>
          <div className="field">
            <label htmlFor="invoke-body">Body (JSON)</label>
            <textarea id="invoke-body" className="code" rows={6} spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} />
            {"error" in parsed && <p className="field-error">{parsed.error}</p>}
          </div>
          {body && (
            <div className="field">
              <label htmlFor="invoke-curl">Command</label>
              <textarea id="invoke-curl" className="code" rows={4} readOnly value={curl} />
              <button type="button" onClick={() => void navigator.clipboard?.writeText(curl)}>
                Copy command
              </button>
            </div>
          )}
        </>
      )}
    </section>
  );
}

// RecentRuns lists the workflow's newest runs. The list holds the stored state of each run; the run shown on the
// page (current) is newer, so its row shows that.
export function RecentRuns({ workflowId, currentRunId, current }: { workflowId: string; currentRunId?: string; current?: Run }) {
  const runs = useQuery({
    queryKey: ["workflow", workflowId, "runs"],
    queryFn: () => api.get<Page<Run>>(`/api/workflows/${workflowId}/runs?limit=20`),
    refetchInterval: 5_000,
  });
  return (
    <section className="panel" aria-labelledby="runs-title">
      <h2 id="runs-title">Recent runs</h2>
      {runs.isPending && <Loading what="runs" />}
      <ErrorMessage error={runs.error} />
      {runs.isSuccess && runs.data.data.length === 0 && <p className="muted">No runs yet. Deploy, then Run.</p>}
      <ul className="run-list">
        {runs.data?.data.map((listed) => {
          const r = current && current.id === listed.id ? current : listed;
          return (
          <li key={r.id} className={r.id === currentRunId ? "current" : undefined}>
            <Link href={`/workflows/${workflowId}/runs/${r.id}`} aria-current={r.id === currentRunId ? "page" : undefined}>
              <StatusBadge status={r.status} detail={r.statusDetail} /> <span className="small">{formatTime(r.createdAt)}</span>
            </Link>
          </li>
          );
        })}
      </ul>
    </section>
  );
}
