// The control worker's Workflow endpoints (control.worker.js routes /wf/* here). Each works through the Workflow's
// binding inside workerd: create (one, a list or a count, Cloudflare's createBatch object form), statuses, status
// changes (restart from a step, terminate with rollback), events, the revive nudge, deletes, and the instance's event
// history (subscribe), from which a step's full output, the rollback's outcome and the REST event stream are read.
// Subscriptions are opened here, inside workerd, never through miniflare's Node proxy (a subscription with a
// pending next() on that proxy, then a delete of the instance, left miniflare's port refusing connections).

import { ControlError, binding, json, message } from "./control.common.js";

const REVIVE_EVENT = "__edgeflow_revive";
// HISTORY_LIMIT bounds the events one read of an instance's history goes through (Cloudflare's steps limit is
// 25,000; each step writes a handful of events).
const HISTORY_LIMIT = 200000;
// READ_LIMIT_MS bounds one read of an instance's history.
const READ_LIMIT_MS = 20000;

export const ALREADY_EXISTS = 10405;
export const NOT_FOUND = 10201;
const STATE = 10203;

async function getHandle(wf, id) {
  try {
    return await wf.get(id);
  } catch {
    throw new ControlError(404, NOT_FOUND, `Workflow instance '${id}' not found`);
  }
}

// workflowError maps an error of the Workflows engine ("(code) message") to a ControlError.
function workflowError(err, fallbackStatus = 400) {
  const text = message(err);
  if (text.includes("(instance.not_found)") || text === "instance.not_found")
    return new ControlError(404, NOT_FOUND, text);
  if (text.includes("(instance.already_exists)"))
    return new ControlError(409, ALREADY_EXISTS, "workflows.api.error.instance.already_exists");
  return new ControlError(fallbackStatus, 10001, text.replace(/^\([a-z_.]+\) /, ""));
}

// wfCreate creates instances of one Workflow through createBatch's object form: {workflow, instances: [{id?,
// params}]} or {workflow, count, params}. It answers {created: [id, ...], errors: [{index, id, code, message}]}:
// an id that exists is error 10405 (instance.already_exists), one named twice in the list 10415.
async function wfCreate(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  const options =
    body.count !== undefined
      ? { count: body.count, params: body.params }
      : {
          instances: body.instances.map((x) => ({
            ...(x.id !== undefined ? { id: x.id } : {}),
            params: x.params ?? {},
          })),
        };
  let result;
  try {
    result = await wf.createBatch(options);
  } catch (err) {
    throw workflowError(err);
  }
  return { created: result.created.map((h) => h.id), errors: result.errors ?? [] };
}

async function wfStatus(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  const h = await getHandle(wf, body.id);
  const s = await h.status();
  return { status: s.status, output: s.output ?? null, error: s.error ?? null };
}

// wfStatuses reads the status of many instances at once: [{id, status}], status null for an unknown id.
async function wfStatuses(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  return await Promise.all(
    body.ids.map(async (id) => {
      try {
        const h = await wf.get(id);
        return { id, status: (await h.status()).status };
      } catch {
        return { id, status: null };
      }
    }),
  );
}

// wfAction changes an instance's status: pause, resume, terminate ({rollback: true} runs its rollback handlers
// first), restart ({from: {name, count, type}} from that step, keeping the steps before it).
async function wfAction(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  const h = await getHandle(wf, body.id);
  try {
    switch (body.action) {
      case "pause":
        await h.pause();
        break;
      case "resume":
        await h.resume();
        break;
      case "terminate":
        await h.terminate(body.rollback === true ? { rollback: true } : undefined);
        break;
      case "restart":
        await h.restart(body.from ? { from: body.from } : undefined);
        break;
      default:
        throw new ControlError(400, 10001, `unknown action '${body.action}'`);
    }
  } catch (err) {
    if (err instanceof ControlError) throw err;
    throw new ControlError(409, STATE, message(err).replace(/^\([a-z_.]+\) /, ""));
  }
  const s = await h.status();
  return { status: s.status };
}

async function wfEvent(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  const h = await getHandle(wf, body.id);
  await h.sendEvent({ type: body.type, payload: body.payload });
  return {};
}

// wfRevive nudges instances that a workerd restart left without a running engine: an event wakes the engine's
// Durable Object, which replays the instance from its stored steps and honours the original sleep deadlines.
async function wfRevive(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  let revived = 0;
  await Promise.all(
    body.ids.map(async (id) => {
      try {
        const h = await wf.get(id);
        await h.sendEvent({ type: REVIVE_EVENT, payload: null });
        revived++;
      } catch {
        // gone meanwhile
      }
    }),
  );
  return { revived };
}

// wfDelete deletes instances and their stored state ({workflow, ids}, 1 to 100): {deleted: [{id}], errors: [{id,
// code, message}]} in the order of ids (an id that does not exist is error 10400, instance.not_found).
async function wfDelete(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  try {
    return await wf.deleteBatch(body.ids);
  } catch (err) {
    throw workflowError(err);
  }
}

