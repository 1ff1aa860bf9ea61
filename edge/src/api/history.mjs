// What the edge reads from a Workflow instance's events (the engine's history, which the control worker reads
// through the instance's subscription inside workerd, control.workflows.js): a step's full output (GET …/step), the
// event stream (GET …/subscribe, server-sent events) and the rollback of an ended instance (its steps and outcome
// in the instance's details). Every handler takes the account's context (ctx, see ../api.mjs) and the call (c).

import { EdgeError, INSTANCE_NOT_FOUND, INVALID_REQUEST, STEP_NOT_FOUND, TOO_MANY_SUBSCRIPTIONS } from "../errors.mjs";
import { details, expired } from "./statuses.mjs";
import { archived } from "./archive.mjs";
import { liveRollback, rollbackFromEvents } from "./rollback.mjs";
import { findWorkflow, runnable } from "./workflows.mjs";

const INSTANCE_ID = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;

// rollbackOf answers the rollback of an ended instance (workerd name rt, id): {steps, rollback}, from the archive
// once the instance is archived, else as rollback.mjs reads it from the engine.
export async function rollbackOf(ctx, rt, id) {
  const kept = archived(ctx, rt, id);
  if (kept && !ctx.registry.instanceRecord(rt, id)?.rollback) return kept.rollback ?? rollbackFromEvents(kept.events);
  return liveRollback(ctx, rt, id);
}

// stepTarget finds the step a step lookup names among the instance's steps (explorer names, "<name>-<count>"): by name
// and count when count is given, else by the exact name (Cloudflare's names carry the counter), else as the first of
// that name. type is step (step.do) or waitForEvent.
function stepTarget(steps, name, type, count) {
  const of = steps.filter((s) => s.type === type);
  if (count !== null) return of.find((s) => s.name === `${name}-${count}`);
  return of.find((s) => s.name === name) ?? of.find((s) => s.name === `${name}-1`);
}

