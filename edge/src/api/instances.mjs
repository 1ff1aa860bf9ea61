// Workflow instances: create (one, a list or a count), list, read, change status (restart from a step, terminate with
// rollback), send events and delete (one or a batch). Every handler takes the account's context (ctx, see ../api.mjs)
// and the call (c); the route table (routes.mjs) lists them. A step's full output and the event stream are in history.mjs.

import {
  EdgeError,
  INSTANCE_EXISTS,
  INSTANCE_MISSING,
  INSTANCE_NOT_FOUND,
  INSTANCE_STATE,
  INVALID_REQUEST,
} from "../errors.mjs";
import { intParam, parseJSON, requireObject } from "../http.mjs";
import { now } from "../registry.mjs";
import { canonicalWorkflows } from "../plan.mjs";
import { currentVersion } from "../scripts.mjs";
import { JSON_LIMIT, mapLimit } from "./common.mjs";
import {
  TERMINAL,
  UNIT_MS,
  defaultKeep,
  deriveRunning,
  derivedInstances,
  deriveStatus,
  details,
  expired,
  noteTimes,
  refreshIndex,
  retentionParam,
} from "./statuses.mjs";
import { rollbackOf } from "./history.mjs";
import { archiveRoom, archiveSoon, archived, unarchive } from "./archive.mjs";
import { findWorkflow, runnable } from "./workflows.mjs";

const INSTANCE_ID = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;
const EVENT_TYPE = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;

export async function listInstances(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const status = c.query.get("status");
  const page = intParam(c.query, "page", { def: 1, min: 1 });
  const perPage = intParam(c.query, "per_page", { def: 50, min: 1, max: 100 });
  const direction = c.query.get("direction") ?? "desc";
  if (direction !== "asc" && direction !== "desc")
    throw new EdgeError(400, INVALID_REQUEST, "direction must be asc or desc");
  const valid = ["queued", "running", "paused", "errored", "terminated", "complete", "waiting", "waitingForPause"];
  if (status && !valid.includes(status))
    throw new EdgeError(400, INVALID_REQUEST, `status must be one of ${valid.join(", ")}`);
  const dateStart = dateParam(c.query, "date_start");
  const dateEnd = dateParam(c.query, "date_end");
  const cursor = c.query.get("cursor");
  if (cursor !== null && cursor !== "" && c.query.get("page") !== null)
    throw new EdgeError(400, INVALID_REQUEST, "page and cursor are mutually exclusive; use one or the other");
  const after = cursor ? decodeCursor(cursor) : null;
  const rt = ctx.names.workflow(wf.name);
  const versionId = wf.versions.at(-1).id;
  const q = {
    statuses: status ? [status] : null,
    dateStart,
    dateEnd,
    desc: direction === "desc",
    after,
    // a cursor's page is read one longer, to know whether another follows
    offset: after ? 0 : (page - 1) * perPage,
    limit: after ? perPage + 1 : perPage,
  };
  const listed = canonicalWorkflows(ctx.state)[wf.name] ? await listPage(ctx, rt, wf, q) : { rows: [], total: 0 };
  let pageRows = listed.rows.map((rec) => ({
    it: { id: rec.id, status: rec.status },
    rec,
    created: rec.created_on || null,
  }));
  let info;
  if (after) {
    // a cursor names the last instance of the previous page: the next page starts after it
    const more = pageRows.length > perPage;
    pageRows = pageRows.slice(0, perPage);
    info = {
      per_page: perPage,
      count: pageRows.length,
      total_count: listed.total,
      cursor: more ? encodeCursor(pageRows.at(-1)) : "",
    };
  } else {
    info = {
      page,
      per_page: perPage,
      count: pageRows.length,
      total_count: listed.total,
      total_pages: Math.max(1, Math.ceil(listed.total / perPage)),
      cursor: page * perPage < listed.total && pageRows.length > 0 ? encodeCursor(pageRows.at(-1)) : "",
    };
  }
  // Cloudflare's status of the page's instances that miniflare reports running
  const items = pageRows.map((x) => x.it);
  await deriveRunning(ctx, rt, items);
  // the times an instance started, last changed and ended come from its details, read once it is final
  await mapLimit(pageRows, 16, async (x) => {
    if (x.rec && TERMINAL.has(x.it.status) && x.rec.ended_on) return;
    const d = await details(ctx, rt, x.it.id).catch(() => null);
    if (d && x.rec) {
      noteTimes(ctx, rt, x.it.id, d, x.it.status);
      x.rec = ctx.registry.instanceRecord(rt, x.it.id) ?? x.rec;
    }
  });
  const result = pageRows.map(({ it, rec, created }) => ({
    id: it.id,
    status: it.status,
    created_on: created,
    modified_on: rec?.modified_on ?? created,
    started_on: rec?.started_on ?? null,
    ended_on: TERMINAL.has(it.status) ? (rec?.ended_on ?? null) : null,
    version_id: rec?.version_id ?? versionId,
    workflow_id: wf.id,
  }));
  return { result, info };
}