// history goes through an instance's events ({cursor?, filter?} as subscribe takes them), calling visit(event)
// for each until it answers true or the history ends (a finished instance's does: its last event is final). It is
// for histories known to reach what visit looks for; it stops after READ_LIMIT_MS and HISTORY_LIMIT events.
async function history(wf, id, options, visit) {
  const h = await getHandle(wf, id);
  let sub;
  try {
    sub = await h.subscribe(options);
  } catch (err) {
    throw workflowError(err, 404);
  }
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ControlError(504, 10001, `reading the events of instance '${id}' took longer than ${READ_LIMIT_MS} ms`),
        ),
      READ_LIMIT_MS,
    );
  });
  try {
    for (let n = 0; n < HISTORY_LIMIT; n++) {
      const { value, done } = await Promise.race([sub.next(), timeout]);
      if (done) return;
      if (await visit(value)) return;
    }
    throw new ControlError(500, 10001, `instance '${id}' has more than ${HISTORY_LIMIT} events`);
  } finally {
    clearTimeout(timer);
    sub[Symbol.dispose]?.();
  }
}

// stepOutput answers the full output of a completed step: {workflow, id, target} (the step's name with its count,
// as the engine keys it: "charge-1"). A ReadableStream output is the response's body (application/octet-stream,
// x-edgeflow-step-output: stream); any other output is {ok, result: {found, output}} ("[REDACTED]" for a sensitive
// step, as the engine gives it).
async function stepOutput(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  let found = null;
  await history(wf, body.id, { filter: ["step_completed"] }, (ev) => {
    if (ev.stepName !== body.target) {
      if (ev.output instanceof ReadableStream) ev.output.cancel().catch(() => {});
      return false;
    }
    found = ev;
    return true;
  });
  if (found?.output instanceof ReadableStream) {
    return new Response(found.output, {
      headers: { "content-type": "application/octet-stream", "x-edgeflow-step-output": "stream" },
    });
  }
  return json({ ok: true, result: found === null ? { found: false } : { found: true, output: found.output ?? null } });
}

const ROLLBACK_EVENTS = [
  "rollback_started",
  "rollback_step_started",
  "rollback_step_completed",
  "rollback_step_errored",
  "rollback_attempt_started",
  "rollback_attempt_completed",
  "rollback_attempt_errored",
  "rollback_completed",
  "rollback_errored",
  "workflow_completed",
  "workflow_errored",
  "workflow_terminated",
];

// wfRollback answers the rollback events of a finished instance ({workflow, id}), oldest first: [] when no rollback
// ran. Its history ends with the instance's final event, which comes after any rollback.
async function wfRollback(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  const events = [];
  await history(wf, body.id, { filter: ROLLBACK_EVENTS }, (ev) => {
    if (!ev.type.startsWith("rollback_")) return true;
    events.push(ev);
    return false;
  });
  return events;
}

// wfEvents answers the whole history of a finished instance ({workflow, id}) for its archive: {events} oldest first
// (the history of a finished instance ends), or {stream: true} when a step's output is a ReadableStream (such an instance is not
// archived: its output is read from the engine).
async function wfEvents(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  const events = [];
  let stream = false;
  await history(wf, body.id, {}, (ev) => {
    if (ev.output instanceof ReadableStream) {
      ev.output.cancel().catch(() => {});
      stream = true;
      return true;
    }
    events.push(ev);
    return false;
  });
  return stream ? { stream: true } : { events };
}

// subscribeStream answers an instance's events as a server-sent event stream ({workflow, id, cursor?, filter?}):
// `id: <eventId>`, `event: <type>`, `data: <the event as JSON>` for each, the history first, then live, until the
// instance's final event (or the client goes away). A step's stream output is not carried in its event (read it
// from the step endpoint): the event has `output_stream: true` instead.
async function subscribeStream(env, body) {
  const wf = binding(env, "wf", body.workflow, "workflow");
  const h = await getHandle(wf, body.id);
  const options = {};
  if (body.cursor !== undefined) options.cursor = body.cursor;
  if (body.filter !== undefined) options.filter = body.filter;
  let sub;
  try {
    sub = await h.subscribe(options);
  } catch (err) {
    throw workflowError(err);
  }
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const enc = new TextEncoder();
  (async () => {
    try {
      await writer.write(enc.encode(": subscribed\n\n"));
      for (;;) {
        const { value, done } = await sub.next();
        if (done) break;
        const ev = { ...value };
        if (ev.output instanceof ReadableStream) {
          ev.output.cancel().catch(() => {});
          delete ev.output;
          ev.output_stream = true;
        }
        await writer.write(enc.encode(`id: ${ev.eventId}\nevent: ${ev.type}\ndata: ${JSON.stringify(ev)}\n\n`));
      }
      await writer.close();
    } catch (err) {
      await writer.abort(err).catch(() => {});
    } finally {
      sub[Symbol.dispose]?.();
    }
  })();
  return new Response(readable, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

// WORKFLOW_ROUTES are the JSON endpoints: body in, {ok, result} out.
export const WORKFLOW_ROUTES = {
  "/wf/create": wfCreate,
  "/wf/status": wfStatus,
  "/wf/statuses": wfStatuses,
  "/wf/action": wfAction,
  "/wf/event": wfEvent,
  "/wf/revive": wfRevive,
  "/wf/delete": wfDelete,
  "/wf/rollback": wfRollback,
  "/wf/events": wfEvents,
};

const STREAMED = { "/wf/step": stepOutput, "/wf/subscribe": subscribeStream };

// workflowResponse answers the endpoints that answer a response of their own (a stream); undefined for others.
export async function workflowResponse(env, request, url) {
  const fn = STREAMED[url.pathname];
  if (fn === undefined || request.method !== "POST") return undefined;
  return await fn(env, await request.json());
}
