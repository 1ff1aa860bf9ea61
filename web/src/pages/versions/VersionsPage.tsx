import { useState } from "react";
import type { Version } from "../../api/models";
import { DataTable } from "../../app/fields";
import { Link } from "../../app/Link";
import { useSession } from "../../app/session";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";
import { isNotFound, WorkflowNotFound } from "../NotFound";
import { Compare } from "./Compare";
import { DeleteVersionDialog } from "./DeleteVersionDialog";
import { useVersionsQueries } from "./useVersionsQueries";

// VersionsPage is /workflows/:id/versions: the history with lock, revert, delete, export (the IR) and download as a
// wrangler project (docs/export.md), and a side-by-side
// diff of two versions.
export default function VersionsPage({ workflowId }: { workflowId: string }) {
  const me = useSession().data?.user;
  const [left, setLeft] = useState("");
  const [right, setRight] = useState("");
  const [deleting, setDeleting] = useState<Version | null>(null);
  const { workflow, versions, lock, revert, exportVersion, exportWrangler, actionError, invalidate } =
    useVersionsQueries(workflowId);
  const list = versions.data?.data ?? [];
  const rightId = right || list[0]?.id || "";
  const leftId = left || list[1]?.id || "";
  const name = workflow.data?.name ?? "…";
  if (isNotFound(workflow.error)) return <WorkflowNotFound workflowId={workflowId} error={workflow.error} />;

  return (
    <main className="page">
      <div className="page-head">
        <div>
          <p className="crumbs">
            <Link href="/">Workflows</Link> / <Link href={`/workflows/${workflowId}`}>{name}</Link>
          </p>
          <h1>Versions of {name}</h1>
        </div>
        <div className="row-actions">
          <Link href={`/workflows/${workflowId}/releases`} className="button">
            Releases
          </Link>
          <Link href={`/workflows/${workflowId}`} className="button">
            Open editor
          </Link>
        </div>
      </div>
      <ErrorMessage error={workflow.error} title="The workflow could not be loaded" />
      {versions.isPending && <Loading what="versions" />}
      <ErrorMessage error={versions.error} title="The versions could not be loaded" />
      {versions.isSuccess && list.length === 0 && (
        <p className="empty">
          No versions yet. Open the editor and choose <strong>Save version</strong>.
        </p>
      )}
      {list.length > 0 && (
        <DataTable columns={["Version", "Created", "By", "Locked"]} actions>
          {list.map((v) => (
            <tr key={v.id}>
              <td className="strong">
                v{v.version}
                {workflow.data?.currentVersionId === v.id && <span className="badge"> current</span>}
                {workflow.data?.activeVersionId === v.id && <span className="badge status-complete"> deployed</span>}
              </td>
              <td className="small">{formatTime(v.createdAt)}</td>
              <td className="small">{me && v.createdBy === me.id ? "you" : <code>{v.createdBy}</code>}</td>
              <td>{v.locked ? "locked" : <span className="muted">no</span>}</td>
              <td className="row-actions">
                <button
                  type="button"
                  onClick={() => lock.mutate(v)}
                  aria-label={`${v.locked ? "Unlock" : "Lock"} version ${v.version}`}
                >
                  {v.locked ? "Unlock" : "Lock"}
                </button>
                <button type="button" onClick={() => revert.mutate(v)} aria-label={`Revert to version ${v.version}`}>
                  Revert
                </button>
                <button
                  type="button"
                  onClick={() => exportVersion.mutate(v)}
                  aria-label={`Export version ${v.version}`}
                >
                  Export
                </button>
                <button
                  type="button"
                  onClick={() => exportWrangler.mutate(v)}
                  disabled={exportWrangler.isPending}
                  aria-label={`Download version ${v.version} as a wrangler project`}
                  title="A Cloudflare Workers project that wrangler deploys without edgeflow"
                >
                  Wrangler project
                </button>
                <button
                  type="button"
                  className="danger"
                  onClick={() => setDeleting(v)}
                  aria-label={`Delete version ${v.version}`}
                >
                  Delete
                </button>
                {actionError?.id === v.id && <ErrorMessage error={actionError.error} />}
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {revert.isSuccess && (
        <p className="ok" role="status">
          Reverted: version {revert.data.version} holds the chosen version's IR.
        </p>
      )}
      {list.length >= 2 && (
        <section aria-labelledby="compare-title" className="compare">
          <h2 id="compare-title">Compare versions</h2>
          <div className="toolbar">
            <label htmlFor="cmp-left">Older</label>
            <select id="cmp-left" value={leftId} onChange={(e) => setLeft(e.target.value)}>
              {list.map((v) => (
                <option key={v.id} value={v.id}>
                  v{v.version}
                </option>
              ))}
            </select>
            <label htmlFor="cmp-right">Newer</label>
            <select id="cmp-right" value={rightId} onChange={(e) => setRight(e.target.value)}>
              {list.map((v) => (
                <option key={v.id} value={v.id}>
                  v{v.version}
                </option>
              ))}
            </select>
          </div>
          <Compare workflowId={workflowId} leftId={leftId} rightId={rightId} />
        </section>
      )}
      {deleting && (
        <DeleteVersionDialog
          workflowId={workflowId}
          v={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={invalidate}
        />
      )}
    </main>
  );
}
