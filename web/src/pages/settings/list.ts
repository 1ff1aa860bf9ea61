// A list of the API read page by page with its cursors: the first page, then "Load more".
import { useMemo } from "react";
import { useInfiniteQuery } from "@tanstack/react-query";
import { api } from "../../api/client";
import type { Page } from "../../api/types";

export function useCursorList<T>(key: unknown[], path: string, limit = 50) {
  const q = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => {
      const sep = path.includes("?") ? "&" : "?";
      return api.get<Page<T>>(`${path}${sep}limit=${limit}${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ""}`);
    },
    initialPageParam: "",
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const items = useMemo(() => q.data?.pages.flatMap((p) => p.data) ?? [], [q.data]);
  return { ...q, items };
}

// byName sorts records by name as people read them (case-insensitive, numbers in order).
export function byName<T extends { name: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base", numeric: true }));
}
