// The records of the resources browser, as docs/api.md gives them (GET /api/resources/…).

export interface KVNamespace {
  id: string;
  title: string;
}

export interface KVKey {
  name: string;
  expiration?: number;
  metadata?: unknown;
}

export interface KVValue {
  key: string;
  value: string;
  encoding: "utf-8" | "base64";
  size: number;
}

export interface D1Database {
  id: string;
  name: string;
  createdAt?: string;
  numTables: number;
  fileSize: number;
}

export interface D1Result {
  columns: string[];
  rows: unknown[][];
  meta: { duration: number; changes: number; lastRowId: number; rowsRead: number; rowsWritten: number };
}

export interface R2Bucket {
  name: string;
  createdAt?: string;
}

export interface R2Object {
  key: string;
  size: number;
  etag?: string;
  lastModified?: string;
  contentType?: string;
}

export interface R2ObjectPage {
  data: R2Object[];
  delimitedPrefixes: string[];
  nextCursor: string | null;
}
