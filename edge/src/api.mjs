// The edge's Cloudflare API (/client/v4) and the proxy to the accounts' workers. gateway.mjs authenticates each
// request and finds its route in the route table (api/routes.mjs, one module of handlers per resource under api/)
// and its account, whose context (AccountContext) it hands to dispatch; worker requests go to proxyWorker.

import http from "node:http";
import { JSON_LIMIT } from "./api/common.mjs";
import { ROUTES } from "./api/routes.mjs";
import { now } from "./registry.mjs";
import { envelope, parseJSON, readBody, Router, send } from "./http.mjs";

// AccountContext is what every handler is given about the account a request is for (ctx): its state, names and id
// (through its AccountView, accounts.mjs), the registry, the runtime, the accounts, the edge's port and logger, and
// what the account's handlers keep between requests. The gateway holds one per account.
export class AccountContext {
  constructor({ registry, runtime, view, accounts, port, logger }) {
    this.registry = registry;
    this.runtime = runtime;
    this.view = view;
    this.names = view.names;
    this.accounts = accounts;
    this.port = port;
    this.logger = logger;
    this.pendingIds = new Set(); // "<workflow>\n<instance id>" of instances being created (api/instances.mjs)
    this.creating = new Map(); // workerd name of a workflow -> instances being created through the API (api/instances.mjs)
    this.syncing = new Map(); // workerd name of a workflow -> its index sync under way (api/statuses.mjs)
    this.subscriptions = 0; // instance event streams open now (api/history.mjs)
    this.subscribed = new Map(); // "<workflow>\n<instance id>" -> its event streams open now (api/history.mjs)
    this.terminating = new Map(); // workerd name of a workflow -> its terminate-all job under way (api/instances.mjs)
    this.emptyFiles = new Map(); // workerd name of a workflow -> shard -> its storage files that hold no instance (api/statuses.mjs)
    this.archiving = new Map(); // "<workflow>\n<instance id>" of finished instances queued or being archived (api/archive.mjs)
    this.archiveQueue = []; // [workflow, id] waiting to be archived
    this.recentlyEnded = new Map(); // workflow -> Set of the ids that ended last, kept in the engine (api/archive.mjs)
    this.endedAt = new Map(); // workflow -> when an instance of it was last found ended (api/archive.mjs)
    this.archiveActive = 0;
    this.archiveWaiters = []; // creates waiting for the archive backlog to drain (api/archive.mjs, archiveRoom)
    this.lastArchiveFailure = 0;
    // Idle connections to workerd are closed after 3 s, before workerd closes them itself (5 s).
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 512, timeout: 3000 });
  }

  // noteArchiveFailure logs a failed archiving, at most once a minute (the instance is archived on a later try).
  noteArchiveFailure(what) {
    if (Date.now() - this.lastArchiveFailure < 60000) return;
    this.lastArchiveFailure = Date.now();
    this.logger(`archiving a finished workflow instance failed (retried later): ${what}`);
  }

  // state is the account's state, looked up afresh on every use (a rolled-back change replaces it).
  get state() {
    return this.view.state;
  }

  get accountId() {
    return this.view.id;
  }

  // legacy reports whether this is the legacy account (accounts.mjs).
  get legacy() {
    return this.view.legacy;
  }

  // apply runs change on this account's state through the runtime (see Runtime.apply).
  apply(change, opts) {
    return this.runtime.apply((root) => change(this.view.of(root)), opts);
  }
}

const router = new Router(ROUTES);

// matchRoute finds the route of a request: {route, params}, or {pathMatched} when no route of the method has the
// path (rawPath: the path after /client/v4, still percent-encoded).
export function matchRoute(method, rawPath) {
  return router.match(method, rawPath);
}