// listPage answers one page of workflow rt's instances as listInstances asks for it (q: InstanceIndex.page's query)
// and how many there are over all pages: {rows (the index's records), total}. The index is brought up to date first.
// The page is read from the index in SQL; only a list of running or waiting instances, Cloudflare's statuses that the
// index does not keep (miniflare reports both as running), is made from the workflow's running instances, each
// looked at closer (deriveRunning).
async function listPage(ctx, rt, wf, q) {
  const status = q.statuses?.[0];
  if (status !== "running" && status !== "waiting") {
    await refreshIndex(ctx, rt);
    const full = { ...q, now: Date.now(), keep: defaultKeep(wf) };
    return { rows: ctx.registry.instances.page(rt, full), total: ctx.registry.instances.total(rt, full) };
  }
  const dir = q.desc ? -1 : 1;
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  const order = (a, b) => (cmp(a.created_on, b.created_on) || cmp(a.id, b.id)) * dir;
  const list = (await derivedInstances(ctx, rt, [status]))
    .filter((it) => (!q.dateStart || it.created_on >= q.dateStart) && (!q.dateEnd || it.created_on <= q.dateEnd))
    .sort(order);
  const after = q.after && { created_on: q.after.created_on ?? "", id: q.after.id };
  const rest = after ? list.filter((it) => order(it, after) > 0) : list;
  const rows = [];
  for (const it of rest.slice(q.offset, q.offset + q.limit)) {
    const rec = ctx.registry.instanceRecord(rt, it.id);
    if (rec) rows.push({ ...rec, status: it.status });
  }
  return { rows, total: list.length };
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
    for (const hit of ctx.registry.getBlob(m.blob).toString("utf8").matchAll(call))
      found.add(`${hit[1]} ${hit[3].trim()}`);
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

// RESERVED_IDS are instance ids Cloudflare refuses (they are paths of the instances API).
const RESERVED_IDS = new Set(["batch", "terminate", "terminateAll"]);

function instanceInput(item, where) {
  if (item === null || typeof item !== "object" || Array.isArray(item))
    throw new EdgeError(400, INVALID_REQUEST, `${where ?? "body"} must be a JSON object`);
  const id = item.instance_id ?? item.id;
  if (
    id !== undefined &&
    (typeof id !== "string" || !INSTANCE_ID.test(id) || RESERVED_IDS.has(id) || /^cf_[0-9a-f]{64}$/.test(id))
  ) {
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      `${where ? `${where}.` : ""}instance_id '${id}' is invalid: use 1-100 letters, digits, '-' and '_' (not batch, terminate or terminateAll)`,
    );
  }
  const params = item.params ?? {};
  checkPayloadSize(params, where === undefined ? "params" : `${where}.params`);
  const retention = retentionParam(item.instance_retention, where);
  return { id, params, ...(retention ? { retention } : {}) };
}

