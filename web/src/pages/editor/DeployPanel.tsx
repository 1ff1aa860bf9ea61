import { useRef, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { connectionKeys, connectionQueries } from "../../api/queries/connections";
import { deploymentKeys } from "../../api/queries/deployments";
import { environmentQueries } from "../../api/queries/environments";
import { workflowKeys, workflowQueries } from "../../api/queries/workflows";
import { deployStream, type DeployProgress, type DeployResult } from "../../api/sse";
import type { WorkflowFull } from "../../api/models";
import { ErrorMessage, Loading } from "../../app/ui";
import { DeployEstimate } from "./DeployEstimate";
import { DeployPlanView, InFlightChoice, type InFlight } from "./DeployPlan";

// DeployPanel deploys the current version to a connection or an environment: it shows the deploy plan (the runs in
// flight there and the step changes), offers the in-flight choice, then each stage of the deploy as it happens.
export function DeployPanel({ full, dirty }: { full: WorkflowFull; dirty: boolean }) {
  const qc = useQueryClient();
  const connections = useQuery(connectionQueries.firstPage());
  const environments = useQuery(environmentQueries.list(full.workflow.projectId));
  const [chosen, setChosen] = useState("");
  const [envName, setEnvName] = useState("");
  const [inFlight, setInFlight] = useState<InFlight>("pin");
  const [force, setForce] = useState(false);
  const [cancelled, setCancelled] = useState(false);
  const [stages, setStages] = useState<DeployProgress[]>([]);
  const abort = useRef<AbortController | null>(null);
  const list = connections.data?.data ?? [];
  const envs = environments.data?.data ?? [];
  const env = envs.find((e) => e.name === envName && e.connectionId !== "");
  const connectionId = env?.connectionId || chosen || full.activeDeployment?.connectionId || list[0]?.id || "";
  const target = env ? { environment: env.name } : { connectionId };
  const versionId = full.currentVersion?.id ?? "";
  const plan = useQuery({
    ...workflowQueries.deployPlan(full.workflow.id, versionId, target),
    // a function has no runs in flight and no durable steps: its deploy has no plan to show
    enabled: versionId !== "" && connectionId !== "" && full.workflow.kind !== "script",
  });
  const activeNumber = full.versions.find((v) => v.id === plan.data?.activeVersionId)?.version;

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
      setCancelled(false);
      abort.current = new AbortController();
      return deployStream(
        full.workflow.id,
        { ...target, versionId, inFlight, force: inFlight === "migrate" && force },
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
          {envs.length > 0 && (
            <div className="field">
              <label htmlFor="deploy-environment">Environment</label>
              <select id="deploy-environment" value={env?.name ?? ""} onChange={(e) => setEnvName(e.target.value)}>
                <option value="">None: choose a connection</option>
                {envs.map((e) => (
                  <option key={e.name} value={e.name} disabled={e.connectionId === ""}>
                    {e.name}
                    {e.protected ? " (protected)" : ""}
                    {e.connectionId === "" ? " (no connection)" : ""}
                  </option>
                ))}
              </select>
            </div>
          )}
          {env ? (
            <p className="small">
              Connection: {list.find((c) => c.id === env.connectionId)?.name ?? env.connectionId}
              {env.protected ? "; a protected environment takes deploys from admins and owners only." : ""}
            </p>
          ) : (
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
          )}
          {full.currentVersion && full.workflow.kind !== "script" && (
            <DeployEstimate
              workflowId={full.workflow.id}
              versionId={full.currentVersion.id}
              connectionId={connectionId}
            />
          )}
          {plan.data && full.workflow.kind !== "script" && (
            <DeployPlanView plan={plan.data} activeNumber={activeNumber} />
          )}
          <ErrorMessage error={plan.error} title="The deploy plan could not be read" />
          {full.currentVersion && full.workflow.kind !== "script" && (
            <InFlightChoice plan={plan.data} value={inFlight} onChange={setInFlight} force={force} onForce={setForce} />
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
          {deploy.isPending && (
            <button
              type="button"
              onClick={() => {
                setCancelled(true);
                abort.current?.abort();
              }}
            >
              Cancel deploy
            </button>
          )}
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
      {cancelled ? (
        deploy.isError && (
          <p className="small" role="status">
            Cancelled: nothing was deployed.
          </p>
        )
      ) : (
        <ErrorMessage error={deploy.error} title="The deploy failed" />
      )}
    </section>
  );
}