// stepOutput is GET …/instances/{id}/step?name=&type=&count=&attempt=: the full output of one step as Cloudflare
// answers it, {status, error, output} (status running, waiting, complete or errored; a running step with an error is
// retrying), and event_type for a waitForEvent; a step whose output is a ReadableStream answers its bytes as
// application/octet-stream. A sensitive step's output is "[REDACTED]". attempt picks one attempt of a step.do.
export async function stepOutput(ctx, c) {
  const wf = findWorkflow(ctx, c);
  runnable(ctx, wf);
  const id = c.params.instance;
  const name = c.query.get("name");
  if (!name) throw new EdgeError(400, INVALID_REQUEST, "name is required: the name of the step");
  const type = c.query.get("type") ?? "step";
  if (type !== "step" && type !== "waitForEvent")
    throw new EdgeError(400, INVALID_REQUEST, "type must be step or waitForEvent");
  const whole = (k) => {
    const v = c.query.get(k);
    if (v === null || v === "") return null;
    if (!/^[1-9]\d{0,8}$/.test(v))
      throw new EdgeError(400, INVALID_REQUEST, `${k} must be a whole number of 1 or more`);
    return Number(v);
  };
  const count = whole("count");
  const attempt = whole("attempt");
  const rt = ctx.names.workflow(wf.name);
  const d = await details(ctx, rt, id);
  if (expired(ctx.registry.instanceRecord(rt, id), wf))
    throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  const step = stepTarget(d.steps, name, type, count);
  if (!step)
    throw new EdgeError(
      404,
      STEP_NOT_FOUND,
      `instance '${id}' has no ${type === "step" ? "step.do" : "waitForEvent"} step '${name}'${count !== null ? ` (count ${count})` : ""}`,
    );
  if (type === "waitForEvent") {
    if (attempt !== null && attempt !== 1)
      throw new EdgeError(404, STEP_NOT_FOUND, `a waitForEvent step has one attempt; there is no attempt ${attempt}`);
    const status = step.finished ? (step.error ? "errored" : "complete") : "waiting";
    const out = {
      status,
      error: step.error ?? null,
      output: status === "complete" ? (step.output?.payload ?? null) : null,
    };
    if (step.output?.type) out.event_type = step.output.type;
    return { result: out };
  }
  const attempts = step.attempts ?? [];
  let status;
  let error;
  if (attempt !== null) {
    const a = attempts[attempt - 1];
    if (!a)
      throw new EdgeError(
        404,
        STEP_NOT_FOUND,
        `step '${name}' has ${attempts.length} attempt(s); there is no attempt ${attempt}`,
      );
    status = a.success === true ? "complete" : a.success === false ? "errored" : "running";
    error = a.error ?? null;
  } else {
    status = step.success === true ? "complete" : step.success === false ? "errored" : "running";
    error = step.success === true ? null : (attempts.at(-1)?.error ?? null);
  }
  if (status !== "complete") return { result: { status, error, output: null } };
  const kept = archived(ctx, rt, id);
  if (kept) {
    const ev = kept.events.find((e) => e.type === "step_completed" && e.stepName === step.name);
    if (!ev)
      throw new EdgeError(
        404,
        STEP_NOT_FOUND,
        `the output of step '${name}' of instance '${id}' was not found in its events`,
      );
    return { result: { status, error: null, output: ev.output ?? null } };
  }
  const res = await ctx.runtime.control("/wf/step", { workflow: rt, id, target: step.name }, { response: true });
  if (res.headers.get("x-edgeflow-step-output") === "stream") {
    c.res.writeHead(200, { "content-type": "application/octet-stream" });
    for await (const chunk of res.body) c.res.write(chunk);
    c.res.end();
    return undefined;
  }
  const out = await res.json();
  if (!out.ok) throw new EdgeError(out.status ?? 500, out.code ?? 10001, out.message);
  if (!out.result.found)
    throw new EdgeError(
      404,
      STEP_NOT_FOUND,
      `the output of step '${name}' of instance '${id}' was not found in its events`,
    );
  return { result: { status, error: null, output: out.result.output } };
}

// EVENT_TYPES are the instance event types a subscription's filter may name (Cloudflare's list).
const EVENT_TYPES = new Set([
  "workflow_queued",
  "workflow_started",
  "workflow_running",
  "workflow_paused",
  "workflow_waiting_for_pause",
  "workflow_waiting",
  "workflow_completed",
  "workflow_errored",
  "workflow_terminated",
  "step_started",
  "step_completed",
  "step_errored",
  "attempt_started",
  "attempt_completed",
  "attempt_errored",
  "sleep_started",
  "sleep_completed",
  "wait_started",
  "wait_completed",
  "wait_timed_out",
  "rollback_started",
  "rollback_step_started",
  "rollback_step_completed",
  "rollback_step_errored",
  "rollback_attempt_started",
  "rollback_attempt_completed",
  "rollback_attempt_errored",
  "rollback_completed",
  "rollback_errored",
]);

// SUBSCRIPTION_LIMIT is how many event streams an account may have open at once; SUBSCRIPTION_LIFETIME_MS how long
// one stays open before the edge ends it (the client reconnects with Last-Event-ID); KEEPALIVE_MS how often an idle
// stream carries a comment, so that proxies keep it.
export const SUBSCRIPTION_LIMIT =
  Number(process.env.EDGEFLOW_EDGE_SUBSCRIPTION_LIMIT) > 0 ? Number(process.env.EDGEFLOW_EDGE_SUBSCRIPTION_LIMIT) : 64;
const SUBSCRIPTION_LIFETIME_MS = 3600000;
const KEEPALIVE_MS = 15000;