// createInstances creates instances of workflow wf (inputs: [{id?, params, retention?}], as instanceInput reads
// them) and records them in the index with trigger source (api, cron). It answers one entry per input: the instance
// ({id, status, version_id, workflow_id}), or {id, error: {code, message}} for one the engine refused (10405 for an
// id that exists, 10415 for one the inputs name twice). An id another request is creating at the same moment is 409
// 10405; a workflow whose script is not deployed is 404 10007.
export async function createInstances(ctx, wf, inputs, source) {
  runnable(ctx, wf);
  const ids = [...new Set(inputs.map((x) => x.id).filter((x) => x !== undefined))];
  for (const id of ids) {
    if (ctx.pendingIds.has(`${wf.name}\n${id}`)) {
      throw new EdgeError(
        409,
        INSTANCE_EXISTS,
        `workflows.api.error.instance.already_exists: instance '${id}' is being created in workflow '${wf.name}'`,
      );
    }
  }
  for (const id of ids) ctx.pendingIds.add(`${wf.name}\n${id}`);
  try {
    await archiveRoom(ctx);
    const rt = ctx.names.workflow(wf.name);
    const t = now(); // before the create, so that created_on never follows the instance's start
    // instances being created have files before the index holds them: the index sync does not count them as
    // created through a binding (a list of the Workflow opens every instance's database, statuses.mjs)
    // an archived instance (archive.mjs) is gone from the engine, which would create its id anew: it still exists
    const kept = new Set(
      inputs.flatMap((x, i) => (x.id !== undefined && ctx.registry.instanceRecord(rt, x.id)?.archived ? [i] : [])),
    );
    const sent = inputs.flatMap((x, i) => (kept.has(i) ? [] : [i]));
    ctx.creating.set(rt, (ctx.creating.get(rt) ?? 0) + sent.length);
    let answer = { created: [], errors: [] };
    try {
      if (sent.length > 0) {
        answer = await ctx.runtime.control("/wf/create", {
          workflow: rt,
          instances: sent.map((i) => ({ id: inputs[i].id, params: inputs[i].params })),
        });
      }
    } catch (err) {
      ctx.creating.set(rt, ctx.creating.get(rt) - sent.length);
      throw err;
    }
    const refused = new Map(answer.errors.map((e) => [sent[e.index], e]));
    for (const i of kept) {
      refused.set(i, {
        index: i,
        id: inputs[i].id,
        code: INSTANCE_EXISTS,
        message: "workflows.api.error.instance.already_exists",
      });
    }
    const created = [...answer.created];
    const versionId = wf.versions.at(-1).id;
    const out = inputs.map((input, i) => {
      const e = refused.get(i);
      // our first attempt may have gone through before its connection died: the ids are ours (pendingIds)
      if (e && !(answer.retried && e.code === INSTANCE_EXISTS && !kept.has(i)))
        return { id: e.id ?? input.id, error: { code: e.code, message: e.message } };
      const id = e ? e.id : created.shift();
      ctx.registry.recordInstance({
        workflow: rt,
        id,
        source,
        created_on: t,
        version_id: versionId,
        status: "queued",
        ...(input.retention ? { retention: input.retention } : {}),
        // the shard of a sharded Workflow that holds it (Runtime.shardIndex); shard 0 is not written
        ...(answer.shards?.[id] ? { shard: answer.shards[id] } : {}),
      });
      return { id, status: "queued", version_id: versionId, workflow_id: wf.id };
    });
    ctx.creating.set(rt, ctx.creating.get(rt) - sent.length);
    if (ctx.state.workflows[wf.name]) ctx.state.workflows[wf.name].triggered_on = t;
    ctx.registry.saveSoon();
    return out;
  } finally {
    for (const id of ids) ctx.pendingIds.delete(`${wf.name}\n${id}`);
  }
}

