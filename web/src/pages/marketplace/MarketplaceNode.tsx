import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, ok } from "../../api/client";
import { marketplaceKeys, marketplaceQueries } from "../../api/queries/marketplace";
import { nodeKeys } from "../../api/queries/nodes";
import { DataTable } from "../../app/fields";
import { Link } from "../../app/Link";
import { useSession } from "../../app/session";
import { Dialog, ErrorMessage, formatTime, Loading } from "../../app/ui";
import type { MarketplaceNode, WorkflowRef } from "../../api/models";
import { changeVerb, isAdminRole, requiredSecrets } from "./model";
import "./marketplace.css";

// MarketplaceNodePage is one node of the marketplace at /marketplace/:nodeId: what it does, its versions with their
// changelogs, the secrets it needs, the workflows that use it, and installing, updating, downgrading and
// uninstalling it.
export default function MarketplaceNodePage({ nodeId }: { nodeId: string }) {
  const session = useSession().data!;
  const role = session.organizations.find((o) => o.id === session.activeOrganizationId)?.role;
  const details = useQuery(marketplaceQueries.node(nodeId));
  const notFound = details.error instanceof ApiError && details.error.status === 404;
  return (
    <main className="page marketplace">
      <p className="crumbs">
        <Link href="/marketplace">Marketplace</Link>
      </p>
      {details.isPending && <Loading what="the node" />}
      {notFound && (
        <>
          <h1>Node not found</h1>
          <p>
            The marketplace has no node <code>{nodeId}</code>. <Link href="/marketplace">Browse the catalog</Link>.
          </p>
        </>
      )}
      {!notFound && <ErrorMessage error={details.error} title="The node could not be loaded" />}
      {details.data && (
        <NodeView n={details.data} mayChange={isAdminRole(role)} role={role ?? "viewer"} project={session.activeProjectId} />
      )}
    </main>
  );
}

function NodeView({ n, mayChange, role, project }: { n: MarketplaceNode; mayChange: boolean; role: string; project: string }) {
  const [uninstalling, setUninstalling] = useState(false);
  // The secrets of the installed version are those a deploy needs now; without an installation, the latest's.
  const secrets = requiredSecrets(n.installation ? n.installation.definition : n.definition);
  return (
    <>
      <div className="page-head">
        <div>
          <h1>{n.name}</h1>
          <p className="muted">
            <code>{n.id}</code> · {n.category} · by {n.author} · {n.license}
          </p>
        </div>
      </div>
      <p className="market-description">{n.description}</p>
      {n.tags && n.tags.length > 0 && (
        <ul className="tags" aria-label="Tags">
          {n.tags.map((t) => (
            <li key={t} className="badge">
              {t}
            </li>
          ))}
        </ul>
      )}

      <div className="market-columns">
        <div>
          <section aria-labelledby="installation-h" className="panel">
            <h2 id="installation-h">Installation</h2>
            <Installation n={n} mayChange={mayChange} role={role} onUninstall={() => setUninstalling(true)} />
          </section>

          <section aria-labelledby="secrets-h" className="panel">
            <h2 id="secrets-h">Secrets</h2>
            {secrets.length === 0 ? (
              <p className="muted">This node needs no secret.</p>
            ) : (
              <>
                <p className="muted small">
                  Environment variables a deployment must provide, of the {n.installation ? "installed" : "latest"} version{" "}
                  {n.installation ? n.installation.version : n.latest}. Set them as secrets in <Link href="/env-vars">Variables</Link>.
                </p>
                <DataTable label="Secrets" columns={["Variable", "What it is for", "Needed"]}>
                  {secrets.map((s) => (
                    <tr key={s.envVarName}>
                      <td>
                        <code>{s.envVarName}</code>
                      </td>
                      <td>
                        <span className="strong">{s.label}</span>
                        {s.description && <div className="muted small">{s.description}</div>}
                      </td>
                      <td>{s.required ? "required" : "optional"}</td>
                    </tr>
                  ))}
                </DataTable>
              </>
            )}
          </section>

          <section aria-labelledby="usedby-h" className="panel">
            <h2 id="usedby-h">Used by</h2>
            <UsedBy list={n.usedBy} project={project} installed={n.installation !== null} />
          </section>
        </div>

        <section aria-labelledby="versions-h" className="panel">
          <h2 id="versions-h">Versions</h2>
          <ol className="versions">
            {n.versions.map((v) => (
              <li key={v.version}>
                <h3>
                  <code>{v.version}</code>
                  {v.version === n.latest && <span className="badge">latest</span>}
                  {v.version === n.installedVersion && <span className="badge installed">installed</span>}
                </h3>
                {v.changelog ? (
                  <p className="changelog">{v.changelog}</p>
                ) : (
                  <p className="muted small">No changelog for this version.</p>
                )}
              </li>
            ))}
          </ol>
        </section>
      </div>
      {uninstalling && n.installation && <UninstallDialog n={n} project={project} onClose={() => setUninstalling(false)} />}
    </>
  );
}

function useInvalidate(nodeId: string) {
  const qc = useQueryClient();
  return async () => {
    // the catalog, this node, and the node definitions the editor uses
    await Promise.all([
      qc.invalidateQueries({ queryKey: marketplaceKeys.all }),
      qc.invalidateQueries({ queryKey: nodeKeys.all }),
      qc.invalidateQueries({ queryKey: marketplaceKeys.node(nodeId) }),
    ]);
  };
}

