// The edge's control worker. It runs inside workerd next to the user's workers and is bound to every KV
// namespace, D1 database, R2 bucket and Workflow of the registry, so that the Node side can drive them with one
// local HTTP call each instead of going through miniflare's slower Node proxies.
//
// Every endpoint takes and returns JSON: {ok: true, result} or {ok: false, code, message, status}, but for the raw
// KV values and R2 objects and the streamed Workflow answers of control.workflows.js (a step's stream output, an
// instance's event stream). The binding names are looked up in env.MAP: {kv: {id: binding}, d1: {id: binding}, r2: {name: binding},
// wf: {workflowName: binding}}.

import { ControlError, binding, json, message } from "./control.common.js";
import { kvBinding, r2Binding } from "./control.stores.js";
import { WORKFLOW_ROUTES, workflowResponse } from "./control.workflows.js";

// splitStatements cuts SQL text into statements at top-level semicolons, keeping quoted strings, identifiers,
// comments and CREATE TRIGGER ... BEGIN ... END bodies intact.
export function splitStatements(sql) {
  const out = [];
  let start = 0;
  let depth = 0; // BEGIN ... END nesting inside triggers
  let word = "";
  let lastWords = [];
  const flushWord = () => {
    if (word === "") return;
    const w = word.toUpperCase();
    if (w === "BEGIN") {
      // BEGIN opens a block only inside CREATE TRIGGER; a bare BEGIN [TRANSACTION] is a statement.
      if (lastWords.includes("TRIGGER")) depth++;
    } else if (w === "END" && depth > 0) {
      depth--;
    }
    lastWords.push(w);
    word = "";
  };
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      flushWord();
      const close = c === "[" ? "]" : c;
      i++;
      while (i < sql.length) {
        if (sql[i] === close) {
          if (close !== "]" && sql[i + 1] === close) {
            i += 2;
            continue;
          }
          break;
        }
        i++;
      }
      continue;
    }
    if (c === "-" && sql[i + 1] === "-") {
      flushWord();
      while (i < sql.length && sql[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && sql[i + 1] === "*") {
      flushWord();
      i += 2;
      while (i < sql.length && !(sql[i] === "*" && sql[i + 1] === "/")) i++;
      i++;
      continue;
    }
    if (/[A-Za-z0-9_]/.test(c)) {
      word += c;
      continue;
    }
    flushWord();
    if (c === ";" && depth === 0) {
      out.push(sql.slice(start, i));
      start = i + 1;
      lastWords = [];
    }
  }
  flushWord();
  out.push(sql.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== "" && !isOnlyComments(s));
}

function isOnlyComments(s) {
  return (
    s
      .replace(/--[^\n]*/g, "")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .trim() === ""
  );
}

async function d1Query(env, body) {
  const db = binding(env, "d1", body.db, "database");
  const queries = Array.isArray(body.batch) ? body.batch : [{ sql: body.sql, params: body.params }];
  const statements = [];
  for (const q of queries) {
    if (typeof q?.sql !== "string" || q.sql.trim() === "")
      throw new ControlError(400, 7400, "sql must be a non-empty string");
    const params = q.params ?? [];
    if (!Array.isArray(params)) throw new ControlError(400, 7400, "params must be an array");
    const parts = splitStatements(q.sql);
    if (parts.length === 0) throw new ControlError(400, 7400, "sql contains no statement");
    if (parts.length > 1 && params.length > 0) {
      throw new ControlError(400, 7400, "params can only be used with a single SQL statement");
    }
    for (const p of parts) {
      let st = db.prepare(params.length > 0 ? integerParams(p, params) : p);
      if (params.length > 0) st = st.bind(...params.map(toD1Value));
      statements.push(st);
    }
  }
  let results;
  if (body.readOnly) {
    results = await readOnlyBatch(db, statements);
  } else {
    try {
      results = statements.length === 1 ? [await statements[0].all()] : await db.batch(statements);
    } catch (err) {
      throw new ControlError(400, 7500, message(err).replace(/^D1_ERROR: /, ""));
    }
  }
  return results.map((r) => {
    const rows = r.results ?? [];
    const meta = r.meta ?? {};
    const out = {
      success: r.success !== false,
      meta: {
        changed_db: meta.changed_db ?? false,
        changes: meta.changes ?? 0,
        duration: meta.duration ?? 0,
        last_row_id: meta.last_row_id ?? 0,
        rows_read: meta.rows_read ?? 0,
        rows_written: meta.rows_written ?? 0,
        size_after: meta.size_after ?? 0,
        served_by: "edgeflow-local-edge",
        // one copy of each database, in the edge's one region: every query is served by the primary
        served_by_region: meta.served_by_region ?? "ENAM",
        served_by_primary: meta.served_by_primary ?? true,
        timings: { sql_duration_ms: meta.timings?.sql_duration_ms ?? meta.duration ?? 0 },
      },
    };
    if (body.raw) {
      const columns = rows.length > 0 ? Object.keys(rows[0]) : [];
      out.results = { columns, rows: rows.map((row) => columns.map((c) => row[c])) };
    } else {
      out.results = rows;
    }
    return out;
  });
}