// subscribe is GET …/instances/{id}/subscribe?cursor=&filter=: the instance's events as server-sent events (`id:
// <eventId>`, `event: <type>`, `data: <event JSON>`): its history after cursor (an eventId; the Last-Event-ID header
// counts as one), then live, until its final event. filter (comma separated, or repeated) keeps only those types;
// the stream still ends with the instance. The subscription is opened inside workerd, by the control worker.
export async function subscribe(ctx, c) {
  const wf = findWorkflow(ctx, c);
  runnable(ctx, wf);
  const id = c.params.instance;
  if (!INSTANCE_ID.test(id))
    throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  const rawCursor = c.query.get("cursor") ?? c.req.headers["last-event-id"] ?? null;
  let cursor;
  if (rawCursor !== null && rawCursor !== "") {
    if (!/^\d{1,15}$/.test(String(rawCursor)))
      throw new EdgeError(400, INVALID_REQUEST, "cursor must be the eventId of an event (a whole number)");
    cursor = Number(rawCursor);
  }
  const filters = c.query
    .getAll("filter")
    .flatMap((f) => f.split(","))
    .map((f) => f.trim())
    .filter((f) => f !== "");
  const unknown = filters.find((f) => !EVENT_TYPES.has(f));
  if (unknown !== undefined) throw new EdgeError(400, INVALID_REQUEST, `filter: '${unknown}' is not an event type`);
  const rt = ctx.names.workflow(wf.name);
  const rec = ctx.registry.instanceRecord(rt, id);
  if (expired(rec, wf))
    throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
  if (ctx.subscriptions >= SUBSCRIPTION_LIMIT) {
    throw new EdgeError(
      429,
      TOO_MANY_SUBSCRIPTIONS,
      `this account has ${ctx.subscriptions} instance event streams open, the most it may have; close one first`,
    );
  }
  const kept = archived(ctx, rt, id);
  if (kept) {
    // a finished, archived instance: its history from the archive, and the stream ends
    c.res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
    c.res.write(": subscribed\n\n");
    for (const ev of kept.events) {
      if (cursor !== undefined && !(ev.eventId > cursor)) continue;
      if (filters.length > 0 && !filters.includes(ev.type)) continue;
      c.res.write(`id: ${ev.eventId}\nevent: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`);
    }
    c.res.end();
    return undefined;
  }
  ctx.subscriptions++;
  // the instance is not deleted from the engine (archive.mjs) while its stream is open
  const key = `${rt}\n${id}`;
  ctx.subscribed.set(key, (ctx.subscribed.get(key) ?? 0) + 1);
  const ctl = new AbortController();
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    ctx.subscriptions--;
    const n = ctx.subscribed.get(key) - 1;
    if (n > 0) ctx.subscribed.set(key, n);
    else ctx.subscribed.delete(key);
    ctl.abort();
  };
  c.res.on("close", release);
  try {
    const res = await ctx.runtime.control(
      "/wf/subscribe",
      { workflow: rt, id, ...(cursor !== undefined ? { cursor } : {}), ...(filters.length ? { filter: filters } : {}) },
      { response: true, signal: ctl.signal },
    );
    if (!res.ok) {
      const out = await res.json().catch(() => ({}));
      throw new EdgeError(
        out.status ?? res.status,
        out.code ?? 10001,
        out.message ?? `the subscription failed (${res.status})`,
      );
    }
    c.res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
    const keepalive = setInterval(() => c.res.write(": keep-alive\n\n"), KEEPALIVE_MS);
    const lifetime = setTimeout(release, SUBSCRIPTION_LIFETIME_MS);
    try {
      for await (const chunk of res.body) c.res.write(chunk);
    } catch {
      // the client went away, the lifetime ran out, or workerd restarted (a deploy): the stream ends here
    } finally {
      clearInterval(keepalive);
      clearTimeout(lifetime);
      c.res.end();
    }
  } catch (err) {
    release();
    if (!c.res.headersSent) throw err;
    c.res.end();
  } finally {
    release();
  }
  return undefined;
}
