import { useQuery } from "@tanstack/react-query";
import { runQueries } from "../../api/queries/runs";
import type { Run } from "../../api/models";
import { Link } from "../../app/Link";
import { ErrorMessage, formatTime, Loading, StatusBadge } from "../../app/ui";

// RecentRuns lists the workflow's newest runs. The list holds the stored state of each run; the run shown on the
// page (current) is newer, so its row shows that.
export function RecentRuns({ workflowId, currentRunId, current }: { workflowId: string; currentRunId?: string; current?: Run }) {
  const runs = useQuery({ ...runQueries.ofWorkflow(workflowId), refetchInterval: 5_000 });
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