// d1Import runs an uploaded SQL file ({db, sql}) as D1's import does: every statement in one batch, which the D1
// Durable Object executes as one transaction, so a failing statement leaves the database as it was. It answers
// the totals only (an import may hold many thousands of statements). A file that manages transactions itself is
// refused before anything runs: D1 runs the import in a transaction of its own (decision 257).
async function d1Import(env, body) {
  const db = binding(env, "d1", body.db, "database");
  if (typeof body.sql !== "string") throw new ControlError(400, 7400, "sql must be a string");
  const parts = splitStatements(body.sql);
  if (parts.length === 0) throw new ControlError(400, 7400, "the file contains no SQL statement");
  for (const p of parts) {
    if (/^(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i.test(p)) {
      throw new ControlError(
        400,
        7500,
        `statement ${parts.indexOf(p) + 1} ('${p.slice(0, 40)}'): the file must not contain transaction statements ` +
          "(BEGIN TRANSACTION, COMMIT, ROLLBACK, SAVEPOINT): D1 runs an import in one transaction of its own; remove them and import again",
      );
    }
  }
  const started = Date.now();
  let results;
  try {
    results = await db.batch(parts.map((p) => db.prepare(p)));
  } catch (err) {
    throw new ControlError(400, 7500, message(err).replace(/^D1_ERROR: /, ""));
  }
  const meta = { rows_read: 0, rows_written: 0, changes: 0, size_after: 0, changed_db: false, duration: 0 };
  for (const r of results) {
    const m = r.meta ?? {};
    meta.rows_read += m.rows_read ?? 0;
    meta.rows_written += m.rows_written ?? 0;
    meta.changes += m.changes ?? 0;
    meta.size_after = m.size_after ?? meta.size_after;
    meta.changed_db ||= m.changed_db === true;
  }
  meta.duration = Date.now() - started;
  return { num_queries: parts.length, meta };
}

// d1Export dumps a database as SQL text ({db, noSchema, noData, tables}): the schema and every row as INSERT
// statements, by miniflare's D1 export pragma (the one `wrangler d1 export --local` uses). It answers the lines.
async function d1Export(env, body) {
  const db = binding(env, "d1", body.db, "database");
  const tables = Array.isArray(body.tables) ? body.tables : [];
  try {
    const rows = await db
      .prepare("PRAGMA miniflare_d1_export(?,?,?);")
      .bind(body.noSchema === true, body.noData === true, ...tables)
      .raw();
    return { lines: rows[0] ?? [] };
  } catch (err) {
    throw new ControlError(400, 7500, message(err).replace(/^D1_ERROR: /, ""));
  }
}

// Read-only D1 queries (docs/edge.md, docs/decisions.md 81). SQLite's own read-only switches are not available
// here (workerd refuses PRAGMA query_only and read-only opens), so the statements run in one batch, which the D1
// Durable Object executes as one transaction, followed by a guard statement that fails when the database changed:
// the failure makes the engine roll the whole transaction back. The guard compares, with a snapshot taken just
// before, the connection's change counter (every INSERT, UPDATE and DELETE, triggers included), the schema (every
// sqlite_master row with its rowid and root page) and the row count of every table (a table dropped and created
// again). docs/edge.md says what it cannot see.
// A transaction may itself move the counter (by one in miniflare 4's D1, not at all in 5's): changeOffset measures it
// once per isolate. A guard failure caused by another writer between the snapshot
// and the batch is retried; a write by the statements fails every time and is refused with 403, code 7403.
const READ_ONLY_CODE = 7403;
const READ_ONLY_MARK = "edgeflow: read-only";
const SCHEMA_SQL =
  "SELECT group_concat(x, char(10)) FROM (SELECT rowid || ':' || type || ':' || name || ':' || tbl_name || ':' || " +
  "coalesce(rootpage, '') || ':' || coalesce(sql, '') AS x FROM sqlite_master ORDER BY rowid)";

let offset = null;

// changeOffset is how far one batch moves the connection's change counter by itself: a batch that only reads the
// counter against a read of it just before (taken again if it is negative: another writer came between).
async function changeOffset(db) {
  for (let i = 0; offset === null && i < 3; i++) {
    const before = (await db.prepare("SELECT total_changes() AS c").first()).c;
    const [r] = await db.batch([db.prepare("SELECT total_changes() AS c")]);
    const k = r.results[0].c - before;
    if (k >= 0 && k <= 1) offset = k;
  }
  return offset ?? 0;
}

async function readOnlyBatch(db, statements) {
  for (let attempt = 0; attempt < 3; attempt++) {
    let counts, snap;
    try {
      const tables = (
        await db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name",
          )
          .all()
      ).results.map((r) => r.name);
      counts = tables.map((t) => `(SELECT count(*) FROM "${t.replaceAll('"', '""')}")`).join(" || ',' || ") || "''";
      snap = await db.prepare(`SELECT total_changes() AS c, (${SCHEMA_SQL}) AS s, ${counts} AS n`).first();
    } catch (err) {
      throw new ControlError(
        400,
        7500,
        "a read-only query needs to read every table first: " + message(err).replace(/^D1_ERROR: /, ""),
      );
    }
    // Two guards: the first reads no table, so a table the statements dropped or renamed fails it with the
    // read-only mark; only then does the second name every table to count its rows (naming a table that is gone
    // would fail with "no such table" instead, and the refusal would not say why).
    const schemaGuard = db
      .prepare(
        `SELECT json_extract('{}', CASE WHEN total_changes() = ?1 AND (${SCHEMA_SQL}) IS ?2 ` +
          `THEN '$' ELSE '${READ_ONLY_MARK}' END) AS ok`,
      )
      .bind(snap.c + (await changeOffset(db)), snap.s);
    const countGuard = db
      .prepare(`SELECT json_extract('{}', CASE WHEN ${counts} IS ?1 THEN '$' ELSE '${READ_ONLY_MARK}' END) AS ok`)
      .bind(snap.n);
    try {
      const results = await db.batch([...statements, schemaGuard, countGuard]);
      return results.slice(0, -2);
    } catch (err) {
      const msg = message(err).replace(/^D1_ERROR: /, "");
      if (!msg.includes(READ_ONLY_MARK)) throw new ControlError(400, 7500, msg);
      const after = await db
        .prepare(`SELECT (${SCHEMA_SQL}) AS s, ${counts} AS n`)
        .first()
        .catch(() => null);
      if (after !== null && after.s === snap.s && after.n === snap.n && attempt > 0) break;
    }
  }
  throw new ControlError(
    403,
    READ_ONLY_CODE,
    "read-only query: the statements would change the database, so the " +
      "database rolled them back and nothing was changed",
  );
}