// refusal is the error a refused create answers (409 for an id that exists, 400 otherwise).
function refusal(r, wf) {
  const status = r.error.code === INSTANCE_EXISTS ? 409 : 400;
  return new EdgeError(status, r.error.code, `${r.error.message}: instance '${r.id}' in workflow '${wf.name}'`);
}

export async function createInstance(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const body = (await c.json({ allowEmpty: true })) ?? {};
  const input = instanceInput(body);
  const [r] = await createInstances(ctx, wf, [input], "api");
  if (r.error) throw refusal(r, wf);
  return { result: r };
}

// BATCH_LIMIT is the most instances one batch creates or deletes (Cloudflare's limit).
const BATCH_LIMIT = 100;

// createBatch is POST …/instances/batch in both of Cloudflare's forms: an array of {instance_id?, params?,
// instance_retention?} answered with the instances in order (the form of before October 2026, refused whole when an
// id exists: 409), or an object, {instances: [...]} or {count, params, instance_retention?}, answered {created:
// [instances], errors: [{index, id, code, message}]} with the entries the engine refused (10405 an id that exists,
// 10415 one named twice).
export async function createBatch(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const body = await c.json();
  if (Array.isArray(body)) {
    if (body.length === 0)
      throw new EdgeError(
        400,
        INVALID_REQUEST,
        "body must be a non-empty JSON array of {instance_id?, params?}, or {instances: [...]}, or {count, params}",
      );
    if (body.length > BATCH_LIMIT)
      throw new EdgeError(400, INVALID_REQUEST, `a batch holds at most ${BATCH_LIMIT} instances`);
    const inputs = body.map((x, i) => instanceInput(x, `[${i}]`));
    const dup = inputs.find((x, i) => x.id !== undefined && inputs.findIndex((y) => y.id === x.id) !== i);
    if (dup)
      throw new EdgeError(
        409,
        INSTANCE_EXISTS,
        `workflows.api.error.instance.duplicate_in_batch: the batch names instance '${dup.id}' twice`,
      );
    const out = await createInstances(ctx, wf, inputs, "api");
    const failed = out.find((r) => r.error);
    if (failed) throw refusal(failed, wf);
    return { result: out };
  }
  const obj = requireObject(body);
  let inputs;
  if (obj.count !== undefined) {
    for (const k of Object.keys(obj)) {
      if (!["count", "params", "instance_retention"].includes(k))
        throw new EdgeError(
          400,
          INVALID_REQUEST,
          `unknown field '${k}' beside count (give count with params, or instances)`,
        );
    }
    if (!Number.isInteger(obj.count) || obj.count < 1 || obj.count > BATCH_LIMIT)
      throw new EdgeError(400, INVALID_REQUEST, `count must be a whole number from 1 to ${BATCH_LIMIT}`);
    const one = instanceInput({ params: obj.params, instance_retention: obj.instance_retention });
    inputs = Array.from({ length: obj.count }, () => ({ ...one }));
  } else if (Array.isArray(obj.instances)) {
    for (const k of Object.keys(obj))
      if (k !== "instances") throw new EdgeError(400, INVALID_REQUEST, `unknown field '${k}' beside instances`);
    if (obj.instances.length === 0 || obj.instances.length > BATCH_LIMIT)
      throw new EdgeError(400, INVALID_REQUEST, `instances must hold 1 to ${BATCH_LIMIT} entries`);
    inputs = obj.instances.map((x, i) => instanceInput(x, `instances[${i}]`));
  } else {
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      "body must be {instances: [{instance_id?, params?}]}, {count, params} or an array of {instance_id?, params?}",
    );
  }
  const out = await createInstances(ctx, wf, inputs, "api");
  const created = [];
  const errors = [];
  out.forEach((r, index) => {
    if (r.error) errors.push({ index, id: r.id ?? null, code: r.error.code, message: r.error.message });
    else created.push(r);
  });
  return { result: { created, errors } };
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
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > 100 ||
    !ids.every((id) => typeof id === "string" && INSTANCE_ID.test(id))
  ) {
    throw new EdgeError(400, INVALID_REQUEST, "ids must be an array of 1 to 100 instance ids");
  }
  const out = new Array(ids.length);
  await mapLimit(
    ids.map((id, i) => [id, i]),
    16,
    async ([id, i]) => {
      try {
        out[i] = { id, result: await instanceDetails(ctx, wf, id) };
      } catch (err) {
        if (!(err instanceof EdgeError)) throw err;
        out[i] = { id, errors: [{ code: err.code, message: err.message }] };
      }
    },
  );
  return { result: out };
}

