// What the versions page reads and changes: the workflow, its versions, and lock, revert and export of a version;
// a change refreshes everything read about the workflow and the workflow lists. actionError is the last refusal,
// with the version it is about.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { workflowKeys, workflowQueries } from "../../api/queries/workflows";
import type { VersionDetail, Version } from "../../api/models";
import { downloadJSON, fileSlug } from "../../app/ui";

export function useVersionsQueries(workflowId: string) {
  const qc = useQueryClient();
  const workflow = useQuery(workflowQueries.record(workflowId));
  const versions = useQuery(workflowQueries.versions(workflowId));
  const [actionError, setActionError] = useState<{ id: string; error: unknown } | null>(null);
  const invalidate = () => {
    void qc.invalidateQueries({ queryKey: workflowKeys.one(workflowId) });
    void qc.invalidateQueries({ queryKey: workflowKeys.lists });
  };
  const lock = useMutation({
    mutationFn: (v: Version) => ok(
        api.PATCH("/api/workflows/{workflowId}/versions/{versionId}", {
          params: { path: { workflowId, versionId: v.id } },
          body: { locked: !v.locked },
        }),
      ),
    onSuccess: () => {
      setActionError(null);
      invalidate();
    },
    onError: (error, v) => setActionError({ id: v.id, error }),
  });
  const revert = useMutation({
    mutationFn: (v: Version) =>
      ok(
        api.POST("/api/workflows/{workflowId}/versions/{versionId}/revert", {
          params: { path: { workflowId, versionId: v.id } },
        }),
      ),
    onSuccess: () => {
      setActionError(null);
      invalidate();
    },
    onError: (error, v) => setActionError({ id: v.id, error }),
  });
  const exportVersion = useMutation({
    mutationFn: (v: Version) => qc.fetchQuery(workflowQueries.version(workflowId, v.id)),
    onSuccess: (v: VersionDetail) => downloadJSON(`${fileSlug(workflow.data?.name ?? "workflow")}.v${v.version}.ir.json`, v.ir),
    onError: (error, v) => setActionError({ id: v.id, error }),
  });
  return { workflow, versions, lock, revert, exportVersion, actionError, invalidate };
}