// integerParams returns sql with every placeholder (`?` or `?NNN`) whose parameter is a boolean or a whole number
// wrapped in CAST(... AS INTEGER). D1's engine here binds every JavaScript number as REAL, where Cloudflare's binds
// whole numbers as INTEGER and booleans as 1 or 0; the cast gives the same values and types. SQL with named
// parameters (:a, @a, $a), PRAGMA statements and SQL with no such parameter are returned unchanged.
export function integerParams(sql, params) {
  if (!Array.isArray(params) || !params.some(isWhole) || /^\s*PRAGMA\b/i.test(sql)) return sql;
  let out = "";
  let last = 0;
  let next = 1; // the number SQLite gives the next anonymous `?`
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === "`" || c === "[") {
      const close = c === "[" ? "]" : c;
      for (i++; i < sql.length; i++) {
        if (sql[i] !== close) continue;
        if (close !== "]" && sql[i + 1] === close) {
          i++;
          continue;
        }
        break;
      }
      continue;
    }
    if (c === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") i++;
      continue;
    }
    if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 1;
      continue;
    }
    if (
      (c === ":" || c === "@" || c === "$") &&
      /[A-Za-z_]/.test(sql[i + 1] ?? "") &&
      !/[A-Za-z0-9_$]/.test(sql[i - 1] ?? "")
    )
      return sql;
    if (/[A-Za-z0-9_$]/.test(c)) {
      while (i + 1 < sql.length && /[A-Za-z0-9_$]/.test(sql[i + 1])) i++;
      continue;
    }
    if (c !== "?") continue;
    let j = i + 1;
    while (j < sql.length && /[0-9]/.test(sql[j])) j++;
    const n = j > i + 1 ? Number(sql.slice(i + 1, j)) : next;
    next = Math.max(next, n + 1);
    if (isWhole(params[n - 1])) {
      out += `${sql.slice(last, i)}CAST(?${n} AS INTEGER)`;
      last = j;
    }
    i = j - 1;
  }
  return out + sql.slice(last);
}

