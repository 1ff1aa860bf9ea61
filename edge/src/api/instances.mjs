// Workflow instances: create (one or a batch), list, read, change status and send events. Every handler takes the
// account's context (ctx, see ../api.mjs) and the call (c); the route table (routes.mjs) lists them.

import { EdgeError, INSTANCE_EXISTS, INSTANCE_NOT_FOUND, INSTANCE_STATE, INVALID_REQUEST } from "../errors.mjs";
import { intParam, pageInfo, parseJSON, requireObject } from "../http.mjs";
import { now } from "../registry.mjs";
import { canonicalWorkflows } from "../plan.mjs";
import { currentVersion } from "../scripts.mjs";
import { JSON_LIMIT, mapLimit } from "./common.mjs";
import { TERMINAL, derivedInstances, deriveStatus, details, expired, noteTimes } from "./statuses.mjs";
import { findWorkflow, runnable } from "./workflows.mjs";

const INSTANCE_ID = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;
const EVENT_TYPE = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;

export async function listInstances(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const status = c.query.get("status");
  const page = intParam(c.query, "page", { def: 1, min: 1 });
  const perPage = intParam(c.query, "per_page", { def: 50, min: 1, max: 100 });
  const direction = c.query.get("direction") ?? "desc";
  if (direction !== "asc" && direction !== "desc") throw new EdgeError(400, INVALID_REQUEST, "direction must be asc or desc");
  const valid = ["queued", "running", "paused", "errored", "terminated", "complete", "waiting", "waitingForPause"];
  if (status && !valid.includes(status)) throw new EdgeError(400, INVALID_REQUEST, `status must be one of ${valid.join(", ")}`);
  const dateStart = dateParam(c.query, "date_start");
  const dateEnd = dateParam(c.query, "date_end");
  const cursor = c.query.get("cursor");
  if (cursor !== null && cursor !== "" && c.query.get("page") !== null) throw new EdgeError(400, INVALID_REQUEST, "page and cursor are mutually exclusive; use one or the other");
  const after = cursor ? decodeCursor(cursor) : null;
  const rt = ctx.names.workflow(wf.name);
  let list = canonicalWorkflows(ctx.state)[wf.name] ? await derivedInstances(ctx, rt, status) : [];
  if (status) list = list.filter((it) => it.status === status);
  const versionId = wf.versions.at(-1).id;
  list = list
    .map((it) => {
      const rec = ctx.registry.instanceRecord(rt, it.id);
      return { it, rec, created: rec?.created_on ?? it.created_on ?? null };
    })
    .filter(({ rec, created }) => !expired(rec) && (!dateStart || (created ?? "") >= dateStart) && (!dateEnd || (created ?? "") <= dateEnd));
  const dir = direction === "asc" ? 1 : -1;
  const order = (a, b) => ((a.created ?? "").localeCompare(b.created ?? "") || a.it.id.localeCompare(b.it.id)) * dir;
  list.sort(order);
  let pageRows;
  let info;
  if (after) {
    // a cursor names the last instance of the previous page: the next page starts after it
    const rest = list.filter((x) => order(x, { created: after.created_on, it: { id: after.id } }) > 0);
    pageRows = rest.slice(0, perPage);
    const next = rest.length > perPage ? encodeCursor(pageRows.at(-1)) : "";
    info = { per_page: perPage, count: pageRows.length, total_count: list.length, cursor: next };
  } else {
    const paged = pageInfo(list, page, perPage);
    pageRows = paged.items;
    info = { ...paged.info, cursor: page * perPage < list.length && pageRows.length > 0 ? encodeCursor(pageRows.at(-1)) : "" };
  }
  // the times an instance started, last changed and ended come from its details, read once it is final
  await mapLimit(pageRows, 16, async (x) => {
    if (x.rec && TERMINAL.has(x.it.status) && x.rec.ended_on) return;
    const d = await details(ctx, rt, x.it.id).catch(() => null);
    if (d && x.rec) noteTimes(ctx, rt, x.it.id, d, x.it.status);
  });
  const result = pageRows.map(({ it, rec, created }) => ({
    id: it.id,
    status: it.status,
    created_on: created,
    modified_on: rec?.modified_on ?? created,
    started_on: rec?.started_on ?? null,
    ended_on: TERMINAL.has(it.status) ? rec?.ended_on ?? null : null,
    version_id: rec?.version_id ?? versionId,
    workflow_id: wf.id,
  }));
  return { result, info };
}

