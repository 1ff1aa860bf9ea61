// What the run page reads and changes: the run (polled every second until it is final), its workflow and the
// version it ran, and pause, resume and terminate. The run lists are refreshed when the run changes or ends.
import { useEffect } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { invalidateRunLists, runQueries } from "../../api/queries/runs";
import { workflowQueries } from "../../api/queries/workflows";
import { isFinalRun } from "../../api/models";
import { isNotFound } from "../NotFound";

export type RunControl = "pause" | "resume" | "terminate";

export function useRunQueries(workflowId: string, runId: string) {
  const qc = useQueryClient();
  const run = useQuery({
    ...runQueries.one(runId),
    refetchInterval: (q) =>
      (q.state.data && isFinalRun(q.state.data.status)) || isNotFound(q.state.error) ? false : q.state.error ? 5_000 : 1_000,
  });
  const r = run.data;
  const deleted = r?.deletedWorkflow;
  const workflow = useQuery({
    ...workflowQueries.record(workflowId),
    // a run read before its workflow was deleted (kept) may be in the cache: wait for the fresh one
    enabled: r !== undefined && !deleted && run.isFetchedAfterMount,
  });
  const version = useQuery({
    ...workflowQueries.version(workflowId, r?.versionId ?? ""),
    enabled: r !== undefined && !deleted && run.isFetchedAfterMount && r.versionId !== "",
  });
  const control = useMutation({
    mutationFn: (action: RunControl) =>
      ok(api.POST(`/api/workflows/{workflowId}/runs/{runId}/${action}`, { params: { path: { workflowId, runId } } })),
    onSuccess: (next) => {
      qc.setQueryData(runQueries.one(runId).queryKey, next);
      invalidateRunLists(qc, workflowId);
    },
  });
  const final = r ? isFinalRun(r.status) : false;
  useEffect(() => {
    // the run lists show the stored state: refresh them once the run is over
    if (final) invalidateRunLists(qc, workflowId);
  }, [final, qc, workflowId]);
  return { run, workflow, version, control, final, deleted };
}
