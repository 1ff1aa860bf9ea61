// What the workflow list reads: the project's workflows (page after page), its deployments and its newest runs, with
// each workflow's active deployment and last run.
import { useMemo } from "react";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { deploymentQueries } from "../../api/queries/deployments";
import { runQueries } from "../../api/queries/runs";
import { workflowQueries } from "../../api/queries/workflows";
import type { Deployment, Run } from "../../api/models";

export function useWorkflowsQueries() {
  const list = useInfiniteQuery(workflowQueries.list());
  const deployments = useQuery(deploymentQueries.list());
  const runs = useQuery(runQueries.recent());
  const workflows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  const activeDeployment = useMemo(() => {
    const m = new Map<string, Deployment>();
    for (const d of deployments.data?.data ?? []) if (d.status === "active" && !m.has(d.workflowId)) m.set(d.workflowId, d);
    return m;
  }, [deployments.data]);
  const lastRun = useMemo(() => {
    const m = new Map<string, Run>();
    for (const r of runs.data?.data ?? []) if (!m.has(r.workflowId)) m.set(r.workflowId, r);
    return m;
  }, [runs.data]);
  return { list, deployments, runs, workflows, activeDeployment, lastRun };
}