// dispatch answers a /client/v4 request the gateway has matched (match, from matchRoute) and authenticated, for the
// account of ctx.
export async function dispatch(ctx, req, res, match) {
  const url = new URL(req.url, "http://edge.invalid");
  const c = {
    req,
    res,
    params: match.params,
    query: url.searchParams,
    body: (limit = JSON_LIMIT) => readBody(req, limit),
    json: async (opts) => parseJSON(await readBody(req, JSON_LIMIT), opts),
  };
  const out = await match.route.handler(ctx, c);
  if (out === undefined) return; // the handler answered itself
  send(res, out.status ?? 200, envelope(out.result, out.info));
}

// REPLAY_LIMIT is the largest request body the worker proxy keeps to send again (see proxyWorker).
const REPLAY_LIMIT = 1 << 20;

// readAll reads a request's whole body.
function readAll(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

// workerRequestHeaders are the headers a worker request from outside is sent on with: the client's own, without
// those of the connection and without every MF-* header. miniflare's entry worker takes MF-* headers as
// instructions from the platform (MF-CF-Blob replaces request.cf, MF-Route-Override picks the worker,
// MF-Original-URL the URL, …), so a client must not be able to send any of them. CF-Connecting-IP is the client's
// address as the edge saw it (workerd, behind a Unix socket, sees none), whatever the client sent.
export function workerRequestHeaders(req) {
  const headers = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (k === "connection" || k === "keep-alive" || k.startsWith("mf-")) continue;
    headers[k] = v;
  }
  headers["cf-connecting-ip"] = clientAddress(req.socket.remoteAddress);
  return headers;
}

// clientAddress spells a client's address as Cloudflare does in CF-Connecting-IP: an IPv4 address that reached an
// IPv6 socket without its ::ffff: prefix.
function clientAddress(a) {
  if (typeof a !== "string" || a === "") return "127.0.0.1";
  return a.startsWith("::ffff:") && a.includes(".") ? a.slice(7) : a;
}

// CREATE_PATH is the path of edgeflow's create of an instance through its deployed worker (decision 200).
const CREATE_PATH = "/__edgeflow/instances";

// batchItems answers the parsed body of a batch to the create path (X-Edgeflow-Instance-Batch: 1, a JSON array of
// {id, params}), or null for a single create or a body that is not an array.
function batchItems(req, body) {
  if (req.headers["x-edgeflow-instance-batch"] !== "1" || body === null) return null;
  try {
    const items = JSON.parse(body.toString("utf8"));
    return Array.isArray(items) ? items : null;
  } catch {
    return null;
  }
}

// createIds answers the instance ids a request to the create path names: X-Edgeflow-Instance-Id, or the ids of a
// batch's items (batchItems); none when they cannot be read.
function createIds(req, items) {
  const one = req.headers["x-edgeflow-instance-id"];
  if (req.headers["x-edgeflow-instance-batch"] !== "1") return typeof one === "string" && one !== "" ? [one] : [];
  return (items ?? []).map((x) => x?.id).filter((x) => typeof x === "string" && x !== "");
}

// MAX_BATCH is the most creates one batch of edgeflow's create path holds (the generated worker refuses more).
const MAX_BATCH = 100;

// splittable answers the items ({id, params}) of a batch of edgeflow's creates (batchItems) that the proxy may split
// by shard: 2 to MAX_BATCH objects, each with an id, sent to a worker edgeflow deployed (it binds
// EDGEFLOW_WORKER_TOKEN, and its create path is edgeflow's own). Anything else, null: it goes whole to the worker,
// which answers it (a hand-written worker's requests are its own).
function splittable(items, script) {
  if (items === null || items.length < 2 || items.length > MAX_BATCH) return null;
  const version = script.versions.find((v) => v.id === script.current);
  if (!(version?.metadata?.bindings ?? []).some((b) => b.name === "EDGEFLOW_WORKER_TOKEN")) return null;
  const ok = items.every((x) => x !== null && typeof x === "object" && typeof x.id === "string" && x.id !== "");
  return ok ? items : null;
}

// ANSWER_LIMIT is the largest answer of a part of a split batch the proxy reads (a batch's answer is its ids).
const ANSWER_LIMIT = 1 << 20;

