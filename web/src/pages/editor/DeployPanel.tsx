import { useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { connectionKeys, connectionQueries } from "../../api/queries/connections";
import { deploymentKeys } from "../../api/queries/deployments";
import { workflowKeys } from "../../api/queries/workflows";
import { deployStream, type DeployProgress, type DeployResult } from "../../api/sse";
import type { WorkflowFull } from "../../api/models";
import { ErrorMessage, Loading } from "../../app/ui";
import { DeployEstimate } from "./DeployEstimate";

// DeployPanel deploys the current version to a connection, showing each stage of the deploy as it happens.
export function DeployPanel({ full, dirty }: { full: WorkflowFull; dirty: boolean }) {
  const qc = useQueryClient();
  const connections = useQuery(connectionQueries.firstPage());
  const [chosen, setChosen] = useState("");
  const [stages, setStages] = useState<DeployProgress[]>([]);
  const abort = useRef<AbortController | null>(null);
  const list = connections.data?.data ?? [];
  const connectionId = chosen || full.activeDeployment?.connectionId || list[0]?.id || "";

  const createLocal = useMutation({
    mutationFn: () => ok(api.POST("/api/connections", { body: { provider: "local", name: "Local edge" } })),
    onSuccess: (c) => {
      setChosen(c.id);
      void qc.invalidateQueries({ queryKey: connectionKeys.all });
    },
  });
  const deploy = useMutation({
    mutationFn: (): Promise<DeployResult> => {
      setStages([]);
      abort.current = new AbortController();
      return deployStream(
        full.workflow.id,
        { connectionId, versionId: full.currentVersion?.id },
        (p) => setStages((s) => [...s, p]),
        abort.current.signal,
      );
    },
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: workflowKeys.one(full.workflow.id) });
      void qc.invalidateQueries({ queryKey: deploymentKeys.all });
    },
  });
  const last = stages[stages.length - 1];
  const active = full.activeDeployment;

  return (
    <section className="panel" aria-labelledby="deploy-title">
      <h2 id="deploy-title">Deploy</h2>
      {active ? (
        <p className="small">
          Deployed: version {full.versions.find((v) => v.id === active.versionId)?.version ?? active.versionId} at{" "}
          <code className="break">{active.url}</code>
        </p>
      ) : (
        <p className="muted small">Not deployed.</p>
      )}
      {connections.isPending && <Loading what="connections" />}
      <ErrorMessage error={connections.error} />
      {connections.isSuccess && list.length === 0 && (
        <div className="empty small">
          <p>No connection yet. A local connection deploys to the edge that runs inside this server.</p>
          <button type="button" onClick={() => createLocal.mutate()} disabled={createLocal.isPending}>
            Create local connection
          </button>
          <ErrorMessage error={createLocal.error} title="Not created" />
        </div>
      )}
      {list.length > 0 && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            deploy.mutate();
          }}
        >
          <div className="field">
            <label htmlFor="deploy-connection">Connection</label>
            <select id="deploy-connection" value={connectionId} onChange={(e) => setChosen(e.target.value)}>
              {list.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.provider}
                  {c.scope === "project" ? ", this project" : ""})
                </option>
              ))}
            </select>
          </div>
          {full.currentVersion && full.workflow.kind !== "script" && (
            <DeployEstimate
              workflowId={full.workflow.id}
              versionId={full.currentVersion.id}
              connectionId={connectionId}
            />
          )}
          {!full.currentVersion && <p className="hint">Save a version first: a deploy runs a saved version.</p>}
          {full.currentVersion && dirty && (
            <p className="hint">
              Deploys version {full.currentVersion.version}; your unsaved changes are not part of it.
            </p>
          )}
          <button type="submit" className="primary" disabled={deploy.isPending || !full.currentVersion}>
            {deploy.isPending
              ? "Deploying…"
              : full.currentVersion
                ? `Deploy version ${full.currentVersion.version}`
                : "Deploy"}
          </button>
        </form>
      )}
      {(stages.length > 0 || deploy.isPending) && (
        <div className="stages">
          <progress max={100} value={last?.progress ?? 0} aria-label="Deploy progress" />
          <ol aria-label="Deploy stages" aria-live="polite">
            {stages.map((s, i) => (
              <li key={i} className={i === stages.length - 1 && deploy.isPending ? "current" : "done"}>
                <span className="stage">{s.stage}</span> <span className="muted">{s.message}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
      {deploy.isSuccess && (
        <p className="ok" role="status">
          Deployed to <code className="break">{deploy.data.url}</code>
        </p>
      )}
      <ErrorMessage error={deploy.error} title="The deploy failed" />
    </section>
  );
}