// instanceDetails is an instance of workflow wf as Cloudflare shows it, with the edge's log_lines.
async function instanceDetails(ctx, wf, id) {
  const rt = ctx.names.workflow(wf.name);
  const d = await details(ctx, rt, id);
  let rec = ctx.registry.instanceRecord(rt, id);
  if (expired(rec, wf))
    throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  if (!rec) {
    rec = {
      workflow: rt,
      id,
      source: "binding",
      created_on: d.queued ?? now(),
      version_id: wf.versions.at(-1).id,
      status: d.status,
    };
    // one a worker created in a shard (runtime.mjs, shardFor): the index keeps its shard
    const k = ctx.runtime.shardIndex(rt, id, Infinity);
    if (k > 0) rec.shard = k;
    ctx.registry.recordInstance(rec);
  } else {
    ctx.registry.setStatus(rt, id, d.status);
  }
  if (TERMINAL.has(d.status) && d.end) {
    ctx.registry.setEnded(rt, id, d.end);
    ctx.runtime.instanceEnded(rt, Date.parse(d.end), id);
  }
  // a finished instance leaves the engine for the archive (archive.mjs)
  if (TERMINAL.has(d.status) && !rec.archived) archiveSoon(ctx, rt, id);
  const status = deriveStatus(d);
  const steps = d.steps.map((s) => {
    // miniflare names steps "<name>-<n>" (its cache key); Cloudflare shows the name the code gave.
    s = { ...s, name: typeof s.name === "string" ? s.name.replace(/-\d+$/, "") : s.name };
    if (s.type === "step") {
      // a retry delay given as a function has no value to show: the engine says "[dynamic]" in its events
      const config =
        s.config?.retries && s.config.retries.delay === undefined
          ? { ...s.config, retries: { ...s.config.retries, delay: "[dynamic]" } }
          : s.config;
      return { ...s, config, output: s.output === undefined ? null : s.output };
    }
    if (s.type === "sleep") {
      const end = s.end ?? (s.finished ? null : sleepDue(ctx, wf, s.name, s.start));
      return { name: s.name, start: s.start, end, finished: s.finished, type: "sleep", error: s.error ?? null };
    }
    return s;
  });
  // rollback handlers run only when an instance errors or is terminated with rollback: their steps and outcome are
  // read from its events once it has ended (history.mjs)
  const rb =
    status === "errored" || status === "terminated" ? await rollbackOf(ctx, rt, id) : { steps: [], rollback: null };
  steps.push(...rb.steps);
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
    rollback: rb.rollback,
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
  if (!actions.includes(action))
    throw new EdgeError(400, INVALID_REQUEST, `status must be one of ${actions.join(", ")}, got '${action}'`);
  const from = restartFrom(body.from, action);
  if (body.rollback !== undefined && (action !== "terminate" || typeof body.rollback !== "boolean")) {
    throw new EdgeError(400, INVALID_REQUEST, "rollback is true or false, and only with status terminate");
  }
  const id = c.params.instance;
  const rt = ctx.names.workflow(wf.name);
  const d = await details(ctx, rt, id);
  if (expired(ctx.registry.instanceRecord(rt, id), wf))
    throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  const current = deriveStatus(d);
  const refuse = (why) => {
    throw new EdgeError(409, INSTANCE_STATE, `cannot ${action} instance '${id}': ${why}`);
  };
  if (action === "pause" && TERMINAL.has(current)) refuse(`it is ${current}`);
  if (action === "resume" && current !== "paused" && current !== "waitingForPause")
    refuse(`it is ${current}, not paused`);
  if (action === "terminate" && TERMINAL.has(current)) refuse(`it is already ${current}`);
  const kept = action === "restart" ? archived(ctx, rt, id) : null;
  if (kept) {
    // an archived instance is no longer in the engine: it restarts from its start, created anew with its params
    if (from)
      refuse(
        `it finished and was archived (docs/edge.md, "Finished instances are archived"); restart it from its start, without from`,
      );
    await unarchive(ctx, rt, id, kept);
    return { result: { status: "queued", timestamp: now() } };
  }
  const r = await ctx.runtime.control("/wf/action", {
    workflow: rt,
    id,
    action,
    ...(from ? { from } : {}),
    ...(body.rollback ? { rollback: true } : {}),
  });
  ctx.registry.setStatus(rt, id, r.status);
  // it runs again: its end and its rollback are read anew
  if (action === "restart") ctx.registry.noteInstance(rt, id, { ended_on: null, rollback: null });
  let status = r.status;
  if (status === "running" && (action === "resume" || action === "restart")) status = "running";
  return { result: { status, timestamp: now() } };
}