// createParts sends a batch of creates split by shard (Runtime.enterCreateParts: parts of entered groups and the
// positions of their items) to the worker in every shard at once, and answers as the worker answers a whole batch:
// {"instanceIds"} in the batch's order. A part that is refused or fails answers for the batch, as it came (edgeflow
// then creates the batch's instances one by one, and finds those another part created already taken).
async function createParts(ctx, parts, items, path, headers) {
  try {
    // every part is settled before the groups are left (a restart waits for the requests under way)
    const settled = await Promise.allSettled(
      parts.map(({ group, indexes }) => {
        const body = Buffer.from(JSON.stringify(indexes.map((i) => items[i])));
        return requestGroup(ctx, group, path, { ...headers, "content-length": String(body.length) }, body);
      }),
    );
    const failed = settled.find((x) => x.status === "rejected");
    if (failed) throw failed.reason;
    const answers = settled.map((x) => x.value);
    const refused = answers.find((a) => a.status !== 200);
    if (refused) return refused;
    const ids = new Array(items.length);
    for (const [p, answer] of answers.entries()) {
      const got = answerIds(answer.body)?.instanceIds;
      if (!Array.isArray(got) || got.length !== parts[p].indexes.length) {
        const message = "the worker's answer to a part of the batch does not name its instances";
        return { status: 502, headers: { "content-type": "application/json" }, body: JSON.stringify({ message }) };
      }
      parts[p].indexes.forEach((i, j) => (ids[i] = got[j]));
    }
    return { status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ instanceIds: ids }) };
  } finally {
    for (const { group } of parts) ctx.runtime.leave(group);
  }
}

// answerIds reads a create path's answer (a Buffer): {instanceId} or {instanceIds}, or null.
function answerIds(body) {
  try {
    const a = JSON.parse(body.toString("utf8"));
    return a !== null && typeof a === "object" ? a : null;
  } catch {
    return null;
  }
}

// createdIn answers the Workflow a worker's create path creates in: the account's one Workflow of script name, as
// {rt, wf}, or null when none or several run that script (edgeflow's generated worker binds one).
function createdIn(ctx, name) {
  const mine = Object.entries(ctx.state.workflows).filter(([, wf]) => wf.script_name === name);
  if (mine.length !== 1) return null;
  const [wfName, wf] = mine[0];
  return { rt: ctx.names.workflow(wfName), wf };
}