// sleepDue tells when a running sleep step wakes (decision 268): miniflare keeps the duration to itself, so it is
// read from the workflow script's code, when that has exactly one step.sleep of this name with a literal
// duration (milliseconds or a string such as "1 hour") or one step.sleepUntil with a literal time (an ISO string or
// epoch milliseconds). Otherwise null.
function sleepDue(ctx, wf, name, start) {
  const v = currentVersion(ctx.state.scripts[wf.script_name]);
  if (!v || typeof name !== "string" || typeof start !== "string") return null;
  const quoted = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const call = new RegExp(`\\.(sleep|sleepUntil)\\(\\s*(["'\`])${quoted}\\2\\s*,\\s*([^,)]*)\\)`, "g");
  const found = new Set();
  for (const m of v.modules) {
    if (m.type !== "ESModule" && m.type !== "CommonJS") continue;
    for (const hit of ctx.registry.getBlob(m.blob).toString("utf8").matchAll(call)) found.add(`${hit[1]} ${hit[3].trim()}`);
  }
  if (found.size !== 1) return null;
  const [kind, arg] = [...found][0].split(/ (.*)/s);
  if (kind === "sleepUntil") {
    const lit = /^(["'`])([^"'`]+)\1$/.exec(arg);
    const t = lit ? Date.parse(lit[2]) : /^\d+$/.test(arg) ? Number(arg) : NaN;
    return Number.isNaN(t) ? null : new Date(t).toISOString();
  }
  const ms = durationLiteral(arg);
  return ms === null ? null : new Date(Date.parse(start) + ms).toISOString();
}

function instanceInput(item, i) {
  if (item === null || typeof item !== "object" || Array.isArray(item)) {
    throw new EdgeError(400, INVALID_REQUEST, `${i === undefined ? "body" : `[${i}]`} must be a JSON object`);
  }
  const id = item.instance_id ?? item.id;
  if (id !== undefined && (typeof id !== "string" || !INSTANCE_ID.test(id))) {
    throw new EdgeError(400, INVALID_REQUEST, `instance_id '${id}' is invalid: use 1-100 letters, digits, '-' and '_'`);
  }
  const params = item.params ?? {};
  checkPayloadSize(params, i === undefined ? "params" : `[${i}].params`);
  const retention = retentionParam(item.instance_retention, i);
  return { id, params, ...(retention ? { retention } : {}) };
}

// createInstances creates instances of workflow wf (inputs: [{id?, params, retention?}], as instanceInput reads
// them) and records them in the index with trigger source (api, cron). It answers one entry per input: the instance,
// or {id, error: {code, message}} for one refused (10202 for an id taken). An id another request is creating at the
// same moment is 409 10202; a workflow whose script is not deployed is 404 10007.
export async function createInstances(ctx, wf, inputs, source) {
  runnable(ctx, wf);
  const ids = inputs.map((x) => x.id).filter((x) => x !== undefined);
  if (new Set(ids).size !== ids.length) throw new EdgeError(409, INSTANCE_EXISTS, "the batch names the same instance_id twice");
  for (const id of ids) {
    if (ctx.pendingIds.has(`${wf.name}\n${id}`)) {
      throw new EdgeError(409, INSTANCE_EXISTS, `Workflow instance '${id}' already exists in workflow '${wf.name}'`);
    }
  }
  for (const id of ids) ctx.pendingIds.add(`${wf.name}\n${id}`);
  try {
    const rt = ctx.names.workflow(wf.name);
    const t = now(); // before the create, so that created_on never follows the instance's start
    let created = await ctx.runtime.control("/wf/create", { workflow: rt, instances: inputs.map(({ id, params }) => ({ id, params })) });
    if (created.retried) {
      // our first attempt may have gone through before its connection died: the ids are ours (pendingIds)
      created = created.map((r) => (r.error?.code === INSTANCE_EXISTS ? { id: r.id } : r));
    }
    const versionId = wf.versions.at(-1).id;
    created.forEach((r, i) => {
      if (r.error) return;
      const retention = inputs[i]?.retention;
      ctx.registry.recordInstance({ workflow: rt, id: r.id, source, created_on: t, version_id: versionId, status: "queued", ...(retention ? { retention } : {}) });
    });
    if (ctx.state.workflows[wf.name]) ctx.state.workflows[wf.name].triggered_on = t;
    ctx.registry.saveSoon();
    return created.map((r) => {
      if (r.error) return r;
      return { id: r.id, status: "queued", version_id: versionId, workflow_id: wf.id };
    });
  } finally {
    for (const id of ids) ctx.pendingIds.delete(`${wf.name}\n${id}`);
  }
}

export async function createInstance(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const body = (await c.json({ allowEmpty: true })) ?? {};
  const input = instanceInput(body);
  const [r] = await createInstances(ctx, wf, [input], "api");
  if (r.error) {
    const status = r.error.code === INSTANCE_EXISTS ? 409 : 400;
    throw new EdgeError(status, r.error.code, r.error.code === INSTANCE_EXISTS ? `${r.error.message} in workflow '${wf.name}'` : r.error.message);
  }
  return { result: r };
}

export async function createBatch(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const body = await c.json();
  if (!Array.isArray(body) || body.length === 0) throw new EdgeError(400, INVALID_REQUEST, "body must be a non-empty JSON array of {instance_id?, params?}");
  if (body.length > 100) throw new EdgeError(400, INVALID_REQUEST, "a batch holds at most 100 instances");
  const inputs = body.map((x, i) => instanceInput(x, i));
  const out = await createInstances(ctx, wf, inputs, "api");
  const failed = out.find((r) => r.error);
  if (failed) throw new EdgeError(failed.error.code === INSTANCE_EXISTS ? 409 : 400, failed.error.code, failed.error.message);
  return { result: out };
}

export async function getInstance(ctx, c) {
  const wf = findWorkflow(ctx, c);
  runnable(ctx, wf);
  return { result: await instanceDetails(ctx, wf, c.params.instance) };
}

// readInstances is the local edge's addition for edgeflow's run refresher: POST …/instances/read {"ids": [...]}
// (1 to 100 instance ids) answers, in order, {id, result} with what GET …/instances/:id answers, or {id, errors}
// with its error, one request for many instances (docs/edge.md, decision 308).
export async function readInstances(ctx, c) {
  const wf = findWorkflow(ctx, c);
  runnable(ctx, wf);
  const body = requireObject(await c.json());
  const ids = body.ids;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || !ids.every((id) => typeof id === "string" && INSTANCE_ID.test(id))) {
    throw new EdgeError(400, INVALID_REQUEST, "ids must be an array of 1 to 100 instance ids");
  }
  const out = new Array(ids.length);
  await mapLimit(ids.map((id, i) => [id, i]), 16, async ([id, i]) => {
    try {
      out[i] = { id, result: await instanceDetails(ctx, wf, id) };
    } catch (err) {
      if (!(err instanceof EdgeError)) throw err;
      out[i] = { id, errors: [{ code: err.code, message: err.message }] };
    }
  });
  return { result: out };
}

// instanceDetails is an instance of workflow wf as Cloudflare shows it, with the edge's log_lines.
async function instanceDetails(ctx, wf, id) {
  const rt = ctx.names.workflow(wf.name);
  const d = await details(ctx, rt, id);
  let rec = ctx.registry.instanceRecord(rt, id);
  if (expired(rec)) throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  if (!rec) {
    rec = { workflow: rt, id, source: "binding", created_on: d.queued ?? now(), version_id: wf.versions.at(-1).id, status: d.status };
    ctx.registry.recordInstance(rec);
  } else {
    ctx.registry.setStatus(rt, id, d.status);
  }
  if (TERMINAL.has(d.status) && d.end) ctx.registry.setEnded(rt, id, d.end);
  const status = deriveStatus(d);
  const steps = d.steps.map((s) => {
    // miniflare names steps "<name>-<n>" (its cache key); Cloudflare shows the name the code gave.
    s = { ...s, name: typeof s.name === "string" ? s.name.replace(/-\d+$/, "") : s.name };
    if (s.type === "step") {
      return { ...s, output: s.output === undefined ? null : s.output };
    }
    if (s.type === "sleep") {
      const end = s.end ?? (s.finished ? null : sleepDue(ctx, wf, s.name, s.start));
      return { name: s.name, start: s.start, end, finished: s.finished, type: "sleep", error: s.error ?? null };
    }
    return s;
  });
  if (status === "terminated") steps.push({ type: "termination", trigger: { source: "api" } });
  noteTimes(ctx, rt, id, d, status);
  return {
    status,
    params: d.params ?? {},
    trigger: { source: rec?.source ?? "binding" },
    versionId: rec?.version_id ?? wf.versions.at(-1).id,
    queued: d.queued,
    start: d.start,
    end: TERMINAL.has(status) ? d.end : null,
    success: status === "complete" ? true : status === "errored" || status === "terminated" ? false : null,
    error: d.error ?? null,
    output: d.output ?? null,
    step_count: steps.filter((s) => s.type !== "termination").length,
    steps,
    // The edge's addition: how many log lines of the instance it holds (edgeflow reads them only when some).
    log_lines: ctx.runtime.logs.instanceLines(ctx.names.script(wf.script_name), id),
  };
}

export async function changeStatus(ctx, c) {
  const wf = findWorkflow(ctx, c);
  runnable(ctx, wf);
  const body = requireObject(await c.json());
  const action = body.status ?? body.action;
  const actions = ["pause", "resume", "terminate", "restart"];
  if (!actions.includes(action)) throw new EdgeError(400, INVALID_REQUEST, `status must be one of ${actions.join(", ")}, got '${action}'`);
  const id = c.params.instance;
  const rt = ctx.names.workflow(wf.name);
  const d = await details(ctx, rt, id);
  if (expired(ctx.registry.instanceRecord(rt, id))) throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  const current = deriveStatus(d);
  const refuse = (why) => {
    throw new EdgeError(409, INSTANCE_STATE, `cannot ${action} instance '${id}': ${why}`);
  };
  if (action === "pause" && TERMINAL.has(current)) refuse(`it is ${current}`);
  if (action === "resume" && current !== "paused" && current !== "waitingForPause") refuse(`it is ${current}, not paused`);
  if (action === "terminate" && TERMINAL.has(current)) refuse(`it is already ${current}`);
  const r = await ctx.runtime.control("/wf/action", { workflow: rt, id, action });
  ctx.registry.setStatus(rt, id, r.status);
  if (action === "restart") ctx.registry.noteInstance(rt, id, { ended_on: null }); // it runs again; its end is read anew
  let status = r.status;
  if (status === "running" && (action === "resume" || action === "restart")) status = "running";
  return { result: { status, timestamp: now() } };
}

export async function sendEvent(ctx, c) {
  const wf = findWorkflow(ctx, c);
  runnable(ctx, wf);
  const type = c.params.type;
  if (!EVENT_TYPE.test(type)) throw new EdgeError(400, INVALID_REQUEST, `event type '${type}' is invalid: use 1-100 letters, digits, '-' and '_'`);
  const raw = await c.body(JSON_LIMIT);
  const payload = parseJSON(raw, { allowEmpty: true, what: "event payload" }) ?? null;
  checkPayloadSize(payload, "event payload");
  const id = c.params.instance;
  const rt = ctx.names.workflow(wf.name);
  const d = await details(ctx, rt, id);
  if (expired(ctx.registry.instanceRecord(rt, id))) throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  const status = deriveStatus(d);
  if (TERMINAL.has(status)) throw new EdgeError(409, INSTANCE_STATE, `cannot send an event to instance '${id}': it is ${status}`);
  await ctx.runtime.control("/wf/event", { workflow: rt, id, type, payload });
  return { result: {} };
}

// PAYLOAD_LIMIT is Cloudflare's limit on an instance's params and on an event's payload: 1 MiB of JSON.
export const PAYLOAD_LIMIT = 1 << 20;

// checkPayloadSize refuses params or an event payload whose JSON is larger than PAYLOAD_LIMIT.
function checkPayloadSize(value, what) {
  const size = Buffer.byteLength(JSON.stringify(value) ?? "");
  if (size > PAYLOAD_LIMIT) {
    throw new EdgeError(413, INVALID_REQUEST, `${what}: ${size} bytes of JSON is over the Workflows limit of 1 MiB (${PAYLOAD_LIMIT} bytes)`);
  }
}

// dateParam reads date_start or date_end of an instance list: an ISO 8601 time in UTC (Cloudflare: no offset),
// returned in the form the index keeps (toISOString).
function dateParam(query, name) {
  const v = query.get(name);
  if (v === null || v === "") return null;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z?)?$/.test(v) || Number.isNaN(Date.parse(v.endsWith("Z") || v.length === 10 ? v : `${v}Z`))) {
    throw new EdgeError(400, INVALID_REQUEST, `${name} must be an ISO 8601 time in UTC without an offset (e.g. 2025-01-31T12:00:00Z), got '${v}'`);
  }
  return new Date(v.endsWith("Z") || v.length === 10 ? v : `${v}Z`).toISOString();
}

