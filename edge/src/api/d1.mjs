// D1 databases and their queries. Every handler takes the account's context (ctx, see ../api.mjs) and the call (c);
// the route table (routes.mjs) lists them.

import fs from "node:fs";
import { TRANSFER_PREFIX } from "../d1transfer.mjs";
import { EdgeError, D1_ERROR, D1_INVALID, D1_NAME_TAKEN, D1_NOT_FOUND } from "../errors.mjs";
import { intParam, pageInfo, requireObject } from "../http.mjs";
import { newId, now } from "../registry.mjs";

function findDatabase(ctx, c) {
  const db = ctx.state.d1[c.params.db];
  if (!db) throw new EdgeError(404, D1_NOT_FOUND, `The database ${c.params.db} could not be found`);
  return db;
}

function dbJSON(db) {
  return {
    uuid: db.uuid,
    name: db.name,
    version: "production",
    created_at: db.created_at,
    num_tables: null,
    file_size: null,
    read_replication: { mode: db.read_replication ?? "disabled" },
  };
}

// putDatabase and patchDatabase are Cloudflare's PUT (read_replication required) and PATCH (optional) of a
// database: the mode (auto or disabled) is kept and shown; the edge holds one copy of each database, so reads are
// served by it either way (meta.served_by_primary is true).
export function putDatabase(ctx, c) {
  return setReadReplication(ctx, c, true);
}

export function patchDatabase(ctx, c) {
  return setReadReplication(ctx, c, false);
}

async function setReadReplication(ctx, c, required) {
  const db = findDatabase(ctx, c);
  const body = requireObject((await c.json({ allowEmpty: !required })) ?? {});
  const rr = body.read_replication;
  if (rr === undefined && !required) return { result: dbJSON(db) };
  if (rr === null || typeof rr !== "object" || Array.isArray(rr))
    throw new EdgeError(400, D1_INVALID, "read_replication must be an object {mode: 'auto' | 'disabled'}");
  if (rr.mode !== "auto" && rr.mode !== "disabled")
    throw new EdgeError(
      400,
      D1_INVALID,
      `read_replication.mode must be auto or disabled, got ${JSON.stringify(rr.mode)}`,
    );
  await ctx.apply(
    (st) => {
      st.d1[db.uuid].read_replication = rr.mode;
    },
    { restart: false },
  );
  return { result: dbJSON(ctx.state.d1[db.uuid]) };
}

// databaseInfo answers a database's details with its table count and file size (`wrangler d1 info`), read from
// the database itself; the list leaves them null so that listing does not start every database's workerd.
export async function databaseInfo(ctx, c) {
  const db = findDatabase(ctx, c);
  const [r] = await ctx.runtime.d1Query({
    db: db.uuid,
    sql: "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
    raw: false,
    readOnly: false,
  });
  return { result: { ...dbJSON(db), num_tables: r.results[0].n, file_size: r.meta.size_after } };
}

export function listDatabases(ctx, c) {
  const name = c.query.get("name");
  let list = Object.values(ctx.state.d1).sort((a, b) => a.name.localeCompare(b.name));
  if (name) list = list.filter((d) => d.name === name);
  const { items, info } = pageInfo(
    list.map((d) => dbJSON(d)),
    intParam(c.query, "page", { def: 1, min: 1 }),
    intParam(c.query, "per_page", { def: 100, min: 1, max: 10000 }),
  );
  return { result: items, info };
}

export async function createDatabase(ctx, c) {
  const body = requireObject(await c.json());
  if (typeof body.name !== "string" || !/^[a-z0-9][a-z0-9_-]{0,63}$/i.test(body.name)) {
    throw new EdgeError(400, D1_INVALID, "name must be 1-64 letters, digits, '-' and '_'");
  }
  if (Object.values(ctx.state.d1).some((d) => d.name === body.name)) {
    throw new EdgeError(400, D1_NAME_TAKEN, `A database with name '${body.name}' already exists`);
  }
  const uuid = newId();
  await ctx.apply(
    (st) => {
      st.d1[uuid] = { uuid, name: body.name, created_at: now() };
    },
    { restart: false },
  ); // the database runs in a workerd of its own (d1host.mjs); the main one is unchanged
  return { result: dbJSON(ctx.state.d1[uuid]) };
}