// proxyCreate sends a request to edgeflow's create path (whose body is read: ids are the instance ids it names) to
// the worker, and records in the index each instance the worker answers it created (decision 794): the index sync
// then finds no instance it does not know (it would list the Workflow's instances from the engine, opening every
// instance's database, once a second while a burst lasts). A batch of an edgeflow worker whose ids pick several
// shards is split (decision 793); any other request goes to the shard of its first id. The answer goes back as the
// worker gave it (uncompressed: the edge reads it).
async function proxyCreate(ctx, res, { name, script, path, headers, body, req }) {
  const items = batchItems(req, body);
  const named = createIds(req, items);
  const h = { ...headers, "accept-encoding": "identity" };
  // a request naming more ids than a batch holds (refused by edgeflow's worker) is routed by its first: the edge
  // notes and records no more than MAX_BATCH ids a request
  const ids = named.length <= MAX_BATCH ? named : named.slice(0, 1);
  const into = ids.length > 0 && named.length <= MAX_BATCH ? createdIn(ctx, name) : null;
  const batch = splittable(items, script);
  const parts = batch ? await ctx.runtime.enterCreateParts(ctx.names.script(name), ids) : null;
  // instances being created have files before the index holds them: the index sync does not count them
  if (into) ctx.creating.set(into.rt, (ctx.creating.get(into.rt) ?? 0) + ids.length);
  const t = now();
  try {
    let answer;
    // the shard each id was sent to, as the index records it
    const shardOf = new Map();
    if (parts) {
      for (const p of parts) for (const i of p.indexes) shardOf.set(ids[i], p.group.shard ?? 0);
      answer = await createParts(ctx, parts, batch, path, h);
    } else {
      const group = await ctx.runtime.enterCreate(ctx.names.script(name), ids, { count: false });
      for (const id of ids) shardOf.set(id, group.shard ?? 0);
      try {
        answer = await requestGroup(ctx, group, path, h, body);
      } finally {
        ctx.runtime.leave(group);
      }
    }
    if (answer.status === 200) {
      const a = answerIds(Buffer.from(answer.body));
      // the request's own ids the answer names, each once (an answer's length is the worker's)
      const made = new Set(Array.isArray(a?.instanceIds) ? a.instanceIds : [a?.instanceId]);
      const created = [...shardOf.keys()].filter((id) => made.has(id));
      ctx.runtime.countCreated(ctx.names.script(name), created.length);
      if (into) recordCreated(ctx, into, created, shardOf, t);
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  } finally {
    if (into) ctx.creating.set(into.rt, ctx.creating.get(into.rt) - ids.length);
  }
}

// recordCreated adds instances a worker created (through its create path, or a Workflow binding the edge serves) to
// the index, as the REST create does (trigger source binding), each in the shard (shardOf: id -> k) it was sent to,
// unless it holds them already.
export function recordCreated(ctx, { rt, wf }, ids, shardOf, t) {
  const versionId = wf.versions.at(-1)?.id;
  for (const id of ids) {
    if (typeof id !== "string" || ctx.registry.instanceRecord(rt, id)) continue;
    const k = shardOf.get(id) ?? 0;
    ctx.registry.recordInstance({
      workflow: rt,
      id,
      source: "binding",
      created_on: t,
      version_id: versionId,
      status: "queued",
      ...(k > 0 ? { shard: k } : {}),
    });
  }
  if (ids.length > 0) ctx.registry.saveSoon();
}

// requestGroup sends a POST of body to group g's workerd and answers {status, headers, body} (at most ANSWER_LIMIT
// bytes), once more when workerd closed the reused connection before answering (onceMore, as for proxyWorker).
function requestGroup(ctx, g, path, headers, body) {
  const once = () =>
    new Promise((resolve, reject) => {
      let answered = false;
      const up = http.request(
        { socketPath: g.entry.path, method: "POST", path, headers, agent: ctx.agent },
        (upRes) => {
          answered = true;
          const chunks = [];
          let size = 0;
          upRes.on("data", (c) => {
            size += c.length;
            if (size > ANSWER_LIMIT) upRes.destroy(new Error("the worker's answer to a part of the batch is too long"));
            else chunks.push(c);
          });
          upRes.on("end", () => {
            const h = { ...upRes.headers };
            for (const k of ["connection", "keep-alive", "transfer-encoding", "content-length"]) delete h[k];
            resolve({ status: upRes.statusCode, headers: h, body: Buffer.concat(chunks) });
          });
          upRes.on("error", reject);
        },
      );
      up.on("error", (e) => {
        e.replayable = closedUnanswered(e, up, answered);
        reject(e);
      });
      up.end(body);
    });
  return onceMore(once);
}

// EVENT_PEEK is the largest body whose instance the worker proxy looks for (an event sent through a worker).
const EVENT_PEEK = 64 * 1024;

// eventInstance answers the instance an event sent through edgeflow's worker names (a POST whose JSON body has
// instanceId and eventType, the generated worker's event path), or null.
function eventInstance(req, body) {
  if (req.method !== "POST" || body === null || body.length > EVENT_PEEK || body[0] !== 0x7b) return null;
  try {
    const b = JSON.parse(body.toString("utf8"));
    return typeof b?.instanceId === "string" && typeof b?.eventType === "string" && b.instanceId !== ""
      ? b.instanceId
      : null;
  } catch {
    return null;
  }
}

// proxyWorker sends a worker request to the account's script name, whose workers.dev URL must be enabled.
export async function proxyWorker(ctx, req, res, name, path) {
  const script = ctx.state.scripts[name];
  if (!script || !script.current) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end(`There is no worker named '${name}' on this local edge.\n`);
    return;
  }
  if (!script.subdomain.enabled) {
    res.writeHead(404, { "content-type": "text/plain" });
    res.end(
      `The workers.dev URL of worker '${name}' is disabled. Enable it with POST /client/v4/accounts/${ctx.accountId}/workers/scripts/${name}/subdomain {"enabled":true}.\n`,
    );
    return;
  }
  // A body of known, small size is read first, so that the request can be sent again when workerd closed the
  // kept-alive connection just as it went out (workerd closes a connection idle for 5 s; a reused one can meet
  // that close before any answer, which Node reports as ECONNRESET or "socket hang up" on a reused socket).
  const length = Number(req.headers["content-length"] ?? (req.method === "GET" || req.method === "HEAD" ? 0 : NaN));
  const body = Number.isInteger(length) && length <= REPLAY_LIMIT ? await readAll(req) : null;
  // edgeflow's create path goes to the shard its instance ids pick, a status read (`?instanceId=`, the generated
  // worker's) and an event (a POST of {instanceId, eventType}) to the shard of its instance (runtime.mjs); every
  // other request to shard 0
  const instanceId =
    req.method === "GET" ? new URL(path, "http://w").searchParams.get("instanceId") : eventInstance(req, body);
  const publicHost = ctx.legacy
    ? `${name}.localhost:${ctx.port}`
    : `${name}.${ctx.state.subdomain}.localhost:${ctx.port}`;
  const headers = workerRequestHeaders(req);
  headers.host = publicHost;
  headers["mf-route-override"] = ctx.names.script(name);
  headers["mf-original-url"] = `http://${publicHost}${path}`;
  // edgeflow's create path (decisions 200, 793, 794)
  if (req.method === "POST" && path.split("?")[0] === CREATE_PATH && body !== null)
    return await proxyCreate(ctx, res, { name, script, path, headers, body, req });
  const group =
    req.method === "POST" && path.split("?")[0] === CREATE_PATH
      ? await ctx.runtime.enterCreate(ctx.names.script(name), createIds(req, batchItems(req, body)))
      : instanceId
        ? await ctx.runtime.enterCreate(ctx.names.script(name), [instanceId], { read: true })
        : await ctx.runtime.enter(ctx.names.script(name));
  let left = false;
  const leave = () => {
    if (!left) {
      left = true;
      ctx.runtime.leave(group);
    }
  };
  res.on("close", leave);
  const send = () =>
    new Promise((resolve, reject) => {
      let answered = false;
      const up = http.request(
        { socketPath: group.entry.path, method: req.method, path, headers, agent: ctx.agent },
        (upRes) => {
          answered = true;
          const h = { ...upRes.headers };
          delete h.connection;
          delete h["keep-alive"];
          res.writeHead(upRes.statusCode, h);
          upRes.pipe(res);
          upRes.on("end", resolve);
          upRes.on("error", reject);
        },
      );
      up.on("error", (e) => {
        e.replayable = body !== null && closedUnanswered(e, up, answered);
        reject(e);
      });
      if (body === null) req.pipe(up);
      else up.end(body);
    });
  try {
    await onceMore(send, () => !res.headersSent);
  } catch (err) {
    leave();
    throw err;
  }
}

// closedUnanswered tells whether a request to workerd failed only because workerd had closed the kept-alive
// connection it went out on (ECONNRESET or EPIPE on a reused socket, before any answer): one that may be sent again.
function closedUnanswered(err, up, answered) {
  return !answered && up.reusedSocket && (err.code === "ECONNRESET" || err.code === "EPIPE");
}

// onceMore answers send(), sending once more when the first failed with an error marked replayable and again()
// allows it (proxyWorker: nothing of the answer was written yet).
async function onceMore(send, again = () => true) {
  try {
    return await send();
  } catch (err) {
    if (err.replayable && again()) return await send();
    throw err;
  }
}
