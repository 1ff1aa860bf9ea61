// The resources of a connection's account (GET /api/resources/…): KV namespaces with their keys and values, D1
// databases with their tables, R2 buckets with their objects. Everything read through one connection is kept under
// resourceKeys.connection(id).
import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, ok, pageQuery } from "../client";
import { cursorPages } from "./cursor";

export const resourceKeys = {
  connection: (connectionId: string) => ["resources", connectionId] as const,
};

// filter is the value of an optional filter of a list: left out when empty.
const filter = (v: string) => (v === "" ? undefined : v);

// D1_TABLES_SQL lists a database's tables and views, without SQLite's and Cloudflare's own.
export const D1_TABLES_SQL =
  "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name";

// d1Query runs SQL on a database.
export function d1Query(connectionId: string, databaseId: string, body: { sql: string; params?: unknown[] }) {
  return ok(
    api.POST("/api/resources/d1/databases/{databaseId}/query", {
      params: { path: { databaseId }, query: { connectionId } },
      body,
    }),
  );
}

const kvNamespaces = (connectionId: string, limit: number, cursor?: string, prefix = "") =>
  ok(api.GET("/api/resources/kv/namespaces", { params: { query: { connectionId, prefix: filter(prefix), ...pageQuery(limit, cursor) } } }));

const kvKeys = (connectionId: string, namespaceId: string, prefix: string, limit: number, cursor?: string) =>
  ok(
    api.GET("/api/resources/kv/namespaces/{namespaceId}/keys", {
      params: { path: { namespaceId }, query: { connectionId, prefix: filter(prefix), ...pageQuery(limit, cursor) } },
    }),
  );

const d1Databases = (connectionId: string, limit: number, cursor?: string, prefix = "") =>
  ok(api.GET("/api/resources/d1/databases", { params: { query: { connectionId, prefix: filter(prefix), ...pageQuery(limit, cursor) } } }));

export const resourceQueries = {
  // kvNamespaces: the namespaces whose title starts with prefix, page after page.
  kvNamespaces: (connectionId: string, prefix: string) =>
    cursorPages([...resourceKeys.connection(connectionId), "kv", prefix] as const, (cursor) =>
      kvNamespaces(connectionId, 50, cursor, prefix),
    ),
  // kvNamespaceTitle: a namespace's title, found in the first 100 namespaces (undefined past them).
  kvNamespaceTitle: (connectionId: string, namespaceId: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "kv-title", namespaceId] as const,
      queryFn: () => kvNamespaces(connectionId, 100),
      select: (p) => p.data.find((n) => n.id === namespaceId)?.title,
    }),
  // kvKeys: a namespace's keys that start with prefix, page after page.
  kvKeys: (connectionId: string, namespaceId: string, prefix: string) =>
    cursorPages([...resourceKeys.connection(connectionId), "kv", namespaceId, "keys", prefix] as const, (cursor) =>
      kvKeys(connectionId, namespaceId, prefix, 50, cursor),
    ),
  // kvKey: a key's listing (metadata, expiry), found by its own name as prefix.
  kvKey: (connectionId: string, namespaceId: string, name: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "kv", namespaceId, "key", name] as const,
      queryFn: () => kvKeys(connectionId, namespaceId, name, 1),
      select: (p) => p.data.find((k) => k.name === name),
    }),
  // kvValue: a key's value.
  kvValue: (connectionId: string, namespaceId: string, name: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "kv", namespaceId, "value", name] as const,
      queryFn: () =>
        ok(
          api.GET("/api/resources/kv/namespaces/{namespaceId}/values/{key}", {
            params: { path: { namespaceId, key: name }, query: { connectionId } },
          }),
        ),
    }),
  // d1Databases: the databases whose name starts with prefix, page after page.
  d1Databases: (connectionId: string, prefix: string) =>
    cursorPages([...resourceKeys.connection(connectionId), "d1", prefix] as const, (cursor) =>
      d1Databases(connectionId, 50, cursor, prefix),
    ),
  // d1DatabaseName: a database's name, found in the first 100 databases (undefined past them).
  d1DatabaseName: (connectionId: string, databaseId: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "d1-name", databaseId] as const,
      queryFn: () => d1Databases(connectionId, 100),
      select: (p) => p.data.find((d) => d.id === databaseId)?.name,
    }),
  // d1Tables: a database's tables and views, read through the query route.
  d1Tables: (connectionId: string, databaseId: string) =>
    queryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "d1", databaseId, "tables"] as const,
      queryFn: () => d1Query(connectionId, databaseId, { sql: D1_TABLES_SQL }),
      retry: false,
    }),
  // r2Buckets: the buckets whose name starts with prefix, page after page.
  r2Buckets: (connectionId: string, prefix: string) =>
    cursorPages([...resourceKeys.connection(connectionId), "r2", prefix] as const, (cursor) =>
      ok(api.GET("/api/resources/r2/buckets", { params: { query: { connectionId, prefix: filter(prefix), ...pageQuery(50, cursor) } } })),
    ),
  // r2Objects: a bucket's objects and folders below prefix (listed with the delimiter "/"), 100 a page.
  r2Objects: (connectionId: string, bucket: string, prefix: string) =>
    infiniteQueryOptions({
      queryKey: [...resourceKeys.connection(connectionId), "r2", bucket, "objects", prefix] as const,
      queryFn: ({ pageParam }) =>
        ok(
          api.GET("/api/resources/r2/buckets/{bucketName}/objects", {
            params: {
              path: { bucketName: bucket },
              query: { connectionId, delimiter: "/", prefix: filter(prefix), ...pageQuery(100, pageParam) },
            },
          }),
        ),
      initialPageParam: "",
      getNextPageParam: (last) => last.nextCursor ?? undefined,
    }),
};
