// What the versions page reads and changes: the workflow, its versions, and lock, revert and export of a version
// (its IR, or a wrangler project: docs/export.md);
// a change refreshes everything read about the workflow and the workflow lists. actionError is the last refusal,
// with the version it is about.
import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, apiError, ok } from "../../api/client";
import { workflowKeys, workflowQueries } from "../../api/queries/workflows";
import type { VersionDetail, Version } from "../../api/models";
import { downloadBlob, downloadJSON, fileSlug } from "../../app/ui";

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
    mutationFn: (v: Version) =>
      ok(
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
    onSuccess: (v: VersionDetail) =>
      downloadJSON(`${fileSlug(workflow.data?.name ?? "workflow")}.v${v.version}.ir.json`, v.ir),
    onError: (error, v) => setActionError({ id: v.id, error }),
  });
  // The archive is not JSON, which the typed client refuses: it is fetched as the file it is (a GET needs no CSRF
  // token), named as the server's Content-Disposition names it.
  const exportWrangler = useMutation({
    mutationFn: async (v: Version) => {
      const path = `/api/workflows/${encodeURIComponent(workflowId)}/versions/${encodeURIComponent(v.id)}/export?format=wrangler`;
      const res = await fetch(path, { credentials: "same-origin" });
      if (!res.ok) {
        const body: unknown = await res.json().catch(() => ({}));
        throw apiError(res.status, (body ?? {}) as Parameters<typeof apiError>[1], "error", res.statusText);
      }
      const named = /filename="([^"/\\]+)"/.exec(res.headers.get("Content-Disposition") ?? "")?.[1];
      downloadBlob(
        named ?? `${fileSlug(workflow.data?.name ?? "workflow")}-v${v.version}-wrangler.tar.gz`,
        await res.blob(),
      );
    },
    onSuccess: () => setActionError(null),
    onError: (error, v) => setActionError({ id: v.id, error }),
  });
  return { workflow, versions, lock, revert, exportVersion, exportWrangler, actionError, invalidate };
}
