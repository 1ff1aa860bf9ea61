import { useMemo, useState } from "react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import type { Deployment, Page, Run, VersionSummary, Workflow } from "../api/types";
import { DataTable, RenameDialog } from "../app/fields";
import { Link } from "../app/Link";
import { useSession } from "../app/session";
import { Dialog, ErrorMessage, formatTime, Loading, StatusBadge } from "../app/ui";
import { NewWorkflowDialog } from "./NewWorkflow";
import { useProjects } from "./Shell";

// WorkflowsPage lists the active project's workflows and functions with their state, and creates, renames, moves
// and deletes them.
export function WorkflowsPage() {
  const qc = useQueryClient();
  const [query, setQuery] = useState("");
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Workflow | null>(null);
  const [moving, setMoving] = useState<Workflow | null>(null);
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const list = useInfiniteQuery({
    queryKey: ["workflows"],
    queryFn: ({ pageParam }) =>
      api.get<Page<Workflow>>(`/api/workflows?limit=100${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const deployments = useQuery({
    queryKey: ["deployments"],
    queryFn: () => api.get<Page<Deployment>>("/api/deployments?limit=100"),
  });
  const runs = useQuery({ queryKey: ["runs"], queryFn: () => api.get<Page<Run>>("/api/runs?limit=100") });

  const workflows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return workflows;
    return workflows.filter(
      (w) => w.name.toLowerCase().includes(q) || w.description.toLowerCase().includes(q) || w.id.includes(q),
    );
  }, [workflows, query]);
  const activeDeployment = useMemo(() => {
    const m = new Map<string, Deployment>();
    for (const d of deployments.data?.data ?? []) if (d.status === "active" && !m.has(d.workflowId)) m.set(d.workflowId, d);
    return m;
  }, [deployments.data]);
  const lastRun = useMemo(() => {
    const m = new Map<string, Run>();
    for (const r of runs.data?.data ?? []) if (!m.has(r.workflowId)) m.set(r.workflowId, r);
    return m;
  }, [runs.data]);

  return (
    <main className="page">
      <div className="page-head">
        <h1>Workflows and functions</h1>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New workflow
        </button>
      </div>
      <div className="toolbar">
        <label htmlFor="search">Search</label>
        <input
          id="search"
          type="search"
          placeholder="Name or description"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      {list.isPending && <Loading what="workflows" />}
      <ErrorMessage error={list.error} title="The workflows could not be loaded" />
      <ErrorMessage error={deployments.error ?? runs.error} title="Their state could not be loaded" />
      {list.isSuccess && workflows.length === 0 && (
        <div className="empty">
          <p>This project has no workflows yet.</p>
          <p className="muted">
            Choose <strong>New workflow</strong> to start from a blank canvas, a template or an IR file.
          </p>
        </div>
      )}
      {list.isSuccess && workflows.length > 0 && shown.length === 0 && (
        <p className="empty">Nothing matches “{query}”.</p>
      )}
      {shown.length > 0 && (
        <DataTable columns={["Name", "Kind", "Version", "Deployed", "Last run", "Updated"]} actions>
          {shown.map((w) => (
            <WorkflowRow
              key={w.id}
              w={w}
              deployment={activeDeployment.get(w.id)}
              run={lastRun.get(w.id)}
              onRename={() => setRenaming(w)}
              onMove={() => setMoving(w)}
              onDelete={() => setDeleting(w)}
            />
          ))}
        </DataTable>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          Load more
        </button>
      )}
      {creating && <NewWorkflowDialog onClose={() => setCreating(false)} />}
      {renaming && (
        <RenameDialog
          id="rename-name"
          current={renaming.name}
          save={async (name) => {
            await api.patch<Workflow>(`/api/workflows/${renaming.id}`, { name });
            void qc.invalidateQueries({ queryKey: ["workflows"] });
            void qc.invalidateQueries({ queryKey: ["workflow", renaming.id] });
          }}
          onClose={() => setRenaming(null)}
        />
      )}
      {moving && <MoveDialog w={moving} onClose={() => setMoving(null)} />}
      {deleting && <DeleteDialog w={deleting} onClose={() => setDeleting(null)} />}
    </main>
  );
}

function WorkflowRow({
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
    queryKey: ["workflow", w.id, "versions", "newest", w.currentVersionId],
    queryFn: () => api.get<Page<VersionSummary>>(`/api/workflows/${w.id}/versions?limit=1`),
    enabled: w.currentVersionId !== "",
    staleTime: 60_000,
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
      <td>{w.currentVersionId === "" ? <span className="muted">none yet</span> : current ? `v${current.version}` : "…"}</td>
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
          <Link href={`/workflows/${w.id}/runs/${run.id}`} aria-label={`Last run of ${w.name}: ${run.status}`}>
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

function MoveDialog({ w, onClose }: { w: Workflow; onClose: () => void }) {
  const qc = useQueryClient();
  const session = useSession().data!;
  const projects = useProjects(session);
  const others = (projects.data?.data ?? []).filter((p) => p.id !== w.projectId);
  const [target, setTarget] = useState("");
  const chosen = target || others[0]?.id || "";
  const m = useMutation({
    mutationFn: () => api.patch<Workflow>(`/api/workflows/${w.id}/move`, { targetProjectId: chosen }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ["workflows"] });
      onClose();
    },
  });
  return (
    <Dialog title={`Move ${w.name}`} onClose={onClose}>
      {projects.isPending && <Loading what="projects" />}
      {projects.isSuccess && others.length === 0 && (
        <p>
          There is no other project to move it to. Create one with <strong>New project</strong> in the top bar first.
        </p>
      )}
      {others.length > 0 && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            m.mutate();
          }}
        >
          <p className="muted">Its versions, deployments and runs move with it. A deployed workflow must be taken down first.</p>
          <div className="field">
            <label htmlFor="move-target">Target project</label>
            <select id="move-target" value={chosen} onChange={(e) => setTarget(e.target.value)}>
              {others.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <ErrorMessage error={m.error} title="Not moved" />
          <div className="actions">
            <button type="button" onClick={onClose}>Cancel</button>
            <button type="submit" className="primary" disabled={m.isPending}>Move</button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

function DeleteDialog({ w, onClose }: { w: Workflow; onClose: () => void }) {
  const qc = useQueryClient();
  const [runs, setRuns] = useState<"delete" | "keep">("delete");
  const m = useMutation({
    mutationFn: () => api.del<void>(`/api/workflows/${w.id}?runs=${runs}`),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ["workflows"] });
      void qc.invalidateQueries({ queryKey: ["deployments"] });
      void qc.invalidateQueries({ queryKey: ["runs"] });
      // what the run pages read of the workflow and its runs is gone or changed (those pages are not shown now)
      qc.removeQueries({ queryKey: ["workflow", w.id, "record"] });
      qc.removeQueries({ queryKey: ["run"] });
      onClose();
    },
  });
  const what = w.kind === "script" ? "function" : "workflow";
  return (
    <Dialog title={`Delete ${w.name}?`} onClose={onClose}>
      <p>
        This deletes the {what} with all its versions and deployments, and takes down what is deployed. It cannot be
        undone.
      </p>
      <fieldset className="field">
        <legend>Its runs</legend>
        <label>
          <input type="radio" name="delete-runs" checked={runs === "delete"} onChange={() => setRuns("delete")} /> Delete
          the runs, with their steps and outputs
        </label>
        <label>
          <input type="radio" name="delete-runs" checked={runs === "keep"} onChange={() => setRuns("keep")} /> Keep the
          runs: they stay under Runs, with the {what}'s name
        </label>
      </fieldset>
      <ErrorMessage error={m.error} title="Not deleted" />
      <div className="actions">
        <button type="button" onClick={onClose}>Cancel</button>
        <button type="button" className="danger primary" onClick={() => m.mutate()} disabled={m.isPending}>
          Delete {what}
        </button>
      </div>
    </Dialog>
  );
}
