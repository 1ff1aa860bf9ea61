import { useQuery } from "@tanstack/react-query";
import { workflowQueries } from "../../api/queries/workflows";
import type { Deployment, Run, Workflow } from "../../api/models";
import { Link } from "../../app/Link";
import { formatTime, StatusBadge } from "../../app/ui";

// WorkflowRow is one workflow of the list: its name, kind, version, whether it is deployed, its last run, when it
// changed, and Rename, Move and Delete.
export function WorkflowRow({
  w,
  deployment,
  run,
  onRename,
  onMove,
  onDelete,
}: {
  w: Workflow;
  deployment?: Deployment;
  run?: Run;
  onRename: () => void;
  onMove: () => void;
  onDelete: () => void;
}) {
  // the list answer has no version numbers: the newest version's summary gives it
  const version = useQuery({
    ...workflowQueries.newestVersion(w.id, w.currentVersionId),
    enabled: w.currentVersionId !== "",
  });
  const current = version.data?.data[0];
  return (
    <tr>
      <td>
        <Link href={`/workflows/${w.id}`} className="strong">
          {w.name}
        </Link>
        {w.description && <div className="muted small">{w.description}</div>}
      </td>
      <td>{w.kind === "script" ? "function" : "workflow"}</td>
      <td>
        {w.currentVersionId === "" ? <span className="muted">none yet</span> : current ? `v${current.version}` : "…"}
      </td>
      <td>
        {deployment ? (
          <span className="badge status-complete" title={deployment.url}>
            deployed
          </span>
        ) : (
          <span className="muted">no</span>
        )}
      </td>
      <td>
        {run ? (
          <Link href={`/workflows/${w.id}/runs/${run.id}`}>
            {/* the link's name holds its visible text, as WCAG 2.5.3 asks (decision 580) */}
            <span className="sr-only">Last run of {w.name}: </span>
            <StatusBadge status={run.status} detail={run.statusDetail} />
          </Link>
        ) : (
          <span className="muted">none</span>
        )}
      </td>
      <td className="small">{formatTime(w.updatedAt)}</td>
      <td className="row-actions">
        <button type="button" onClick={onRename} aria-label={`Rename ${w.name}`}>
          Rename
        </button>
        <button type="button" onClick={onMove} aria-label={`Move ${w.name}`}>
          Move
        </button>
        <button type="button" className="danger" onClick={onDelete} aria-label={`Delete ${w.name}`}>
          Delete
        </button>
      </td>
    </tr>
  );
}