function Installation({
  n,
  mayChange,
  role,
  onUninstall,
}: {
  n: MarketplaceNode;
  mayChange: boolean;
  role: string;
  onUninstall: () => void;
}) {
  const inst = n.installation;
  const invalidate = useInvalidate(n.id);
  const others = n.versions.filter((v) => v.version !== inst?.version);
  const [version, setVersion] = useState(inst ? (others[0]?.version ?? "") : n.latest);
  const change = useMutation({
    mutationFn: (v: string) =>
      inst
        ? ok(api.POST("/api/marketplace/update", { body: { nodeId: n.id, version: v } }))
        : ok(api.POST("/api/marketplace/install", { body: { nodeId: n.id, version: v } })),
    onSuccess: async () => {
      await invalidate();
    },
  });
  // after a change, offer another version than the one now installed
  const chosen = inst && version === inst.version ? (others[0]?.version ?? "") : version;
  const reason = mayChange
    ? undefined
    : `Only owners and admins of the organization install, update and uninstall nodes. You are ${/^[aeiou]/.test(role) ? "an" : "a"} ${role}.`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen) change.mutate(chosen);
  };
  const verb = inst ? changeVerb(inst.version, chosen) : "Install";
  const selectId = `version-${n.id}`;
  return (
    <>
      {inst ? (
        <p role="status">
          Installed at version <code>{inst.version}</code> since {formatTime(inst.installedAt)}
          {inst.updatedAt !== inst.installedAt && <>, changed {formatTime(inst.updatedAt)}</>}.
          {n.updateAvailable && (
            <>
              {" "}
              Version <code>{n.latest}</code> is available.
            </>
          )}
        </p>
      ) : (
        <p role="status">Not installed in this organization. Workflows can use it once it is installed.</p>
      )}
      {reason && (
        <p id="market-role" className="notice">
          {reason}
        </p>
      )}
      {(!inst || others.length > 0) && (
        <form className="version-form" onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor={selectId}>{inst ? "Move to version" : "Version"}</label>
            <select id={selectId} value={chosen} onChange={(e) => setVersion(e.target.value)}>
              {(inst ? others : n.versions).map((v) => (
                <option key={v.version} value={v.version}>
                  {v.version}
                  {v.version === n.latest ? " (latest)" : ""}
                </option>
              ))}
            </select>
          </div>
          <button
            type="submit"
            className="primary"
            disabled={!mayChange || change.isPending || !chosen}
            aria-describedby={reason ? "market-role" : undefined}
          >
            {inst ? `${verb} to ${chosen}` : `Install ${chosen}`}
          </button>
        </form>
      )}
      {inst && others.length === 0 && <p className="muted small">This is the only version of the node.</p>}
      <ErrorMessage error={change.error} title={inst ? "The version was not changed" : "Not installed"} />
      {inst && (
        <p>
          <button
            type="button"
            className="danger"
            onClick={onUninstall}
            disabled={!mayChange}
            aria-describedby={reason ? "market-role" : undefined}
          >
            Uninstall
          </button>
        </p>
      )}
    </>
  );
}

function WorkflowName({ w, project }: { w: WorkflowRef; project: string }) {
  if (w.projectId === project) return <Link href={`/workflows/${w.id}`}>{w.name}</Link>;
  return (
    <>
      {w.name} <span className="muted small">(another project)</span>
    </>
  );
}

function UsedBy({ list, project, installed }: { list: WorkflowRef[]; project: string; installed: boolean }) {
  if (!installed) return <p className="muted">Not installed, so no workflow uses it.</p>;
  if (list.length === 0) return <p className="muted">No deployed workflow uses it: it can be uninstalled.</p>;
  return (
    <>
      <p className="muted small">Workflows whose active deployment uses this node. They keep it from being uninstalled.</p>
      <ul className="plain used-by">
        {list.map((w) => (
          <li key={w.id}>
            <WorkflowName w={w} project={project} />
          </li>
        ))}
      </ul>
    </>
  );
}

// refusingWorkflows reads the workflows an uninstall was refused for from the API's 409 details.
function refusingWorkflows(err: unknown): WorkflowRef[] {
  if (!(err instanceof ApiError) || err.status !== 409) return [];
  return (err.details as unknown[]).filter(
    (d): d is WorkflowRef => typeof d === "object" && d !== null && typeof (d as WorkflowRef).id === "string" && typeof (d as WorkflowRef).name === "string",
  );
}

function UninstallDialog({ n, project, onClose }: { n: MarketplaceNode; project: string; onClose: () => void }) {
  const invalidate = useInvalidate(n.id);
  const m = useMutation({
    mutationFn: () => ok(api.POST("/api/marketplace/uninstall", { body: { nodeId: n.id } })),
    onSuccess: async () => {
      await invalidate();
      onClose();
    },
    onError: () => void invalidate(),
  });
  const blocking = refusingWorkflows(m.error);
  return (
    <Dialog title={`Uninstall ${n.name}?`} onClose={onClose}>
      <p>
        Workflows of the organization can no longer use <strong>{n.name}</strong>: a version that uses it is refused
        until the node is installed again. An uninstall is refused while a deployed workflow uses the node.
      </p>
      {blocking.length > 0 ? (
        <div className="error" role="alert">
          <p>
            <strong>Not uninstalled: </strong>
            {blocking.length === 1 ? "this workflow's" : "these workflows'"} deployed version uses the node. Take{" "}
            {blocking.length === 1 ? "it" : "them"} down, or deploy versions without the node, first.
          </p>
          <ul className="used-by">
            {blocking.map((w) => (
              <li key={w.id}>
                <WorkflowName w={w} project={project} />
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <ErrorMessage error={m.error} title="Not uninstalled" />
      )}
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="danger primary" onClick={() => m.mutate()} disabled={m.isPending}>
          Uninstall node
        </button>
      </div>
    </Dialog>
  );
}
