// useAllWorkflows reads the project's workflows page after page (100 a page) until the last, for the pickers that
// offer every workflow: the agent node's workflow tools and the runs filter. It shares its pages with the workflow
// list (workflowQueries.list), so a project's workflows are read once.
import { useEffect, useMemo } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { workflowQueries } from "./workflows";

export function useAllWorkflows() {
  const list = useInfiniteQuery(workflowQueries.list());
  const { hasNextPage, isFetchingNextPage, fetchNextPage, isError } = list;
  // pages is a dependency: a page can arrive without a render that shows it being fetched.
  const pages = list.data?.pages.length ?? 0;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && !isError) void fetchNextPage();
  }, [pages, hasNextPage, isFetchingNextPage, isError, fetchNextPage]);
  const workflows = useMemo(() => list.data?.pages.flatMap((p) => p.data) ?? [], [list.data]);
  return { workflows, isPending: list.isPending || hasNextPage, error: list.error };
}
