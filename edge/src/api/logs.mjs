// Worker logs and tail sessions: Cloudflare's tail routes (`wrangler tail`) and the edge's own route that reads a
// worker's kept lines. Methods of Api (../api.mjs), installed on it by installHandlers. See logs.mjs and tail.mjs.

import { EdgeError, INVALID_REQUEST, TAIL_UNAVAILABLE } from "../errors.mjs";
import { intParam, parseJSON, requireObject } from "../http.mjs";
import { RING_LINES } from "../logs.mjs";
import { checkFilters } from "../tail.mjs";
import { JSON_LIMIT } from "./common.mjs";

export class LogHandlers {
  // addLogRoutes adds the routes of this part of the API to the router r; A is the path of the account.
  addLogRoutes(r, A) {
    const S = `${A}/workers/scripts/:script`;
    r.add("POST", `${S}/tails`, (c) => this.createTail(c));
    r.add("GET", `${S}/tails`, (c) => ({ result: this.tails().list(this.account, this.script(c) && c.params.script) }));
    r.add("DELETE", `${S}/tails/:tail`, (c) => {
      this.tails().delete(this.account, c.params.script, c.params.tail);
      return { result: null };
    });
    // The edge's own route (not Cloudflare's): the worker's kept console lines and exceptions.
    r.add("GET", `${S}/logs`, (c) => this.workerLogs(c));
  }

  tails() {
    if (!this.runtime.tails) throw new EdgeError(503, TAIL_UNAVAILABLE, "tail sessions are not available on this edge");
    return this.runtime.tails;
  }

  async createTail(c) {
    this.script(c);
    const body = parseJSON(await c.body(JSON_LIMIT), { allowEmpty: true }) ?? {};
    requireObject(body);
    const filters = checkFilters(body);
    return { result: this.tails().create({ account: this.account, script: c.params.script, rtName: this.names.script(c.params.script), filters }) };
  }

  // workerLogs answers {lines: [{timestamp, level, message, instanceId, kind, seq}], dropped}: the worker's kept
  // lines, oldest first, narrowed by ?instance=, ?since= and ?until= (milliseconds since the epoch or RFC 3339)
  // and ?limit= (the newest that many).
  workerLogs(c) {
    this.script(c);
    const time = (name) => {
      const raw = c.query.get(name);
      if (raw === null || raw === "") return undefined;
      const n = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
      if (!Number.isFinite(n)) throw new EdgeError(400, INVALID_REQUEST, `${name} must be milliseconds since the epoch or an RFC 3339 time, got '${raw}'`);
      return n;
    };
    const instanceId = c.query.get("instance") || undefined;
    const since = time("since");
    const until = time("until");
    const limit = intParam(c.query, "limit", { def: RING_LINES, min: 1, max: RING_LINES });
    const { lines, dropped } = this.runtime.logs.read(this.names.script(c.params.script), { instanceId, since, until, limit });
    return { result: { lines, dropped } };
  }
}