// restartFrom reads a restart's `from` ({name, count?, type?}: the step to restart from, its 1-based occurrence of
// that name and type, and its type, do by default), or null when there is none.
function restartFrom(from, action) {
  if (from === undefined || from === null) return null;
  if (action !== "restart") throw new EdgeError(400, INVALID_REQUEST, "from is only for status restart");
  if (typeof from !== "object" || Array.isArray(from))
    throw new EdgeError(400, INVALID_REQUEST, "from must be an object {name, count?, type?}");
  for (const k of Object.keys(from))
    if (!["name", "count", "type"].includes(k)) throw new EdgeError(400, INVALID_REQUEST, `from: unknown field '${k}'`);
  if (typeof from.name !== "string" || from.name === "" || from.name.length > 256)
    throw new EdgeError(400, INVALID_REQUEST, "from.name must be the name of a step (1-256 characters)");
  if (from.count !== undefined && (!Number.isInteger(from.count) || from.count < 1))
    throw new EdgeError(400, INVALID_REQUEST, "from.count must be a whole number of 1 or more");
  if (from.type !== undefined && !["do", "sleep", "waitForEvent"].includes(from.type))
    throw new EdgeError(400, INVALID_REQUEST, "from.type must be do, sleep or waitForEvent");
  return {
    name: from.name,
    ...(from.count !== undefined ? { count: from.count } : {}),
    ...(from.type !== undefined ? { type: from.type } : {}),
  };
}

export async function sendEvent(ctx, c) {
  const wf = findWorkflow(ctx, c);
  runnable(ctx, wf);
  const type = c.params.type;
  if (!EVENT_TYPE.test(type))
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      `event type '${type}' is invalid: use 1-100 letters, digits, '-' and '_'`,
    );
  const raw = await c.body(JSON_LIMIT);
  const payload = parseJSON(raw, { allowEmpty: true, what: "event payload" }) ?? null;
  checkPayloadSize(payload, "event payload");
  const id = c.params.instance;
  const rt = ctx.names.workflow(wf.name);
  const d = await details(ctx, rt, id);
  if (expired(ctx.registry.instanceRecord(rt, id), wf))
    throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  const status = deriveStatus(d);
  if (TERMINAL.has(status))
    throw new EdgeError(409, INSTANCE_STATE, `cannot send an event to instance '${id}': it is ${status}`);
  await ctx.runtime.control("/wf/event", { workflow: rt, id, type, payload });
  return { result: {} };
}

