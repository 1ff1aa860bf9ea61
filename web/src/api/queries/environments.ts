// A project's environments (GET /api/projects/:id/environments) and what the Releases view reads of one workflow's
// deployments (docs/environments.md). The deployments are kept under workflowKeys.one, so that a promotion or a
// rollback refreshes them with everything else read about the workflow.
import { queryOptions } from "@tanstack/react-query";
import { api, ok } from "../client";
import { workflowKeys } from "./workflows";

export const environmentKeys = {
  // project: the environments of one project.
  project: (projectId: string) => ["environments", projectId] as const,
};

export const environmentQueries = {
  // list: the project's environments, by name (at most 20).
  list: (projectId: string) =>
    queryOptions({
      queryKey: environmentKeys.project(projectId),
      enabled: projectId !== "",
      queryFn: () => ok(api.GET("/api/projects/{id}/environments", { params: { path: { id: projectId } } })),
    }),
  // deployments: the workflow's newest 100 deployments with their states (active, draining, retired, removed).
  deployments: (workflowId: string) =>
    queryOptions({
      queryKey: [...workflowKeys.one(workflowId), "releases"] as const,
      queryFn: () =>
        ok(
          api.GET("/api/workflows/{workflowId}/deployments", {
            params: { path: { workflowId }, query: { limit: 100 } },
          }),
        ),
    }),
};
