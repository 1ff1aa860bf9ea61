// Lists the API answers a page at a time (docs/api.md, "Pagination"): the query options of such a list, read page
// after page with its cursors, and the hook that shows the pages as one list with "Load more".
import { useMemo } from "react";
import { infiniteQueryOptions, useInfiniteQuery, type InfiniteData, type QueryKey } from "@tanstack/react-query";

// Page is one page of a list as every list route answers it; the record type comes from the route (schema.gen.ts).
export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

// withPage is the query string search (filters a page built, "" for none) with a page's limit and cursor added.
export function withPage(search: string, limit: number, cursor: string): string {
  return `${search ? `${search}&` : ""}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
}

// cursorPages are the options of the list under queryKey whose pages fetchPage reads (cursor "" for the first).
export function cursorPages<T>(queryKey: QueryKey, fetchPage: (cursor: string) => Promise<Page<T>>) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: ({ pageParam }) => fetchPage(pageParam),
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
