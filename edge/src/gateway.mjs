// The edge's front door: it tells worker requests from API requests, finds the account of each, checks the token
// against the route's auth (api/routes.mjs) and hands the request, with that account's context, to the API
// (api.mjs).
//
// Who may do what:
// - An account's token reaches /client/v4 for its own account only: a path naming another account is 9109, and
//   GET /accounts, /memberships, /user/tokens/verify and /zones answer for the token's account.
// - The root token (DIR/token, readable only by the user running the edge; workers cannot read files) is the
//   legacy account's token, as before accounts existed, and administers the edge: /client/v4 for any account
//   (addressed by its id in the path), and the routes under /__edge: accounts (POST creates an account or gives it
//   a new token, GET lists them), stats, cron, retention (the sweep of expired instances, now). Account tokens get
//   10000 there.
// - Worker URLs need no token: `<workers>/<script>/…` and Host `<script>.localhost` reach the legacy account,
//   `<workers>/<subdomain>/<script>/…` and Host `<script>.<subdomain>.localhost` the account with that subdomain;
//   Host `<script>.<subdomain>.workers.dev` either.

import fs from "node:fs";
import { AccountView, Accounts, accountStates } from "./accounts.mjs";
import {
  EdgeError,
  AUTHENTICATION_ERROR,
  INVALID_REQUEST,
  INVALID_TOKEN,
  METHOD_NOT_ALLOWED,
  NO_ROUTE,
  UNAUTHORIZED,
} from "./errors.mjs";
import { childWorkerds } from "./gate.mjs";
import { SHARD_SEP } from "./plan.mjs";
import { TRANSFER_PREFIX } from "./d1transfer.mjs";
import { AccountContext, dispatch, matchRoute, proxyWorker, recordCreated } from "./api.mjs";
import { now } from "./registry.mjs";
import { sweepExpired } from "./api/instances.mjs";
import { backup } from "./backup.mjs";
import { runSchedules } from "./api/schedules.mjs";
import { ownsWorkflow, stepping, sweepEnded, syncShard, unfinished } from "./api/statuses.mjs";
import { ARCHIVING, archiveNow, archiveSoon, trimEnded } from "./api/archive.mjs";
import { parseJSON, readBody, requireObject, send, sendError } from "./http.mjs";

const WORKERS_PREFIX = "/workers/";

