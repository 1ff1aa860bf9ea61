import { useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/client";
import { diffLines, diffStats } from "../api/diff";
import type { Page, Version, VersionSummary, Workflow } from "../api/types";
import { ConfirmDialog, DataTable } from "../app/fields";
import { Link } from "../app/Link";
import { isNotFound, WorkflowNotFound } from "./NotFound";
import { useSession } from "../app/session";
import { downloadJSON, ErrorMessage, fileSlug, formatTime, Loading } from "../app/ui";

function useVersion(workflowId: string, versionId: string) {
  return useQuery({
    queryKey: ["workflow", workflowId, "version", versionId],
    queryFn: () => api.get<Version>(`/api/workflows/${workflowId}/versions/${versionId}`),
    enabled: versionId !== "",
    staleTime: Infinity,
  });
}

// VersionsPage is /workflows/:id/versions: the history with lock, revert, delete and export, and a side-by-side
// diff of two versions.
export default function VersionsPage({ workflowId }: { workflowId: string }) {
  const qc = useQueryClient();
  const me = useSession().data?.user;
  const workflow = useQuery({
    queryKey: ["workflow", workflowId, "record"],
    queryFn: () => api.get<Workflow>(`/api/workflows/${workflowId}`),
  });
  const versions = useQuery({
    queryKey: ["workflow", workflowId, "versions"],
    queryFn: () => api.get<Page<VersionSummary>>(`/api/workflows/${workflowId}/versions?limit=100`),
  });
  const [left, setLeft] = useState("");
  const [right, setRight] = useState("");
  const [deleting, setDeleting] = useState<VersionSummary | null>(null);
  const [actionError, setActionError] = useState<{ id: string; error: unknown } | null>(null);
  const list = versions.data?.data ?? [];
  const rightId = right || list[0]?.id || "";
  const leftId = left || list[1]?.id || "";
  const invalidate = () => {
    void qc.invalidateQueries({ queryKey: ["workflow", workflowId] });
    void qc.invalidateQueries({ queryKey: ["workflows"] });
  };
  const lock = useMutation({
    mutationFn: (v: VersionSummary) => api.patch<VersionSummary>(`/api/workflows/${workflowId}/versions/${v.id}`, { locked: !v.locked }),
    onSuccess: () => {
      setActionError(null);
      invalidate();
    },
    onError: (error, v) => setActionError({ id: v.id, error }),
  });
  const revert = useMutation({
    mutationFn: (v: VersionSummary) => api.post<VersionSummary>(`/api/workflows/${workflowId}/versions/${v.id}/revert`),
    onSuccess: () => {
      setActionError(null);
      invalidate();
    },
    onError: (error, v) => setActionError({ id: v.id, error }),
  });
  const exportVersion = useMutation({
    mutationFn: (v: VersionSummary) => api.get<Version>(`/api/workflows/${workflowId}/versions/${v.id}`),
    onSuccess: (v) => downloadJSON(`${fileSlug(workflow.data?.name ?? "workflow")}.v${v.version}.ir.json`, v.ir),
    onError: (error, v) => setActionError({ id: v.id, error }),
  });
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
        <Link href={`/workflows/${workflowId}`} className="button">
          Open editor
        </Link>
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
                <button type="button" onClick={() => lock.mutate(v)} aria-label={`${v.locked ? "Unlock" : "Lock"} version ${v.version}`}>
                  {v.locked ? "Unlock" : "Lock"}
                </button>
                <button type="button" onClick={() => revert.mutate(v)} aria-label={`Revert to version ${v.version}`}>
                  Revert
                </button>
                <button type="button" onClick={() => exportVersion.mutate(v)} aria-label={`Export version ${v.version}`}>
                  Export
                </button>
                <button type="button" className="danger" onClick={() => setDeleting(v)} aria-label={`Delete version ${v.version}`}>
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
        <DeleteVersionDialog workflowId={workflowId} v={deleting} onClose={() => setDeleting(null)} onDeleted={invalidate} />
      )}
    </main>
  );
}

function Compare({ workflowId, leftId, rightId }: { workflowId: string; leftId: string; rightId: string }) {
  const [what, setWhat] = useState<"ir" | "code">("ir");
  const a = useVersion(workflowId, leftId);
  const b = useVersion(workflowId, rightId);
  const rows = useMemo(() => {
    if (!a.data || !b.data) return [];
    return what === "ir"
      ? diffLines(JSON.stringify(a.data.ir, null, 2), JSON.stringify(b.data.ir, null, 2))
      : diffLines(a.data.code, b.data.code);
  }, [a.data, b.data, what]);
  const stats = diffStats(rows);
  return (
    <>
      <div className="segmented" role="group" aria-label="Compare what">
        <button type="button" aria-pressed={what === "ir"} onClick={() => setWhat("ir")}>
          IR
        </button>
        <button type="button" aria-pressed={what === "code"} onClick={() => setWhat("code")}>
          Generated code
        </button>
      </div>
      {(a.isPending || b.isPending) && <Loading what="the versions" />}
      <ErrorMessage error={a.error ?? b.error} />
      {a.data && b.data && (
        <>
          <p className="small muted" role="status">
            v{a.data.version} → v{b.data.version}: {stats.changed} changed, {stats.added} added, {stats.removed} removed lines
          </p>
          <div className="diff" tabIndex={0} role="region" aria-label={`Differences of the ${what === "ir" ? "IR" : "generated code"}`}>
            <table>
              <colgroup>
                <col className="ln" />
                <col />
                <col className="ln" />
                <col />
              </colgroup>
              <thead>
                <tr>
                  <th scope="col" colSpan={2}>
                    v{a.data.version}
                  </th>
                  <th scope="col" colSpan={2}>
                    v{b.data.version}
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={i} className={`diff-${r.kind}`}>
                    <td className="ln">{r.left?.n ?? ""}</td>
                    <td className={r.left && r.kind !== "same" ? "del" : undefined}>
                      <pre>{r.left?.text ?? ""}</pre>
                    </td>
                    <td className="ln">{r.right?.n ?? ""}</td>
                    <td className={r.right && r.kind !== "same" ? "ins" : undefined}>
                      <pre>{r.right?.text ?? ""}</pre>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </>
  );
}

function DeleteVersionDialog({
  workflowId,
  v,
  onClose,
  onDeleted,
}: {
  workflowId: string;
  v: VersionSummary;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const m = useMutation({
    mutationFn: () => api.del<void>(`/api/workflows/${workflowId}/versions/${v.id}`),
    onSuccess: () => {
      onDeleted();
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Delete version ${v.version}?`}
      action="Delete version"
      danger
      failure="Not deleted"
      error={m.error}
      pending={m.isPending}
      onConfirm={() => m.mutate()}
      onClose={onClose}
    >
      <p>The version's IR and code are deleted; its number is never given again.</p>
    </ConfirmDialog>
  );
}