export async function deleteDatabase(ctx, c) {
  const db = findDatabase(ctx, c);
  await ctx.apply((st) => {
    delete st.d1[db.uuid];
  });
  await ctx.runtime.d1.forget(db.uuid);
  ctx.runtime.d1transfers.forget(db.uuid);
  return { result: null };
}

// query and queryRaw run SQL on a database: POST …/query answers rows as objects, POST …/raw as arrays.
export function query(ctx, c) {
  return runQuery(ctx, c, false);
}

export function queryRaw(ctx, c) {
  return runQuery(ctx, c, true);
}

async function runQuery(ctx, c, raw) {
  const db = findDatabase(ctx, c);
  const body = requireObject(await c.json());
  if (body.batch !== undefined) {
    if (!Array.isArray(body.batch) || body.batch.length === 0)
      throw new EdgeError(400, D1_INVALID, "batch must be a non-empty array of {sql, params}");
  } else if (typeof body.sql !== "string" || body.sql.trim() === "") {
    throw new EdgeError(400, D1_INVALID, "sql must be a non-empty string");
  }
  if (body.params !== undefined && !Array.isArray(body.params))
    throw new EdgeError(400, D1_INVALID, "params must be an array");
  const readOnly = readOnlyParam(c.query);
  const result = await ctx.runtime.d1Query({
    db: db.uuid,
    sql: body.sql,
    params: body.params,
    batch: body.batch,
    raw,
    readOnly,
  });
  return { result };
}

// The import flow ({action: init | ingest | poll}) and the export flow of d1transfer.mjs (decisions 256-257).
export async function importSql(ctx, c) {
  const db = findDatabase(ctx, c);
  const body = requireObject(await c.json());
  const T = ctx.runtime.d1transfers;
  const etag = () => {
    if (typeof body.etag !== "string" || !/^[0-9a-f]{32}$/i.test(body.etag)) {
      throw new EdgeError(400, D1_INVALID, "etag must be the md5 hash of the SQL file, 32 hexadecimal digits");
    }
    return body.etag.toLowerCase();
  };
  switch (body.action) {
    case "init": {
      const md5 = etag();
      const known = T.uploaded(db.uuid, { etag: md5 });
      if (known) return { result: await startImport(ctx, db, known) };
      const { token, filename } = T.newUpload(db.uuid, md5);
      return {
        result: { success: true, type: "import", upload_url: transferURL(ctx, c, token), filename, messages: [] },
      };
    }
    case "ingest": {
      const md5 = etag();
      if (typeof body.filename !== "string" || body.filename === "")
        throw new EdgeError(400, D1_INVALID, "filename must be the filename the init answered");
      const up = T.uploaded(db.uuid, { filename: body.filename });
      if (!up)
        throw new EdgeError(
          400,
          D1_INVALID,
          `file '${body.filename}' has not been uploaded to this database's upload URL (or it expired); start again with action init`,
        );
      if (up.md5 !== md5)
        throw new EdgeError(
          400,
          D1_INVALID,
          `the uploaded file's md5 is ${up.md5}, not the etag ${md5}: upload the file again`,
        );
      return { result: await startImport(ctx, db, up) };
    }
    case "poll": {
      if (typeof body.current_bookmark !== "string" || body.current_bookmark === "") {
        throw new EdgeError(400, D1_INVALID, "current_bookmark must be the at_bookmark of the import being polled");
      }
      rethrow(() => T.job(db.uuid, "import", body.current_bookmark));
      return { result: jobJSON(await T.settle(body.current_bookmark), body.current_bookmark) };
    }
    default:
      throw new EdgeError(400, D1_INVALID, "action must be one of init, ingest and poll");
  }
}

// startImport runs an uploaded file on the database as one job, and answers its state after a short wait.
async function startImport(ctx, db, up) {
  const T = ctx.runtime.d1transfers;
  refuseBusy(T, db);
  const bookmark = T.start(db.uuid, "import", async () => {
    const sql = await fs.promises.readFile(up.file, "utf8");
    const out = await ctx.runtime.d1.importSql(db.uuid, sql);
    return { num_queries: out.num_queries, meta: out.meta };
  });
  const job = await T.settle(bookmark);
  return { ...jobJSON(job, bookmark), filename: up.filename };
}

