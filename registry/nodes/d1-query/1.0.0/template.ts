// D1 Query 1.0.0: D1Database.prepare(sql).bind(...params).all() on the
// binding named in the config.
// https://developers.cloudflare.com/d1/worker-api/prepared-statements/

interface Config {
  binding: string;
  sql: string;
  params?: unknown;
}

interface Output {
  results: Record<string, unknown>[];
  meta: { changes: number; lastRowId: number; rowsRead: number; rowsWritten: number; duration: number };
}

export default async function d1Query(ctx: { config: Config; env: Record<string, unknown> }): Promise<Output> {
  const { config } = ctx;
  const db = ctx.env[config.binding] as D1Database | undefined;
  if (!db || typeof db.prepare !== "function") {
    throw new Error(`D1: no D1 database is bound as ${config.binding}`);
  }
  const params = config.params ?? [];
  if (!Array.isArray(params)) {
    throw new Error("D1: params must be a JSON array");
  }
  let result: D1Result<Record<string, unknown>>;
  try {
    result = await db
      .prepare(config.sql)
      .bind(...params)
      .all<Record<string, unknown>>();
  } catch (e) {
    throw new Error(`D1 query failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const meta = result.meta as Partial<D1Meta> | undefined;
  return {
    results: result.results ?? [],
    meta: {
      changes: meta?.changes ?? 0,
      lastRowId: meta?.last_row_id ?? 0,
      rowsRead: meta?.rows_read ?? 0,
      rowsWritten: meta?.rows_written ?? 0,
      duration: meta?.duration ?? 0,
    },
  };
}