function encodeCursor(row) {
  return Buffer.from(JSON.stringify({ c: row.created, i: row.it.id })).toString("base64url");
}

function decodeCursor(cursor) {
  try {
    const o = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof o.i === "string" && (typeof o.c === "string" || o.c === null)) return { created_on: o.c, id: o.i };
  } catch {
    // answered below
  }
  throw new EdgeError(400, INVALID_REQUEST, "cursor is not one this list gave; start again without it");
}

// RETENTION_MAX is the longest instance_retention Cloudflare allows (30 days, the paid plan's limit).
const RETENTION_MAX = 30 * 24 * 3600 * 1000;

const UNIT_MS = { millisecond: 1, second: 1000, minute: 60000, hour: 3600000, day: 86400000, week: 604800000 };

// retentionParam reads an instance's instance_retention {success_retention?, error_retention?}, each a number of
// milliseconds or a duration such as "5 minutes", into {success_ms?, error_ms?} (decision 267).
function retentionParam(v, i) {
  if (v === undefined || v === null) return null;
  const where = i === undefined ? "instance_retention" : `[${i}].instance_retention`;
  if (typeof v !== "object" || Array.isArray(v)) throw new EdgeError(400, INVALID_REQUEST, `${where} must be an object {success_retention?, error_retention?}`);
  const out = {};
  for (const [field, key] of [["success_retention", "success_ms"], ["error_retention", "error_ms"]]) {
    const x = v[field];
    if (x === undefined || x === null) continue;
    let ms;
    if (typeof x === "number" && Number.isInteger(x) && x >= 0) ms = x;
    else if (typeof x === "string") {
      const m = /^\s*(\d+)\s*(millisecond|second|minute|hour|day|week)s?\s*$/i.exec(x);
      if (m) ms = Number(m[1]) * UNIT_MS[m[2].toLowerCase()];
    }
    if (ms === undefined) throw new EdgeError(400, INVALID_REQUEST, `${where}.${field} must be milliseconds or a duration such as "5 minutes", got ${JSON.stringify(x)}`);
    if (ms > RETENTION_MAX) throw new EdgeError(400, INVALID_REQUEST, `${where}.${field} is longer than the 30 days an instance can be kept`);
    out[key] = ms;
  }
  for (const k of Object.keys(v)) {
    if (k !== "success_retention" && k !== "error_retention") throw new EdgeError(400, INVALID_REQUEST, `${where}: unknown field '${k}'`);
  }
  return out;
}

// durationLiteral reads the duration argument of a step.sleep as written in code: a number of milliseconds
// (digits, maybe with _ separators) or a quoted duration such as "1 hour" or '30 seconds'; null for anything else.
function durationLiteral(arg) {
  if (/^\d[\d_]*$/.test(arg)) return Number(arg.replace(/_/g, ""));
  const m = /^(["'`])\s*(\d+)\s*(millisecond|second|minute|hour|day|week)s?\s*\1$/i.exec(arg);
  return m ? Number(m[2]) * UNIT_MS[m[3].toLowerCase()] : null;
}
