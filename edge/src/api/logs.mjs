// Worker logs and tail sessions: Cloudflare's tail routes (`wrangler tail`) and the edge's own route that reads a
// worker's kept lines (see logs.mjs and tail.mjs). Every handler takes the account's context (ctx, see ../api.mjs) and
// the call (c); the route table (routes.mjs) lists them.

import { EdgeError, INVALID_REQUEST, TAIL_UNAVAILABLE } from "../errors.mjs";
import { intParam, parseJSON, requireObject } from "../http.mjs";
import { RING_LINES } from "../logs.mjs";
import { checkFilters } from "../tail.mjs";
import { JSON_LIMIT } from "./common.mjs";
import { findScript } from "./workers.mjs";

function tails(ctx) {
  if (!ctx.runtime.tails) throw new EdgeError(503, TAIL_UNAVAILABLE, "tail sessions are not available on this edge");
  return ctx.runtime.tails;
}

export async function createTail(ctx, c) {
  findScript(ctx, c);
  const body = parseJSON(await c.body(JSON_LIMIT), { allowEmpty: true }) ?? {};
  requireObject(body);
  const filters = checkFilters(body);
  return {
    result: tails(ctx).create({
      account: ctx.accountId,
      script: c.params.script,
      rtName: ctx.names.script(c.params.script),
      filters,
    }),
  };
}

export function listTails(ctx, c) {
  return { result: tails(ctx).list(ctx.accountId, findScript(ctx, c) && c.params.script) };
}

export function deleteTail(ctx, c) {
  tails(ctx).delete(ctx.accountId, c.params.script, c.params.tail);
  return { result: null };
}

// workerLogs answers {lines: [{timestamp, level, message, instanceId, kind, seq}], dropped}: the worker's kept
// lines, oldest first, narrowed by ?instance=, ?since= and ?until= (milliseconds since the epoch or RFC 3339)
// and ?limit= (the newest that many).
export function workerLogs(ctx, c) {
  findScript(ctx, c);
  const time = (name) => {
    const raw = c.query.get(name);
    if (raw === null || raw === "") return undefined;
    const n = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
    if (!Number.isFinite(n))
      throw new EdgeError(
        400,
        INVALID_REQUEST,
        `${name} must be milliseconds since the epoch or an RFC 3339 time, got '${raw}'`,
      );
    return n;
  };
  const instanceId = c.query.get("instance") || undefined;
  const since = time("since");
  const until = time("until");
  const limit = intParam(c.query, "limit", { def: RING_LINES, min: 1, max: RING_LINES });
  const { lines, dropped } = ctx.runtime.logs.read(ctx.names.script(c.params.script), {
    instanceId,
    since,
    until,
    limit,
  });
  return { result: { lines, dropped } };
}
