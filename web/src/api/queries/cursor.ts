// Lists the API answers a page at a time (docs/api.md, "Pagination"): the query options of such a list, read page
// after page with its cursors, and the hook that shows the pages as one list with "Load more".
import { useMemo } from "react";
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData, type QueryKey } from "@tanstack/react-query";
import { api } from "../client";
import type { Page } from "../types";

// pagePath is path asked for limit records after cursor ("" for the first page).
export function pagePath(path: string, limit: number, cursor: string): string {
  const sep = path.includes("?") ? "&" : "?";
  return `${path}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
}

// cursorPages are the options of the list at path under queryKey, limit records a page.
export function cursorPages<T, const K extends QueryKey = QueryKey>(queryKey: K, path: string, limit = 50) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => api.get<Page<T>>(pagePath(path, limit, pageParam)),
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

// CursorPages are the options cursorPages makes, for a list of T.
export type CursorPages<T> = ReturnType<typeof cursorPages<T>>;

// useCursorList reads a list made by cursorPages: items are the records of every page read so far.
export function useCursorList<T>(options: CursorPages<T>) {
  const q = useInfiniteQuery(options);
  const items = useMemo(() => (q.data as InfiniteData<Page<T>> | undefined)?.pages.flatMap((p) => p.data) ?? [], [q.data]);
  return { ...q, items };
}
