import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { Deployment } from "../../api/models";
import { environmentQueries } from "../../api/queries/environments";
import { workflowKeys, workflowQueries } from "../../api/queries/workflows";
import { Link } from "../../app/Link";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";
import { isNotFound, WorkflowNotFound } from "../NotFound";

type EnvDiff = { missing: string[]; extra: string[] };

// ReleasesPage is /workflows/:id/releases (docs/environments.md): the project's environments as columns, each with
// the workflow's active version there, the versions still draining with their runs in flight, a promotion from
// another environment (answered with the difference of the two environments' variables) and a rollback.
export default function ReleasesPage({ workflowId }: { workflowId: string }) {
  const qc = useQueryClient();
  const workflow = useQuery(workflowQueries.record(workflowId));
  const projectId = workflow.data?.projectId ?? "";
  const envs = useQuery(environmentQueries.list(projectId));
  const deployments = useQuery(environmentQueries.deployments(workflowId));
  const [from, setFrom] = useState<Record<string, string>>({});
  const [result, setResult] = useState<{ env: string; text: string; diff?: EnvDiff } | null>(null);
  const [failure, setFailure] = useState<{ env: string; error: unknown } | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: workflowKeys.one(workflowId) });
  };
  const promote = useMutation({
    mutationFn: (v: { from: string; to: string }) =>
      ok(api.POST("/api/workflows/{workflowId}/promote", { params: { path: { workflowId } }, body: v })),
    onSuccess: (res, v) => {
      setFailure(null);
      setResult({
        env: v.to,
        text: `Promoted the version active in ${v.from} to ${v.to} (deployment ${res.deployment.id})`,
        diff: res.envDiff,
      });
      refresh();
    },
    onError: (error, v) => setFailure({ env: v.to, error }),
  });
  const rollback = useMutation({
    mutationFn: (env: string) =>
      ok(
        api.POST("/api/workflows/{workflowId}/rollback", {
          params: { path: { workflowId } },
          body: { environment: env },
        }),
      ),
    onSuccess: (_res, env) => {
      setFailure(null);
      setResult({ env, text: `Rolled ${env} back` });
      refresh();
    },
    onError: (error, env) => setFailure({ env, error }),
  });
  const name = workflow.data?.name ?? "…";
  if (isNotFound(workflow.error)) return <WorkflowNotFound workflowId={workflowId} error={workflow.error} />;
  const all: Deployment[] = deployments.data?.data ?? [];
  const list = envs.data?.data ?? [];
  const busy = promote.isPending || rollback.isPending;

  return (
    <main className="page">
      <div className="page-head">
        <div>
          <p className="crumbs">
            <Link href="/">Workflows</Link> / <Link href={`/workflows/${workflowId}`}>{name}</Link>
          </p>
          <h1>Releases of {name}</h1>
        </div>
        <Link href={`/workflows/${workflowId}/versions`} className="button">
          Versions
        </Link>
      </div>
      <ErrorMessage error={workflow.error} title="The workflow could not be loaded" />
      <ErrorMessage error={envs.error} title="The environments could not be loaded" />
      <ErrorMessage error={deployments.error} title="The deployments could not be loaded" />
      {(envs.isPending || deployments.isPending) && <Loading what="releases" />}
      <div className="releases">
        {list.map((env) => {
          const here = all.filter((d) => env.connectionId !== "" && d.connectionId === env.connectionId);
          const active = here.find((d) => d.state === "active");
          const draining = here.filter((d) => d.state === "draining");
          const others = list.filter((e) => e.name !== env.name && e.connectionId !== "");
          const source = from[env.name] ?? others[0]?.name ?? "";
          return (
            <section key={env.name} className="release-column" aria-labelledby={`env-${env.name}`}>
              <h2 id={`env-${env.name}`}>
                {env.name}
                {env.protected && <span className="badge"> protected</span>}
              </h2>
              {env.connectionId === "" ? (
                <p className="muted">Bound to no connection.</p>
              ) : (
                <>
                  <p aria-label={`Active in ${env.name}`}>
                    {active ? (
                      <>
                        <strong>v{active.versionNumber}</strong> active since {formatTime(active.createdAt)}
                      </>
                    ) : (
                      <span className="muted">Not deployed.</span>
                    )}
                  </p>
                  {draining.length > 0 && (
                    <ul aria-label={`Draining in ${env.name}`}>
                      {draining.map((d) => (
                        <li key={d.id}>
                          v{d.versionNumber} draining, {d.inFlight ?? 0} in flight
                        </li>
                      ))}
                    </ul>
                  )}
                  {others.length > 0 && (
                    <div className="release-promote">
                      <label htmlFor={`from-${env.name}`}>Promote to {env.name} from</label>
                      <select
                        id={`from-${env.name}`}
                        value={source}
                        onChange={(e) => setFrom({ ...from, [env.name]: e.target.value })}
                      >
                        {others.map((e) => (
                          <option key={e.name} value={e.name}>
                            {e.name}
                          </option>
                        ))}
                      </select>
                      <button
                        type="button"
                        disabled={busy || source === ""}
                        onClick={() => promote.mutate({ from: source, to: env.name })}
                      >
                        Promote to {env.name}
                      </button>
                    </div>
                  )}
                  <button type="button" disabled={busy || !active} onClick={() => rollback.mutate(env.name)}>
                    Roll back {env.name}
                  </button>
                </>
              )}
              {failure?.env === env.name && (
                <ErrorMessage error={failure.error} title={`Not released to ${env.name}`} />
              )}
              {result?.env === env.name && (
                <div role="status">
                  <p>{result.text}</p>
                  {result.diff && (
                    <p className="small">
                      Variables only in the source: {result.diff.missing.join(", ") || "none"}; only here:{" "}
                      {result.diff.extra.join(", ") || "none"}
                    </p>
                  )}
                </div>
              )}
            </section>
          );
        })}
      </div>
    </main>
  );
}