export class Gateway {
  constructor({ registry, runtime, token, port, logger }) {
    this.registry = registry;
    this.runtime = runtime;
    this.port = port;
    this.logger = logger;
    this.accounts = new Accounts({ registry, runtime, rootToken: token });
    this.contexts = new Map();
    // the revive sweep after each workerd start reads the unfinished instances from the owning account's index
    runtime.unfinishedInstances = (rtName) => unfinished(this.#owner(rtName), rtName);
    // the settle before a restart counts the instances that run a step (groups.mjs, decision 799)
    runtime.steppingOf = (rtName, ids) => stepping(this.#owner(rtName), rtName, ids);
    // an idle Workflow's finished instances in shards past shard 0 are archived at once, so that the shards empty
    // and stop (runtime.mjs, decision 704)
    runtime.archiveNow = (rtName, ids) => {
      const ctx = this.#owner(rtName, null);
      if (ctx) for (const x of ids) archiveNow(ctx, rtName, x);
    };
    // the instances a worker's Workflow binding creates through the edge (wfbinding.mjs) enter the index at once
    runtime.recordCreated = (rtName, ids, shards) => {
      const ctx = this.#owner(rtName, null);
      const name = ctx && Object.keys(ctx.state.workflows).find((n) => ctx.names.workflow(n) === rtName);
      if (name === undefined || !Array.isArray(ids) || ids.length === 0) return;
      recordCreated(ctx, { rt: rtName, wf: ctx.state.workflows[name] }, ids, new Map(Object.entries(shards)), now());
    };
    // before a shard stops, the index learns of every instance it holds (runtime.mjs, #planKeeping)
    runtime.syncShard = async (rtName, k) => {
      const ctx = this.#owner(rtName, null);
      if (ctx) await syncShard(ctx, rtName, k);
    };
  }

  // #owner answers the context of the account that owns the Workflow of runtime name rtName, else fallback (by
  // default the legacy account's).
  #owner(rtName, fallback = this.context(this.registry.state.accountId)) {
    for (const [id] of accountStates(this.registry.state)) {
      const ctx = this.context(id);
      if (ownsWorkflow(ctx, rtName)) return ctx;
    }
    return fallback;
  }

  // context returns the AccountContext of account id (which must exist).
  context(id) {
    let ctx = this.contexts.get(id);
    if (!ctx) {
      const view = new AccountView(this.registry, id, this.accounts.isLegacy(id));
      ctx = new AccountContext({
        registry: this.registry,
        runtime: this.runtime,
        view,
        accounts: this.accounts,
        port: this.port,
        logger: this.logger,
      });
      this.contexts.set(id, ctx);
    }
    return ctx;
  }

  // handle is the node:http request listener for the whole port.
  handle = (req, res) => {
    let target;
    try {
      target = this.#workerTarget(req);
    } catch (err) {
      sendError(res, err);
      return;
    }
    if (target !== null) {
      this.#serveWorker(req, res, target).catch((err) => {
        if (!res.headersSent) {
          res.writeHead(502, { "content-type": "text/plain" });
          res.end(`worker ${target.name} is unavailable: ${err.message}\n`);
        } else {
          res.destroy();
        }
      });
      return;
    }
    this.#api(req, res).catch((err) => {
      if (!res.headersSent) sendError(res, err);
      else res.destroy();
    });
  };

  // #workerTarget decides whether a request is for a worker and of which account: {account, name, path}, or
  // {name, missing: true} for a subdomain no account has, or null for the API.
  #workerTarget(req) {
    const host = (req.headers.host ?? "").toLowerCase().replace(/:\d+$/, "");
    const legacy = this.registry.state.accountId;
    let m = /^([a-z0-9_-]+)\.localhost$/.exec(host);
    if (m) return { account: legacy, name: m[1], path: req.url };
    m = /^([a-z0-9_-]+)\.([a-z0-9-]+)\.(?:localhost|workers\.dev)$/.exec(host);
    if (m) {
      const account = this.accounts.bySubdomain(m[2]);
      return account === null ? { name: m[1], missing: true } : { account, name: m[1], path: req.url };
    }
    if (!req.url.startsWith(WORKERS_PREFIX)) return null;
    const split = (rest) => {
      const cut = rest.search(/[/?]/);
      const first = cut < 0 ? rest : rest.slice(0, cut);
      let path = cut < 0 ? "/" : rest.slice(cut);
      if (path.startsWith("?")) path = `/${path}`;
      return [decode(first), path];
    };
    const [first, path] = split(req.url.slice(WORKERS_PREFIX.length));
    const account = this.accounts.bySubdomain(first);
    if (
      account !== null &&
      !this.accounts.isLegacy(account) &&
      path.startsWith("/") &&
      path.length > 1 &&
      path[1] !== "?"
    ) {
      const [name, rest] = split(path.slice(1));
      return { account, name, path: rest };
    }
    return { account: legacy, name: first, path };
  }

  async #serveWorker(req, res, target) {
    if (target.missing) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`There is no worker named '${target.name}' on this local edge.\n`);
      return;
    }
    await proxyWorker(this.context(target.account), req, res, target.name, target.path);
  }

  async #api(req, res) {
    const url = new URL(req.url, "http://edge.invalid");
    if (url.pathname === "/" || url.pathname === "/healthz") {
      send(res, 200, { ok: true });
      return;
    }
    if (url.pathname === "/readyz") {
      // not ready while a group met an error that stops it running instances (health.mjs)
      const failing = this.runtime.groups.health.report();
      send(res, failing.length === 0 ? 200 : 503, { ok: failing.length === 0, failing });
      return;
    }
    if (url.pathname.startsWith(TRANSFER_PREFIX)) {
      // D1 import uploads and export downloads: the URL's token is the capability, as a presigned URL's is.
      await this.runtime.d1transfers.serve(req, res, url.pathname);
      return;
    }
    if (url.pathname.startsWith("/__edge/")) {
      this.#requireRoot(req);
      await this.#admin(req, res, url);
      return;
    }
    if (!url.pathname.startsWith("/client/v4/")) {
      throw new EdgeError(
        404,
        NO_ROUTE,
        `Could not route to ${url.pathname}, perhaps your object identifier is invalid?`,
      );
    }
    // Unknown routes answer 7003/10405 before the token is looked at, as before accounts.
    const rawPath = req.url.split("?")[0].slice("/client/v4".length);
    const match = matchRoute(req.method, rawPath);
    if (!match.route) {
      if (match.pathMatched)
        throw new EdgeError(405, METHOD_NOT_ALLOWED, `Method ${req.method} not allowed for ${url.pathname}`);
      throw new EdgeError(
        404,
        NO_ROUTE,
        `Could not route to ${url.pathname}, perhaps your object identifier is invalid?`,
      );
    }
    const { auth } = match.route;
    const who = this.#principal(req, auth.verify);
    let account = who.id;
    if (auth.account) {
      const named = match.params.account;
      const allowed = who.root ? this.accounts.exists(named) : named === who.id;
      if (!allowed) throw new EdgeError(403, UNAUTHORIZED, "Unauthorized to access requested resource");
      account = named;
    }
    await dispatch(this.context(account), req, res, match);
  }

  // #principal finds who a request's token belongs to. A token no account has is 401 10000, except on the token
  // verify routes, where Cloudflare answers 401 1000 Invalid API Token (wrangler reads that code).
  #principal(req, verifying = false) {
    const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "");
    const who = m ? this.accounts.principal(m[1].trim()) : null;
    if (!who) {
      if (verifying) throw new EdgeError(401, INVALID_TOKEN, "Invalid API Token");
      throw new EdgeError(401, AUTHENTICATION_ERROR, "Authentication error");
    }
    return who;
  }

  #requireRoot(req) {
    if (!this.#principal(req).root) throw new EdgeError(401, AUTHENTICATION_ERROR, "Authentication error");
  }

  async #admin(req, res, url) {
    const p = url.pathname;
    if (p === "/__edge/stats" && req.method === "GET") {
      send(res, 200, this.stats());
      return;
    }
    if (p === "/__edge/cron" && req.method === "POST") {
      // Runs the schedules due at ?time= (an ISO time, default now) at once.
      const t = new Date(url.searchParams.get("time") ?? Date.now());
      if (Number.isNaN(t.getTime())) throw new EdgeError(400, INVALID_REQUEST, "time must be an ISO 8601 time");
      t.setUTCSeconds(0, 0);
      send(res, 200, { time: t.toISOString(), started: await this.runSchedules(t) });
      return;
    }
    if (p === "/__edge/retention" && req.method === "POST") {
      // Deletes every account's instances whose retention ran out, at once (the edge also does every minute).
      send(res, 200, { deleted: await this.sweepRetention() });
      return;
    }
    if (p === "/__edge/accounts" && req.method === "GET") {
      send(res, 200, { accounts: this.accounts.list() });
      return;
    }
    if (p === "/__edge/accounts" && req.method === "POST") {
      const body = requireObject(parseJSON(await readBody(req, 1 << 16), { allowEmpty: true }) ?? {});
      const { created, account } = await this.accounts.provision(body);
      send(res, created ? 201 : 200, account);
      return;
    }
    const restart = /^\/__edge\/groups\/([A-Za-z0-9_-]+(?:~[0-9]+)?)\/restart$/.exec(p);
    if (restart && req.method === "POST") {
      // Restarts a group's workerds at once, as a cycle does (an operator's lever after lifting a limit): a group's
      // id restarts it and each of its shards, a shard's id ("g1~1", as /readyz names it) that shard alone.
      const gid = restart[1];
      if (!this.runtime.groups.get(gid)) throw new EdgeError(404, INVALID_REQUEST, `no workerd group ${gid}`);
      const gids = gid.includes(SHARD_SEP)
        ? [gid]
        : this.runtime.groups
            .list()
            .map((g) => g.id)
            .filter((id) => id === gid || id.startsWith(gid + SHARD_SEP));
      const done = await Promise.all(gids.map((id) => this.runtime.cycle(id, "restart requested")));
      send(res, 200, { group: gid, restarted: done.every(Boolean), groups: gids });
      return;
    }
    if (p === "/__edge/backup" && req.method === "POST") {
      // A consistent copy of the data dir as a tar, taken while the workerds run, each store file by its own SQLite
      // read snapshot (backup.mjs; edgeflow admin backup).
      await backup(this.runtime, this.registry, res);
      return;
    }
    if (
      p === "/__edge/backup" ||
      p === "/__edge/stats" ||
      p === "/__edge/cron" ||
      p === "/__edge/retention" ||
      p === "/__edge/accounts"
    ) {
      throw new EdgeError(405, METHOD_NOT_ALLOWED, `Method ${req.method} not allowed for ${p}`);
    }
    throw new EdgeError(404, NO_ROUTE, `Could not route to ${p}, perhaps your object identifier is invalid?`);
  }

  // everyMinute runs what the edge does at the start of each minute: the schedules due then, and the retention sweep.
  async everyMinute(minute) {
    await this.runSchedules(minute);
    try {
      await this.sweepRetention();
    } catch (err) {
      this.logger(`retention sweep failed: ${err.message}`);
    }
  }

  // archiveSweep archives every account's finished instances not archived yet (api/archive.mjs): the unfinished ones
  // of the index are asked for their status, which queues those that ended; an earlier archiving that failed is
  // retried. One sweep runs at a time.
  async archiveSweep() {
    if (this.archiving || !ARCHIVING) return;
    this.archiving = true;
    try {
      for (const [id] of accountStates(this.registry.state)) {
        const ctx = this.context(id);
        for (const wf of Object.keys(ctx.state.workflows)) {
          const rt = ctx.names.workflow(wf);
          if (!this.runtime.groups.owner.wf.has(rt)) continue;
          try {
            await sweepEnded(ctx, rt);
            for (const id of ctx.registry.instances.archivable(rt)) archiveSoon(ctx, rt, id);
            trimEnded(ctx, rt);
          } catch (err) {
            ctx.noteArchiveFailure(`workflow ${wf}: ${err.message}`);
          }
        }
      }
    } finally {
      this.archiving = false;
    }
  }

  // sweepRetention deletes every account's instances whose retention ran out (api/instances.mjs, sweepExpired) and
  // answers them: [{workflow, id}] (with the account's id for accounts other than the legacy one).
  async sweepRetention() {
    const deleted = [];
    for (const [id] of accountStates(this.registry.state)) {
      for (const d of await sweepExpired(this.context(id)))
        deleted.push(this.accounts.isLegacy(id) ? d : { account: id, ...d });
    }
    if (deleted.length > 0) {
      // the first few by name (an operator looking for one finds it; a big sweep stays one short line)
      const named = deleted.slice(0, 10).map((d) => `${d.account ? d.account + ":" : ""}${d.workflow}/${d.id}`);
      const more = deleted.length > named.length ? ` and ${deleted.length - named.length} more` : "";
      this.logger(`retention: deleted ${deleted.length} expired workflow instance(s): ${named.join(", ")}${more}`);
    }
    return deleted;
  }

  // runSchedules runs every account's schedules due at minute.
  async runSchedules(minute) {
    const started = [];
    for (const [id] of accountStates(this.registry.state)) {
      for (const s of await runSchedules(this.context(id), minute))
        started.push(this.accounts.isLegacy(id) ? s : { account: id, ...s });
    }
    return started;
  }

  stats() {
    const pid = this.runtime.workerdPid();
    // Every group's workerd (groups.mjs): their resident memory is summed in workerd_rss and listed by group.
    // pss is a process's share of its memory: workerd's code pages, shared by every group's process, count once.
    const groups = this.runtime.workerdPids().map((g) => ({ ...g, rss: rssOf(g.pid), pss: pssOf(g.pid) }));
    const workerdRss = groups.some((g) => g.rss !== null) ? groups.reduce((n, g) => n + (g.rss ?? 0), 0) : null;
    let scripts = 0;
    let workflows = 0;
    const all = accountStates(this.registry.state);
    for (const [, st] of all) {
      scripts += Object.values(st.scripts).filter((s) => s.current).length;
      workflows += Object.keys(st.workflows).length;
    }
    return {
      node_rss: process.memoryUsage().rss,
      workerd_rss: workerdRss,
      workerd_pid: pid,
      accounts: all.length,
      scripts,
      workflows,
      last_restart_ms: this.runtime.lastRestartMs ?? null,
      log_deliveries: this.runtime.logs.deliveries,
      loopback_checks: this.runtime.gate?.checked ?? 0,
      loopback_refused: this.runtime.gate?.refused ?? 0,
      // bytes of binding calls the binding proxy holds now, its budget, and the calls refused for it (bodybudget.mjs)
      binding_buffer: {
        held: this.runtime.d1.budget.held,
        limit: this.runtime.d1.budget.limit,
        refused: this.runtime.d1.budget.refused,
      },
      workerd_groups: groups,
      // how many shards the busy Workflows run in (shards.mjs)
      shards: this.runtime.shardPolicy.stats(),
      // finished Workflow instances kept in the archive, and those queued or being archived now (api/archive.mjs)
      archived_instances: this.registry.archive.count(),
      archive_pending: [...this.contexts.values()].reduce((n, c) => n + c.archiving.size, 0),
      // cycles of a group's workerd past its bound of descriptors or memory (bounds.mjs)
      workerd_cycles: this.runtime.bounds?.stats() ?? null,
      workerd_rss_per_worker: workerdRss !== null && scripts > 0 ? Math.round(workerdRss / scripts) : null,
      workerd_pss: groups.some((g) => g.pss !== null) ? groups.reduce((n, g) => n + (g.pss ?? 0), 0) : null,
      ...this.#d1Stats(new Set(groups.map((g) => g.pid))),
    };
  }

  // #d1Stats counts the D1 databases' own workerds (d1host.mjs) that run now, their resident memory and the requests
  // they are answering.
  #d1Stats(groupPids) {
    let rss = 0;
    const pids = childWorkerds().filter((p) => !groupPids.has(p));
    for (const p of pids) {
      try {
        const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, "utf8"));
        if (m) rss += Number(m[1]) * 1024;
      } catch {
        // stopped meanwhile
      }
    }
    return {
      d1_workerds: this.runtime.d1.running(),
      d1_workerd_rss: rss,
      d1_requests_in_flight: this.runtime.d1.inFlight(),
    };
  }
}

// rssOf reads a process's resident memory in bytes (null where /proc has none).
function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

// pssOf reads a process's proportional set size in bytes (null where /proc has none).
function pssOf(pid) {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function decode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new EdgeError(400, INVALID_REQUEST, `'${s}' is not a valid percent-encoded path segment`);
  }
}
