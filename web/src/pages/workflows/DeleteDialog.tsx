import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { deploymentKeys } from "../../api/queries/deployments";
import { runKeys } from "../../api/queries/runs";
import { workflowKeys, workflowQueries } from "../../api/queries/workflows";
import type { Workflow } from "../../api/models";
import { Dialog, ErrorMessage } from "../../app/ui";

// DeleteDialog deletes a workflow with its versions and deployments after a confirmation, deleting or keeping its
// runs.
export function DeleteDialog({ w, onClose }: { w: Workflow; onClose: () => void }) {
  const qc = useQueryClient();
  const [runs, setRuns] = useState<"delete" | "keep">("delete");
  const m = useMutation({
    mutationFn: () => ok(api.DELETE("/api/workflows/{id}", { params: { path: { id: w.id }, query: { runs } } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: workflowKeys.lists });
      void qc.invalidateQueries({ queryKey: deploymentKeys.all });
      void qc.invalidateQueries({ queryKey: runKeys.lists });
      // what the run pages read of the workflow and its runs is gone or changed (those pages are not shown now)
      qc.removeQueries({ queryKey: workflowQueries.record(w.id).queryKey });
      qc.removeQueries({ queryKey: runKeys.everyRun });
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
