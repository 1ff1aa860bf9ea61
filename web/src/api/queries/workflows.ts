// Workflows and functions (GET /api/workflows…) and their versions. Everything read about one workflow is kept
// under workflowKeys.one(id), so that one invalidation refreshes its editor, versions and run lists.
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, ApiError, ok, pageQuery } from "../client";
import type { Project } from "../models";

export const workflowKeys = {
  // lists: every list of the project's workflows.
  lists: ["workflows"] as const,
  // one: everything read about one workflow (its record, versions, runs).
  one: (workflowId: string) => ["workflow", workflowId] as const,
};

const workflows = (limit: number, cursor?: string) =>
  ok(api.GET("/api/workflows", { params: { query: pageQuery(limit, cursor) } }));
const versions = (workflowId: string, limit: number) =>
  ok(api.GET("/api/workflows/{workflowId}/versions", { params: { path: { workflowId }, query: { limit } } }));

export const workflowQueries = {
  // list: the project's workflows, 100 a page.
  list: () =>
    infiniteQueryOptions({
      queryKey: [...workflowKeys.lists, "list"] as const,
      queryFn: ({ pageParam }) => workflows(100, pageParam),
      initialPageParam: "",
      getNextPageParam: (last) => last.nextCursor ?? undefined,
    }),
  // estimate: what runsPerMonth runs of a version cost on a connection's plan (GET …/estimate).
  estimate: (workflowId: string, versionId: string, connectionId: string, runsPerMonth: number) =>
    queryOptions({
      queryKey: [...workflowKeys.one(workflowId), "estimate", versionId, connectionId, runsPerMonth] as const,
      queryFn: () =>
        ok(
          api.GET("/api/workflows/{workflowId}/estimate", {
            params: { path: { workflowId }, query: { versionId, connectionId, runsPerMonth: String(runsPerMonth) } },
          }),
        ),
    }),
  // deployPlan: what a deploy of a version to a connection or an environment would do to the runs in flight there
  // (GET …/deploy-plan, docs/releases.md); target is {connectionId} or {environment}.
  deployPlan: (workflowId: string, versionId: string, target: { connectionId?: string; environment?: string }) =>
    queryOptions({
      queryKey: [
        ...workflowKeys.one(workflowId),
        "deploy-plan",
        versionId,
        target.connectionId ?? "",
        target.environment ?? "",
      ] as const,
      queryFn: () =>
        ok(
          api.GET("/api/workflows/{workflowId}/deploy-plan", {
            params: { path: { workflowId }, query: { versionId, ...target } },
          }),
        ),
    }),
  // record: the workflow's record.
  record: (workflowId: string) =>
    queryOptions({
      queryKey: [...workflowKeys.one(workflowId), "record"] as const,
      queryFn: () => ok(api.GET("/api/workflows/{id}", { params: { path: { id: workflowId } } })),
    }),
  // full: the workflow with its current version, versions and active deployment, for the editor.
  full: (workflowId: string) =>
    queryOptions({
      queryKey: [...workflowKeys.one(workflowId), "full"] as const,
      queryFn: () => ok(api.GET("/api/workflows/{id}/full", { params: { path: { id: workflowId } } })),
    }),
  // pinnedOutputs: the outputs pinned to the workflow's nodes, which its test runs use instead of running them.
  pinnedOutputs: (workflowId: string) =>
    queryOptions({
      queryKey: [...workflowKeys.one(workflowId), "pinned-outputs"] as const,
      queryFn: () => ok(api.GET("/api/workflows/{workflowId}/pinned-outputs", { params: { path: { workflowId } } })),
    }),
  // versions: the workflow's newest 100 versions, highest first.
  versions: (workflowId: string) =>
    queryOptions({
      queryKey: [...workflowKeys.one(workflowId), "versions"] as const,
      queryFn: () => versions(workflowId, 100),
    }),
  // newestVersion: the summary of the newest version (the list answer has no version numbers); currentVersionId
  // is part of the key, so a new current version is read again.
  newestVersion: (workflowId: string, currentVersionId: string) =>
    queryOptions({
      queryKey: [...workflowKeys.one(workflowId), "versions", "newest", currentVersionId] as const,
      queryFn: () => versions(workflowId, 1),
      staleTime: 60_000,
    }),
  // version: one version with its IR and code; a version never changes.
  version: (workflowId: string, versionId: string) =>
    queryOptions({
      queryKey: [...workflowKeys.one(workflowId), "version", versionId] as const,
      queryFn: () =>
        ok(
          api.GET("/api/workflows/{workflowId}/versions/{versionId}", { params: { path: { workflowId, versionId } } }),
        ),
      staleTime: Infinity,
    }),
  // locate: the project among others that holds the workflow (a link shared from another project), or null.
  locate: (workflowId: string, others: readonly Project[]) =>
    queryOptions({
      queryKey: ["locate-workflow", workflowId, others.map((p) => p.id).join(",")] as const,
      queryFn: async () => {
        for (const p of others) {
          try {
            const w = await ok(
              api.GET("/api/workflows/{id}", { params: { path: { id: workflowId }, query: { projectId: p.id } } }),
            );
            return { project: p, workflow: w };
          } catch (err) {
            if (!(err instanceof ApiError && err.status === 404)) throw err;
          }
        }
        return null;
      },
    }),
};
