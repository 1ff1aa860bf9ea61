// What the editor page reads and changes: the workflow with its current version (GET /api/workflows/:id/full)
// and Save version (POST …/versions), which refreshes everything read about the workflow and the workflow lists.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { workflowKeys, workflowQueries } from "../../api/queries/workflows";
import type { WorkflowIR } from "../../ir/types";

export function useEditorQueries(workflowId: string, onSaved: () => void) {
  const qc = useQueryClient();
  const full = useQuery(workflowQueries.full(workflowId));
  const save = useMutation({
    mutationFn: (v: WorkflowIR) =>
      ok(api.POST("/api/workflows/{workflowId}/versions", { params: { path: { workflowId } }, body: { ir: v } })),
    onSuccess: async () => {
      onSaved();
      await qc.invalidateQueries({ queryKey: workflowKeys.one(workflowId) });
      void qc.invalidateQueries({ queryKey: workflowKeys.lists });
    },
  });
  return { full, save };
}
