import { useMemo, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { workflowKeys } from "../../api/queries/workflows";
import type { Workflow } from "../../api/models";
import { DataTable, RenameDialog } from "../../app/fields";
import { ErrorMessage, Loading } from "../../app/ui";
import { DeleteDialog } from "./DeleteDialog";
import { MoveDialog } from "./MoveDialog";
import { NewWorkflowDialog } from "./NewWorkflowDialog";
import { useWorkflowsQueries } from "./useWorkflowsQueries";
import { WorkflowRow } from "./WorkflowRow";

// WorkflowsPage lists the active project's workflows and functions with their state, and creates, renames, moves
// and deletes them.
export function WorkflowsPage() {
  const qc = useQueryClient();
  const [query, setQuery] = useState("");
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Workflow | null>(null);
  const [moving, setMoving] = useState<Workflow | null>(null);
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const { list, deployments, runs, workflows, activeDeployment, lastRun } = useWorkflowsQueries();
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!q) return workflows;
    return workflows.filter(
      (w) => w.name.toLowerCase().includes(q) || w.description.toLowerCase().includes(q) || w.id.includes(q),
    );
  }, [workflows, query]);

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
            await ok(api.PATCH("/api/workflows/{id}", { params: { path: { id: renaming.id } }, body: { name } }));
            void qc.invalidateQueries({ queryKey: workflowKeys.lists });
            void qc.invalidateQueries({ queryKey: workflowKeys.one(renaming.id) });
          }}
          onClose={() => setRenaming(null)}
        />
      )}
      {moving && <MoveDialog w={moving} onClose={() => setMoving(null)} />}
      {deleting && <DeleteDialog w={deleting} onClose={() => setDeleting(null)} />}
    </main>
  );
}
