// The resources of a connection's account (GET /api/resources/…): KV namespaces with their keys and values, D1
// databases with their tables, R2 buckets with their objects. Everything read through one connection is kept under
// resourceKeys.connection(id).
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import type { D1Database, D1Result, KVKey, KVNamespace, KVValue, R2Bucket, R2ObjectPage } from "../../pages/resources/types";
import { api } from "../client";
import type { Page } from "../types";
import { cursorPages } from "./cursor";

export const resourceKeys = {
  connection: (connectionId: string) => ["resources", connectionId] as const,
};

// qs is "&k=v" for each value that is not empty, URL-encoded.
export function qs(values: Record<string, string>): string {
  return Object.entries(values)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `&${k}=${encodeURIComponent(v)}`)
    .join("");
}

const cq = (connectionId: string) => `connectionId=${encodeURIComponent(connectionId)}`;
const kvPath = (namespaceId: string) => `/api/resources/kv/namespaces/${encodeURIComponent(namespaceId)}`;

// D1_TABLES_SQL lists a database's tables and views, without SQLite's and Cloudflare's own.
export const D1_TABLES_SQL =
  "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name";

// d1QueryPath is the route that runs SQL on a database.
export function d1QueryPath(connectionId: string, databaseId: string): string {
  return `/api/resources/d1/databases/${encodeURIComponent(databaseId)}/query?${cq(connectionId)}`;
}

export const resourceQueries = {
  // kvNamespaces: the namespaces whose title starts with prefix, page after page.
  kvNamespaces: (connectionId: string, prefix: string) =>
    cursorPages<KVNamespace>(
      [...resourceKeys.connection(connectionId), "kv", prefix] as const,
      `/api/resources/kv/namespaces?${cq(connectionId)}${qs({ prefix })}`,
    ),
  // kvNamespaceTitle: a namespace's title, found in the first 100 namespaces (undefined past them).
  kvNamespaceTitle: (connectionId: string, namespaceId: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "kv-title", namespaceId] as const,
      queryFn: () => api.get<Page<KVNamespace>>(`/api/resources/kv/namespaces?${cq(connectionId)}&limit=100`),
      select: (p) => p.data.find((n) => n.id === namespaceId)?.title,
    }),
  // kvKeys: a namespace's keys that start with prefix, page after page.
  kvKeys: (connectionId: string, namespaceId: string, prefix: string) =>
    cursorPages<KVKey>(
      [...resourceKeys.connection(connectionId), "kv", namespaceId, "keys", prefix] as const,
      `${kvPath(namespaceId)}/keys?${cq(connectionId)}${qs({ prefix })}`,
    ),
  // kvKey: a key's listing (metadata, expiry), found by its own name as prefix.
  kvKey: (connectionId: string, namespaceId: string, name: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "kv", namespaceId, "key", name] as const,
      queryFn: () => api.get<Page<KVKey>>(`${kvPath(namespaceId)}/keys?${cq(connectionId)}&limit=1&prefix=${encodeURIComponent(name)}`),
      select: (p) => p.data.find((k) => k.name === name),
    }),
  // kvValue: a key's value.
  kvValue: (connectionId: string, namespaceId: string, name: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "kv", namespaceId, "value", name] as const,
      queryFn: () => api.get<KVValue>(`${kvPath(namespaceId)}/values/${encodeURIComponent(name)}?${cq(connectionId)}`),
    }),
  // d1Databases: the databases whose name starts with prefix, page after page.
  d1Databases: (connectionId: string, prefix: string) =>
    cursorPages<D1Database>(
      [...resourceKeys.connection(connectionId), "d1", prefix] as const,
      `/api/resources/d1/databases?${cq(connectionId)}${qs({ prefix })}`,
    ),
  // d1DatabaseName: a database's name, found in the first 100 databases (undefined past them).
  d1DatabaseName: (connectionId: string, databaseId: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "d1-name", databaseId] as const,
      queryFn: () => api.get<Page<D1Database>>(`/api/resources/d1/databases?${cq(connectionId)}&limit=100`),
      select: (p) => p.data.find((d) => d.id === databaseId)?.name,
    }),
  // d1Tables: a database's tables and views, read through the query route.
  d1Tables: (connectionId: string, databaseId: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "d1", databaseId, "tables"] as const,
      queryFn: () => api.post<D1Result>(d1QueryPath(connectionId, databaseId), { sql: D1_TABLES_SQL }),
      retry: false,
    }),
  // r2Buckets: the buckets whose name starts with prefix, page after page.
  r2Buckets: (connectionId: string, prefix: string) =>
    cursorPages<R2Bucket>(
      [...resourceKeys.connection(connectionId), "r2", prefix] as const,
      `/api/resources/r2/buckets?${cq(connectionId)}${qs({ prefix })}`,
    ),
  // r2Objects: a bucket's objects and folders below prefix (listed with the delimiter "/"), 100 a page.
  r2Objects: (connectionId: string, bucket: string, prefix: string) =>
    infiniteQueryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "r2", bucket, "objects", prefix] as const,
      queryFn: ({ pageParam }) =>
        api.get<R2ObjectPage>(
          `/api/resources/r2/buckets/${encodeURIComponent(bucket)}/objects?${cq(connectionId)}&delimiter=%2F&limit=100${qs({ prefix, cursor: pageParam })}`,
        ),
      initialPageParam: "",
      getNextPageParam: (last) => last.nextCursor ?? undefined,
    }),
};
