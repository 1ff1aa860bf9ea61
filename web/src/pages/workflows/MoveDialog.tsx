import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { projectQueries } from "../../api/queries/projects";
import { workflowKeys } from "../../api/queries/workflows";
import type { Workflow } from "../../api/models";
import { useSession } from "../../app/session";
import { Dialog, ErrorMessage, Loading } from "../../app/ui";

// MoveDialog moves a workflow with its versions, deployments and runs to another project of the organization.
export function MoveDialog({ w, onClose }: { w: Workflow; onClose: () => void }) {
  const qc = useQueryClient();
  const session = useSession().data!;
  const projects = useQuery(projectQueries.list(session.activeOrganizationId));
  const others = (projects.data?.data ?? []).filter((p) => p.id !== w.projectId);
  const [target, setTarget] = useState("");
  const chosen = target || others[0]?.id || "";
  const m = useMutation({
    mutationFn: () => ok(api.PATCH("/api/workflows/{id}/move", { params: { path: { id: w.id } }, body: { targetProjectId: chosen } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: workflowKeys.lists });
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