function isWhole(v) {
  return typeof v === "boolean" || Number.isSafeInteger(v);
}

// toD1Value turns a JSON value into something D1 can bind: booleans become 0/1 (as D1 stores them), objects and
// arrays their JSON text; strings, numbers and null pass through.
function toD1Value(v) {
  if (v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (v !== null && typeof v === "object") return JSON.stringify(v);
  return v;
}

async function kvList(env, body) {
  const ns = binding(env, "kv", body.ns, "namespace");
  const res = await ns.list({ prefix: body.prefix || undefined, cursor: body.cursor || undefined, limit: body.limit });
  return {
    keys: res.keys.map((k) => {
      const o = { name: k.name };
      if (k.expiration !== undefined) o.expiration = k.expiration;
      if (k.metadata !== undefined && k.metadata !== null) o.metadata = k.metadata;
      return o;
    }),
    cursor: res.list_complete ? "" : (res.cursor ?? ""),
  };
}

async function kvValue(env, request, url) {
  const ns = binding(env, "kv", url.searchParams.get("ns"), "namespace");
  const key = url.searchParams.get("key");
  if (request.method === "GET") {
    const res = await ns.getWithMetadata(key, { type: "stream" });
    if (res.value === null) return json({ ok: false, status: 404, code: 10009, message: "get: 'key not found'" }, 404);
    const headers = { "content-type": "application/octet-stream" };
    if (res.metadata !== null && res.metadata !== undefined) headers["cf-kv-metadata"] = asciiJSON(res.metadata);
    // The binding's get does not tell a key's expiration; its list does (the key sorts first among its prefix).
    const listed = await ns.list({ prefix: key, limit: 10 });
    const exp = listed.keys.find((k) => k.name === key)?.expiration;
    if (exp !== undefined) headers.expiration = String(exp);
    return new Response(res.value, { headers });
  }
  if (request.method === "PUT") {
    const opts = {};
    const exp = url.searchParams.get("expiration");
    const ttl = url.searchParams.get("expiration_ttl");
    const md = url.searchParams.get("metadata");
    if (exp) opts.expiration = Number(exp);
    if (ttl) opts.expirationTtl = Number(ttl);
    if (md) opts.metadata = JSON.parse(md);
    try {
      await ns.put(key, await request.arrayBuffer(), opts);
    } catch (err) {
      return json({ ok: false, status: 400, code: 10001, message: message(err) }, 400);
    }
    return json({ ok: true, result: {} });
  }
  if (request.method === "DELETE") {
    await ns.delete(key);
    return json({ ok: true, result: {} });
  }
  return json({ ok: false, status: 405, code: 10405, message: "method not allowed" }, 405);
}

// asciiJSON is JSON with every character beyond ASCII escaped, so that it can travel in a header.
function asciiJSON(v) {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function r2ObjectJSON(o) {
  return {
    key: o.key,
    etag: o.etag,
    size: o.size,
    last_modified: o.uploaded.toISOString(),
    http_metadata: o.httpMetadata ?? {},
    custom_metadata: o.customMetadata ?? {},
    storage_class: o.storageClass ?? "Standard",
  };
}

async function r2List(env, body) {
  const bucket = binding(env, "r2", body.bucket, "bucket");
  const res = await bucket.list({
    prefix: body.prefix || undefined,
    cursor: body.cursor || undefined,
    delimiter: body.delimiter || undefined,
    limit: body.limit,
    startAfter: body.start_after || undefined,
    include: ["httpMetadata", "customMetadata"],
  });
  return {
    objects: res.objects.map(r2ObjectJSON),
    delimited: res.delimitedPrefixes ?? [],
    cursor: res.truncated ? res.cursor : "",
    truncated: res.truncated,
  };
}

async function r2Object(env, request, url) {
  const bucket = binding(env, "r2", url.searchParams.get("bucket"), "bucket");
  const key = url.searchParams.get("key");
  if (request.method === "GET") {
    const o = await bucket.get(key);
    if (o === null)
      return json({ ok: false, status: 404, code: 10007, message: "The specified key does not exist." }, 404);
    const headers = new Headers();
    const hm = o.httpMetadata ?? {};
    headers.set("content-type", hm.contentType || "application/octet-stream");
    // a header carries bytes: characters beyond ASCII (a worker may store any) travel as JSON escapes
    headers.set(
      "x-edge-r2-http-metadata",
      asciiJSON({ ...hm, cacheExpiry: hm.cacheExpiry ? new Date(hm.cacheExpiry).toUTCString() : undefined }),
    );
    headers.set("etag", o.httpEtag);
    headers.set("last-modified", o.uploaded.toUTCString());
    // the size, so that the edge streams the body on with its length
    headers.set("x-edge-r2-size", String(o.size));
    if (o.customMetadata && Object.keys(o.customMetadata).length > 0) {
      headers.set("x-edge-r2-custom-metadata", JSON.stringify(o.customMetadata));
    }
    return new Response(o.body, { headers });
  }
  if (request.method === "PUT") {
    const httpMetadata = JSON.parse(request.headers.get("x-edge-r2-http-metadata") ?? "{}");
    if (httpMetadata.cacheExpiry !== undefined) httpMetadata.cacheExpiry = new Date(httpMetadata.cacheExpiry);
    const custom = url.searchParams.get("custom_metadata");
    const o = await bucket.put(key, await request.arrayBuffer(), {
      httpMetadata,
      customMetadata: custom ? JSON.parse(custom) : undefined,
    });
    return json({ ok: true, result: r2ObjectJSON(o) });
  }
  if (request.method === "DELETE") {
    await bucket.delete(key);
    return json({ ok: true, result: {} });
  }
  return json({ ok: false, status: 405, code: 10405, message: "method not allowed" }, 405);
}

// d1Binding answers a request of a worker's D1 binding (sent on by the edge's D1 proxy, see d1host.mjs) on the one
// database this worker holds in a D1 host: POST /query or /execute with {sql, params} or a list of them, and the
// results format in `resultsFormat`, answered as D1 answers them over HTTP ([{success, results, meta}], or
// {success: false, error}). The D1 binding no longer shows its inner fetcher (workerd keeps it private), so the
// statements run through the binding's query() (the `d1_binding_jsrpc` flag of this worker), which runs them in one
// transaction as the HTTP protocol does, and its answer is put back into the HTTP shape.
async function d1Binding(env, request) {
  const names = Object.values(env.MAP.d1);
  if (names.length !== 1) throw new ControlError(404, 7404, "no database here");
  const target = new URL(request.headers.get("x-edgeflow-d1-path") ?? "/query", "http://d1");
  if (request.method !== "POST" || !/^\/(query|execute)$/.test(target.pathname)) {
    return Response.json(
      { success: false, error: `the local edge's D1 does not serve ${request.method} ${target.pathname}` },
      { status: 404 },
    );
  }
  let queries;
  try {
    const q = await request.json();
    queries = Array.isArray(q) ? q : [q];
  } catch {
    return Response.json({ success: false, error: "the request body is not JSON" }, { status: 400 });
  }
  queries = queries.map((x) =>
    x && typeof x.sql === "string" && Array.isArray(x.params) ? { ...x, sql: integerParams(x.sql, x.params) } : x,
  );
  const bookmark = request.headers.get(D1_BOOKMARK_HEADER)?.trim();
  const rowsAndColumns = target.searchParams.get("resultsFormat") === "ROWS_AND_COLUMNS";
  let out;
  try {
    out = await env[names[0]].query({ queries, ...(bookmark ? { bookmark } : {}) });
  } catch (err) {
    return Response.json({ success: false, error: message(err).replace(/^D1_ERROR: /, "") });
  }
  const results = out.results.map(({ meta, data }) => ({
    success: true,
    meta,
    results: rowsAndColumns
      ? { columns: data.columns, rows: data.rows }
      : data.rows.map((row) => Object.fromEntries(data.columns.map((c, i) => [c, row[i]]))),
  }));
  return Response.json(results, { headers: out.bookmark ? { [D1_BOOKMARK_HEADER]: out.bookmark } : {} });
}

// D1_BOOKMARK_HEADER carries a D1 session's bookmark between the binding and the database.
const D1_BOOKMARK_HEADER = "x-cf-d1-session-commit-token";

const routes = {
  "/d1/query": d1Query,
  "/d1/import": d1Import,
  "/d1/export": d1Export,
  "/kv/list": kvList,
  "/r2/list": r2List,
  ...WORKFLOW_ROUTES,
};

// gateOpen is true when the request carries this boot's gate secret (see gate.mjs): only the edge's Node process
// may drive the control worker.
function gateOpen(request, env) {
  const given = request.headers.get("x-edgeflow-gate");
  if (typeof env.GATE !== "string" || env.GATE === "" || given === null) return false;
  const a = new TextEncoder().encode(given);
  const b = new TextEncoder().encode(env.GATE);
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}

export default {
  async fetch(request, env) {
    if (!gateOpen(request, env))
      return new Response("Not found\n", { status: 404, headers: { "content-type": "text/plain" } });
    const url = new URL(request.url);
    try {
      if (url.pathname === "/kv/value") return await kvValue(env, request, url);
      if (url.pathname === "/kv/binding") return await kvBinding(env, request, url);
      if (url.pathname === "/r2/object") return await r2Object(env, request, url);
      if (url.pathname === "/r2/binding") return await r2Binding(env, request, url);
      if (url.pathname === "/ping") return json({ ok: true, result: "pong" });
      if (url.pathname === "/d1/binding") return await d1Binding(env, request);
      const streamed = await workflowResponse(env, request, url);
      if (streamed) return streamed;
      const fn = routes[url.pathname];
      if (fn === undefined || request.method !== "POST") {
        return json({ ok: false, status: 404, code: 7003, message: `no control route ${url.pathname}` }, 404);
      }
      return json({ ok: true, result: await fn(env, await request.json()) });
    } catch (err) {
      if (err instanceof ControlError) {
        return json({ ok: false, status: err.status, code: err.code, message: err.message }, err.status);
      }
      return json({ ok: false, status: 500, code: 10001, message: message(err) }, 500);
    }
  },
};