// PAYLOAD_LIMIT is Cloudflare's limit on an instance's params and on an event's payload: 1 MiB of JSON.
export const PAYLOAD_LIMIT = 1 << 20;

// checkPayloadSize refuses params or an event payload whose JSON is larger than PAYLOAD_LIMIT.
function checkPayloadSize(value, what) {
  const size = Buffer.byteLength(JSON.stringify(value) ?? "");
  if (size > PAYLOAD_LIMIT) {
    throw new EdgeError(
      413,
      INVALID_REQUEST,
      `${what}: ${size} bytes of JSON is over the Workflows limit of 1 MiB (${PAYLOAD_LIMIT} bytes)`,
    );
  }
}

// dateParam reads date_start or date_end of an instance list: an ISO 8601 time in UTC (Cloudflare: no offset),
// returned in the form the index keeps (toISOString).
function dateParam(query, name) {
  const v = query.get(name);
  if (v === null || v === "") return null;
  if (
    !/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z?)?$/.test(v) ||
    Number.isNaN(Date.parse(v.endsWith("Z") || v.length === 10 ? v : `${v}Z`))
  ) {
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      `${name} must be an ISO 8601 time in UTC without an offset (e.g. 2025-01-31T12:00:00Z), got '${v}'`,
    );
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

// durationLiteral reads the duration argument of a step.sleep as written in code: a number of milliseconds
// (digits, maybe with _ separators) or a quoted duration such as "1 hour" or '30 seconds'; null for anything else.
function durationLiteral(arg) {
  if (/^\d[\d_]*$/.test(arg)) return Number(arg.replace(/_/g, ""));
  const m = /^(["'`])\s*(\d+)\s*(millisecond|second|minute|hour|day|week)s?\s*\1$/i.exec(arg);
  return m ? Number(m[2]) * UNIT_MS[m[3].toLowerCase()] : null;
}

// deleteInstances deletes instances of workflow wf and their stored state (ids: 1 to 100) and drops them from the
// index: {deleted: [{id}], errors: [{id, code, message}]}, in the order of ids (an id that does not exist is 10400,
// instance.not_found). A running instance stops. The retention sweep (../retention.mjs) deletes through it too.
export async function deleteInstances(ctx, wf, ids) {
  runnable(ctx, wf);
  const rt = ctx.names.workflow(wf.name);
  // archived instances (archive.mjs) whose engine copy is gone are deleted from the archive and the index alone
  const gone = new Set(ids.filter((id) => ctx.registry.instanceRecord(rt, id)?.purged));
  const live = [...new Set(ids.filter((id) => !gone.has(id)))];
  const r =
    live.length > 0
      ? await ctx.runtime.control("/wf/delete", { workflow: rt, ids: live })
      : { deleted: [], errors: [] };
  for (const { id } of r.deleted) ctx.registry.forgetInstance(rt, id);
  for (const id of gone) ctx.registry.forgetInstance(rt, id);
  const deleted = new Set([...r.deleted.map((x) => x.id), ...gone]);
  const errors = new Map(r.errors.map((e) => [e.id, e]));
  const out = { deleted: [], errors: [] };
  for (const id of ids) {
    if (deleted.has(id)) out.deleted.push({ id });
    else if (errors.has(id)) out.errors.push(errors.get(id));
  }
  return out;
}

// deleteInstance is DELETE …/instances/{id}: the instance and its stored state are deleted; 404 when it does not
// exist.
export async function deleteInstance(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const id = c.params.instance;
  if (!INSTANCE_ID.test(id))
    throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  const r = await deleteInstances(ctx, wf, [id]);
  if (r.errors.length > 0) {
    const e = r.errors[0];
    if (e.code === INSTANCE_MISSING)
      throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
    throw new EdgeError(500, e.code, e.message);
  }
  return { result: { success: true } };
}

// deleteBatch is POST …/instances/batch/delete {instances: [id, ...]} (1 to 100 ids): {deleted: [{id}], errors:
// [{id, code, message}]}, one entry per id in order (an id named twice is deleted once and listed twice).
export async function deleteBatch(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const body = requireObject(await c.json());
  const ids = body.instances;
  if (
    !Array.isArray(ids) ||
    ids.length === 0 ||
    ids.length > BATCH_LIMIT ||
    !ids.every((id) => typeof id === "string")
  ) {
    throw new EdgeError(400, INVALID_REQUEST, `instances must be an array of 1 to ${BATCH_LIMIT} instance ids`);
  }
  const bad = ids.find((id) => !INSTANCE_ID.test(id));
  if (bad !== undefined)
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      `instance id '${bad}' is invalid: use 1-100 letters, digits, '-' and '_'`,
    );
  return { result: await deleteInstances(ctx, wf, ids) };
}

// sweepExpired deletes the account's instances whose retention ran out (statuses.mjs, retentionOf: their own
// instance_retention, else their Workflow's default_retention), storage and all, and answers [{workflow, id}] of
// those it deleted. The edge runs it every minute (gateway.mjs); until then an expired instance is already gone
// from reads and lists. Only Workflows with a retention somewhere are looked at; their index is brought up to date
// first (an instance that ended unseen gets its end time), as a list would.
export async function sweepExpired(ctx) {
  const out = [];
  const canonical = canonicalWorkflows(ctx.state);
  for (const wf of Object.values(ctx.state.workflows)) {
    if (!canonical[wf.name]) continue;
    const rt = ctx.names.workflow(wf.name);
    if (!wf.default_retention && !ctx.registry.instances.hasRetention(rt)) continue;
    await refreshIndex(ctx, rt);
    const ids = ctx.registry.instances.expired(rt, Date.now(), defaultKeep(wf));
    for (let i = 0; i < ids.length; i += BATCH_LIMIT) {
      const r = await deleteInstances(ctx, wf, ids.slice(i, i + BATCH_LIMIT));
      for (const { id } of r.deleted) out.push({ workflow: wf.name, id });
      // gone already (deleted through a worker's binding): the index forgets it too
      for (const e of r.errors) if (e.code === INSTANCE_MISSING) ctx.registry.forgetInstance(rt, e.id);
    }
  }
  return out;
}

// TERMINABLE are the statuses terminateAll may be narrowed to (wrangler's `instances terminate-all --status`).
const TERMINABLE = ["queued", "running", "paused", "waitingForPause", "waiting"];

// terminateAll is PUT …/instances/terminate?status=: a job that terminates every unfinished instance of the workflow
// (or those of one status), as `wrangler workflows instances terminate-all` starts it. It answers {status: "ok"}
// when it started the job and {status: "already_running"} while one runs for the workflow; the instances end
// shortly after.
export async function terminateAll(ctx, c) {
  const wf = findWorkflow(ctx, c);
  runnable(ctx, wf);
  const status = c.query.get("status");
  if (status !== null && !TERMINABLE.includes(status))
    throw new EdgeError(400, INVALID_REQUEST, `status must be one of ${TERMINABLE.join(", ")}`);
  const rt = ctx.names.workflow(wf.name);
  if (ctx.terminating.has(rt)) return { result: { status: "already_running" } };
  const list = await derivedInstances(ctx, rt, status ? [status] : TERMINABLE);
  const job = mapLimit(list, 8, async (it) => {
    try {
      await ctx.runtime.control("/wf/action", { workflow: rt, id: it.id, action: "terminate" });
      ctx.registry.setStatus(rt, it.id, "terminated");
    } catch (err) {
      ctx.logger(`terminate-all of workflow ${wf.name}: instance ${it.id}: ${err.message}`);
    }
  }).finally(() => ctx.terminating.delete(rt));
  ctx.terminating.set(rt, job);
  return { result: { status: "ok" } };
}
