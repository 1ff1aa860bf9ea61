// Runs (GET /api/runs…): the project's run lists, a workflow's recent runs, one run and its logs.
import { queryOptions, type QueryClient } from "@tanstack/react-query";
import { api, ok } from "../client";
import { workflowKeys } from "./workflows";

export const runKeys = {
  // lists: every list of the project's runs.
  lists: ["runs"] as const,
  // ofWorkflow: a workflow's recent runs.
  ofWorkflow: (workflowId: string) => [...workflowKeys.one(workflowId), "runs"] as const,
  // one: everything read about one run; runKeys.everyRun is all of them.
  everyRun: ["run"] as const,
  one: (runId: string) => ["run", runId] as const,
  // stepOutput: a step's full output (one attempt or iteration), read by its URL; part of everything read of the run.
  stepOutput: (runId: string, url: string) => ["run", runId, "step-output", url] as const,
  // bulkJob: a bulk action's job (GET /api/runs/bulk/:id), which Studio follows until it ends.
  bulkJob: (jobId: string) => ["bulk", jobId] as const,
};

export const runQueries = {
  // recent: the project's newest 100 runs (the workflow list shows each workflow's last run).
  recent: () =>
    queryOptions({
      queryKey: [...runKeys.lists, "recent"] as const,
      queryFn: () => ok(api.GET("/api/runs", { params: { query: { limit: 100 } } })),
    }),
  // search: a page of the project's runs found by filters (search is their query string, runsQuery the request's).
  search: (search: string, cursor: string, runsQuery: string) =>
    queryOptions({
      queryKey: [...runKeys.lists, "search", search, cursor] as const,
      queryFn: () => ok(api.GET("/api/runs", { querySerializer: () => runsQuery })),
    }),
  // usage: the token usage of the runs the filters select, per workflow (search is their query string, usageQuery
  // the request's).
  usage: (search: string, usageQuery: string) =>
    queryOptions({
      queryKey: [...runKeys.lists, "usage", search] as const,
      queryFn: () => ok(api.GET("/api/runs/usage", { querySerializer: () => usageQuery })),
    }),
  // ofWorkflow: the workflow's newest 20 runs.
  ofWorkflow: (workflowId: string) =>
    queryOptions({
      queryKey: runKeys.ofWorkflow(workflowId),
      queryFn: () =>
        ok(api.GET("/api/workflows/{workflowId}/runs", { params: { path: { workflowId }, query: { limit: 20 } } })),
    }),
  // one: a run by its id (also one whose workflow was deleted and its runs kept).
  one: (runId: string) =>
    queryOptions({
      queryKey: runKeys.one(runId),
      queryFn: () => ok(api.GET("/api/runs/{runId}", { params: { path: { runId } } })),
    }),
  // logs: the run's console lines and exceptions.
  logs: (workflowId: string, runId: string) =>
    queryOptions({
      queryKey: [...runKeys.one(runId), "logs"] as const,
      queryFn: () =>
        ok(api.GET("/api/workflows/{workflowId}/runs/{runId}/logs", { params: { path: { workflowId, runId } } })),
    }),
};

// invalidateRunLists marks the project's run lists and the workflow's recent runs stale: a run started, changed or
// ended.
export function invalidateRunLists(qc: QueryClient, workflowId: string): void {
  void qc.invalidateQueries({ queryKey: runKeys.lists });
  void qc.invalidateQueries({ queryKey: runKeys.ofWorkflow(workflowId) });
}
