// The Cloudflare REST API subset under /client/v4 for one account, and the proxy to its workers. gateway.mjs
// authenticates each request and hands it to the Api of its account.
//
// The handlers live in one module per resource under api/ (zones, workers, workflows, KV, D1, R2), each a class of
// methods that installHandlers copies onto Api: every handler is a method of the account's Api, as the Go API's
// handlers are methods of its Server spread over one file per resource.

import http from "node:http";
import { JSON_LIMIT } from "./api/common.mjs";
import { EdgeError, INVALID_REQUEST, METHOD_NOT_ALLOWED, NO_ROUTE } from "./errors.mjs";
import { envelope, intParam, pageInfo, parseJSON, readBody, Router, send } from "./http.mjs";
import { D1Handlers } from "./api/d1.mjs";
import { KVHandlers } from "./api/kv.mjs";
import { LogHandlers } from "./api/logs.mjs";
import { R2Handlers } from "./api/r2.mjs";
import { WorkerHandlers } from "./api/workers.mjs";
import { WorkflowHandlers } from "./api/workflows.mjs";
import { ZoneHandlers } from "./api/zones.mjs";

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

export class Api {
  // An Api serves one account (view: an AccountView of accounts.mjs); the gateway (gateway.mjs) authenticates
  // requests and hands each to the Api of its account.
  constructor({ registry, runtime, view, accounts, port, logger }) {
    this.registry = registry;
    this.runtime = runtime;
    this.view = view;
    this.names = view.names;
    this.accounts = accounts;
    this.port = port;
    this.logger = logger;
    this.pendingIds = new Set();
    // Idle connections to workerd are closed after 3 s, before workerd closes them itself (5 s).
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 512, timeout: 3000 });
    this.router = new Router();
    this.routes();
    this.syncing = new Map();
  }

  get state() {
    return this.view.state;
  }

  get account() {
    return this.view.id;
  }

  // apply runs change on this account's state through the runtime (see Runtime.apply).
  apply(change, opts) {
    return this.runtime.apply((root) => change(this.view.of(root)), opts);
  }

  // ownsWorkflow reports whether the workerd name rtName is one of this account's Workflows.
  ownsWorkflow(rtName) {
    return Object.keys(this.state.workflows).some((n) => this.names.workflow(n) === rtName);
  }

  // proxyWorker sends a request to this account's script name, whose workers.dev URL must be enabled.
  async proxyWorker(req, res, name, path) {
    const script = this.state.scripts[name];
    if (!script || !script.current) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`There is no worker named '${name}' on this local edge.\n`);
      return;
    }
    if (!script.subdomain.enabled) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(
        `The workers.dev URL of worker '${name}' is disabled. Enable it with POST /client/v4/accounts/${this.account}/workers/scripts/${name}/subdomain {"enabled":true}.\n`,
      );
      return;
    }
    const group = await this.runtime.enter(this.names.script(name));
    let left = false;
    const leave = () => {
      if (!left) {
        left = true;
        this.runtime.leave(group);
      }
    };
    res.on("close", leave);
    const publicHost = this.view.legacy ? `${name}.localhost:${this.port}` : `${name}.${this.state.subdomain}.localhost:${this.port}`;
    const headers = workerRequestHeaders(req);
    headers.host = publicHost;
    headers["mf-route-override"] = this.names.script(name);
    headers["mf-original-url"] = `http://${publicHost}${path}`;
    // A body of known, small size is read first, so that the request can be sent again when workerd closed the
    // kept-alive connection just as it went out (workerd closes a connection idle for 5 s; a reused one can meet
    // that close before any answer, which Node reports as ECONNRESET or "socket hang up" on a reused socket).
    const length = Number(req.headers["content-length"] ?? (req.method === "GET" || req.method === "HEAD" ? 0 : NaN));
    const body = Number.isInteger(length) && length <= REPLAY_LIMIT ? await readAll(req) : null;
    for (let attempt = 0; ; attempt++) {
      try {
        await new Promise((resolve, reject) => {
          let answered = false;
          const up = http.request(
            { socketPath: group.entry.path, method: req.method, path, headers, agent: this.agent },
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
            e.replayable = !answered && up.reusedSocket && body !== null && (e.code === "ECONNRESET" || e.code === "EPIPE");
            reject(e);
          });
          if (body === null) req.pipe(up);
          else up.end(body);
        });
        return;
      } catch (err) {
        if (attempt === 0 && err.replayable && !res.headersSent) continue;
        leave();
        throw err;
      }
    }
  }

  // dispatch answers a /client/v4 request the gateway has authenticated and found to be for this account.
  async dispatch(req, res, principal) {
    const url = new URL(req.url, "http://edge.invalid");
    const rawPath = req.url.split("?")[0].slice("/client/v4".length);
    const m = this.router.match(req.method, rawPath);
    if (!m.handler) {
      if (m.pathMatched) throw new EdgeError(405, METHOD_NOT_ALLOWED, `Method ${req.method} not allowed for ${url.pathname}`);
      throw new EdgeError(404, NO_ROUTE, `Could not route to ${url.pathname}, perhaps your object identifier is invalid?`);
    }
    const ctx = {
      req,
      res,
      params: m.params,
      query: url.searchParams,
      body: (limit = JSON_LIMIT) => readBody(req, limit),
      json: async (opts) => parseJSON(await readBody(req, JSON_LIMIT), opts),
    };
    const out = await m.handler(ctx);
    if (out === undefined) return; // the handler answered itself
    send(res, out.status ?? 200, envelope(out.result, out.info));
  }

  // routes fills the router: the identity routes here, then each part's (api/*.mjs).
  routes() {
    const r = this.router;
    const A = "/accounts/:account";
    // identity
    r.add("GET", "/user/tokens/verify", () => ({ result: { id: this.tokenId(), status: "active", not_before: null, expires_on: null } }));
    r.add("GET", `${A}/tokens/verify`, () => ({ result: { id: this.tokenId(), status: "active", not_before: null, expires_on: null } }));
    r.add("GET", "/user", () => ({
      result: { id: this.tokenId(), email: "local@edgeflow.local", first_name: "Local", last_name: "Edge", suspended: false },
    }));
    r.add("GET", "/accounts", (c) => {
      // Cloudflare: per_page 5..50, `name` keeps the accounts of that name, direction asc|desc.
      const perPage = intParam(c.query, "per_page", { def: 20, min: 5, max: 50 });
      const direction = c.query.get("direction");
      if (direction !== null && direction !== "asc" && direction !== "desc") throw new EdgeError(400, INVALID_REQUEST, "direction must be asc or desc");
      const name = c.query.get("name");
      const list = [this.accountJSON()].filter((a) => name === null || name === "" || a.name === name);
      const { items, info } = pageInfo(list, intParam(c.query, "page", { def: 1, min: 1 }), perPage);
      return { result: items, info };
    });
    r.add("GET", A, () => ({ result: this.accountJSON() }));
    r.add("GET", "/memberships", (c) => {
      // Cloudflare: per_page 5..50, as for /accounts
      const membership = { id: this.tokenId(), status: "accepted", account: { id: this.account, name: this.state.accountName }, roles: ["Administrator"] };
      const { items, info } = pageInfo([membership], intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 20, min: 5, max: 50 }));
      return { result: items, info };
    });
    this.addZoneRoutes(r, A);
    this.addWorkerRoutes(r, A);
    this.addWorkflowRoutes(r, A);
    this.addKVRoutes(r, A);
    this.addD1Routes(r, A);
    this.addR2Routes(r, A);
    this.addLogRoutes(r, A);
  }

  tokenId() {
    return this.view.legacy ? this.accounts.rootTokenId() : this.state.tokenHash.slice(0, 32);
  }

  accountJSON() {
    return {
      id: this.account,
      name: this.state.accountName,
      type: "standard",
      created_on: "2024-01-01T00:00:00Z",
      settings: { enforce_twofactor: false },
    };
  }
}

// installHandlers copies the methods of each part onto Api; two parts defining the same name is a programming error.
function installHandlers(target, ...parts) {
  for (const part of parts) {
    for (const [name, desc] of Object.entries(Object.getOwnPropertyDescriptors(part.prototype))) {
      if (name === "constructor") continue;
      if (Object.hasOwn(target.prototype, name)) throw new Error(`Api: ${part.name}.${name} is defined twice`);
      Object.defineProperty(target.prototype, name, desc);
    }
  }
}

installHandlers(Api, ZoneHandlers, WorkerHandlers, WorkflowHandlers, KVHandlers, D1Handlers, R2Handlers, LogHandlers);

