import { useQuery } from "@tanstack/react-query";
import { RUN_LOGS_PATTERN, useApiPaths } from "../../api/live";
import { runQueries } from "../../api/queries/runs";
import { isFinalRun, type Run } from "../../api/models";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";

// LogsPanel shows the run's console output and exceptions (GET …/runs/:runId/logs) where the server records them,
// read again every two seconds while the run is not final.
export function LogsPanel({ workflowId, run }: { workflowId: string; run: Run }) {
  const paths = useApiPaths();
  const has = paths?.has(RUN_LOGS_PATTERN) ?? false;
  const final = isFinalRun(run.status);
  const logs = useQuery({
    ...runQueries.logs(workflowId, run.id),
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