export async function exportSql(ctx, c) {
  const db = findDatabase(ctx, c);
  const body = requireObject(await c.json());
  const T = ctx.runtime.d1transfers;
  if (body.output_format !== "polling") throw new EdgeError(400, D1_INVALID, 'output_format must be "polling"');
  if (body.current_bookmark !== undefined && body.current_bookmark !== null) {
    if (typeof body.current_bookmark !== "string")
      throw new EdgeError(400, D1_INVALID, "current_bookmark must be the at_bookmark of the export being polled");
    rethrow(() => T.job(db.uuid, "export", body.current_bookmark));
    return { result: jobJSON(await T.settle(body.current_bookmark), body.current_bookmark) };
  }
  const opts =
    body.dump_options === undefined || body.dump_options === null
      ? {}
      : requireObject(body.dump_options, "dump_options");
  for (const k of ["no_data", "no_schema"]) {
    if (opts[k] !== undefined && typeof opts[k] !== "boolean")
      throw new EdgeError(400, D1_INVALID, `dump_options.${k} must be true or false`);
  }
  if (opts.no_data && opts.no_schema)
    throw new EdgeError(
      400,
      D1_INVALID,
      "dump_options.no_data and dump_options.no_schema together leave nothing to export",
    );
  const tables = opts.tables ?? [];
  if (!Array.isArray(tables) || tables.some((t) => typeof t !== "string" || t === "")) {
    throw new EdgeError(400, D1_INVALID, "dump_options.tables must be an array of table names");
  }
  refuseBusy(T, db);
  const filename = `${db.name}-${new Date().toISOString().replace(/[:.]/g, "-")}.sql`;
  const host = transferURL(ctx, c, "");
  const bookmark = T.start(db.uuid, "export", async () => {
    const lines = await ctx.runtime.d1.exportSql(db.uuid, {
      noSchema: opts.no_schema === true,
      noData: opts.no_data === true,
      tables,
    });
    const file = T.exportFile();
    await fs.promises.writeFile(file, lines.join("\n"));
    return { filename, signed_url: host + T.newDownload(db.uuid, file) };
  });
  return { result: jobJSON(await T.settle(bookmark), bookmark) };
}

// timeTravel answers both Time Travel routes: the edge keeps no history of a database to go back to (decision 258).
export async function timeTravel(ctx, c) {
  findDatabase(ctx, c);
  throw new EdgeError(
    400,
    D1_ERROR,
    "Time Travel is not available on the local edge: it keeps no history of a D1 database, so there is no " +
      "bookmark to restore. Keep a copy with `wrangler d1 export --remote` and bring it back with `wrangler d1 execute --remote --file`.",
  );
}

function refuseBusy(T, db) {
  const running = T.busy(db.uuid);
  if (running) {
    throw new EdgeError(
      409,
      D1_ERROR,
      `database ${db.name} is busy with an import or export (bookmark ${running}); wait for it to end and try again`,
    );
  }
}

function rethrow(fn) {
  try {
    return fn();
  } catch (err) {
    if (err?.status !== undefined && err?.code !== undefined) throw new EdgeError(err.status, err.code, err.message);
    throw err;
  }
}

// jobJSON is Cloudflare's answer for an import or export job: status "active" while it runs.
function jobJSON(job, bookmark) {
  const out = {
    success: job.status !== "error",
    type: job.type,
    at_bookmark: bookmark,
    status: job.status,
    messages: [],
  };
  if (job.status === "error") {
    out.error = job.error;
    out.errors = [job.error];
  }
  if (job.status === "complete") {
    out.result = job.type === "import" ? { ...job.result, final_bookmark: bookmark } : job.result;
  }
  return out;
}

// transferURL is the absolute URL of an upload or download token on the edge's port, as the API's client reached it.
function transferURL(ctx, c, token) {
  const host = c.req.headers.host;
  const base =
    typeof host === "string" && /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d+)?$/.test(host)
      ? host
      : `127.0.0.1:${ctx.port}`;
  return `http://${base}${TRANSFER_PREFIX}${token}`;
}

// readOnlyParam reads the edgeflow extension ?edgeflow_read_only=true|false of the D1 query endpoints: true runs the
// statements so that the database refuses to change (docs/edge.md).
function readOnlyParam(query) {
  const v = query.get("edgeflow_read_only");
  if (v === null || v === "false") return false;
  if (v === "true") return true;
  throw new EdgeError(400, D1_INVALID, "edgeflow_read_only must be true or false");
}
