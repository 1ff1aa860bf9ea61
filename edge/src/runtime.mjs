// The runtime: the deployed scripts of every account, spread over groups, each group one Miniflare (one workerd
// process), plus a home group for the storage no worker binds. Every change of configuration goes through apply(),
// which serializes the changes, works out which groups the change touches (a group whose configuration is the same
// as before is left running), holds new requests to those groups while they restart, rolls the registry and the
// groups back when the new configuration does not start, and afterwards revives the workflow instances that the
// restart stranded in them (decision 259).
//
// Groups: workers that reach each other inside workerd (service bindings, Workflows or Durable Objects of another
// script) or share a KV namespace or R2 bucket form one component and always share a group, since those bindings
// and the storage files work only within one workerd. Components are packed into groups of up to GROUP_SIZE
// workers; a worker keeps its group for as long as the edge runs. Each KV namespace, R2 bucket and Workflow is
// opened by exactly one group (the one whose workers bind it, else the home group), whose control worker serves the
// REST API for it. D1 databases run in workerds of their own (d1host.mjs) and are reached from every group.

import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Log, LogLevel, Miniflare } from "miniflare";
import { Naming, accountStates } from "./accounts.mjs";
import { D1Hosts } from "./d1host.mjs";
import { D1Transfers } from "./d1transfer.mjs";
import { EntrySocket, ReportWatch, awaitReport } from "./entry.mjs";
import { EdgeError, INTERNAL_ERROR, SCRIPT_INVALID } from "./errors.mjs";
import { GATE_HEADER, REFUSER_SOURCE, REFUSER_WORKER, newGateSecret, tcpListeners } from "./gate.mjs";
import { GUARD_WORKER, GUARD_WORKER_SOURCE, OutboundGuard } from "./outbound.mjs";
import { WorkerLogs, instrument, logTailWorker } from "./logs.mjs";

export const CONTROL_WORKER = "__edgeflow_control";
const CONTROL_SOURCE = fs.readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "control.worker.js"),
  "utf8",
);
// GONE_WORKER holds the bindings that stand for deleted KV namespaces, D1 databases and R2 buckets (gone.worker.js).
const GONE_WORKER = "__edgeflow_gone";
const GONE_SOURCE = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "gone.worker.js"), "utf8");
// workerd refuses compatibility dates newer than its own release.
const MAX_COMPAT_DATE = "2026-04-26";
const DRAIN_MS = 2000;

class QuietLog extends Log {
  constructor(logger) {
    super(LogLevel.WARN);
    this.logger = logger;
  }
  log(message) {
    this.logger(`miniflare: ${message}`);
  }
}

// GROUP_SIZE is the number of workers a group is filled to before a new group starts (a component of workers bound
// to each other may make a group larger).
export const GROUP_SIZE = Number(process.env.EDGEFLOW_EDGE_GROUP_SIZE) > 0 ? Math.floor(Number(process.env.EDGEFLOW_EDGE_GROUP_SIZE)) : 4;
export const HOME_GROUP = "home";

// Group is one Miniflare instance and what it runs.
class Group {
  constructor(id) {
    this.id = id;
    this.mf = null;
    this.entry = null; // its workerd's entry socket (entry.mjs), once started
    this.reports = new ReportWatch(); // the wrapper's report of each start of its workerd
    this.pid = null;
    this.restarting = null; // a promise while its workerd (re)starts
    this.inflight = 0;
    this.drainWaiters = [];
    this.stderrTail = [];
    this.fingerprint = null;
    this.workers = []; // runtime names of its user workers
    this.workflows = []; // runtime names of the Workflows it runs
    this.sweeping = null;
    this.sweepAgain = false;
  }
}

export class Runtime {
  constructor({ registry, persistDir, pidFile, d1PidFile, logger, outbound }) {
    this.pidFile = pidFile;
    this.outbound = outbound ?? new OutboundGuard({ logger });
    // Every worker's console output and uncaught exceptions (logs.mjs).
    this.logs = new WorkerLogs({ logger });
    this.gateSecret = newGateSecret();
    this.registry = registry;
    this.persistDir = persistDir;
    this.logger = logger;
    this.chain = Promise.resolve();
    this.groups = new Map(); // group id -> Group
    this.placement = new Map(); // worker runtime name -> group id
    this.owner = { kv: new Map(), r2: new Map(), wf: new Map() }; // resource -> group id
    this.nextGroup = 1;
    this.closed = false;
    // kept-alive connections to the groups' workerds for control and explorer calls (#request)
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    this.lastRestartMs = null;
    this.onWorkerdStarted = null; // called after a group's workerd (re)started (the edge's loopback gate)
    // D1 databases run in workerds of their own (d1host.mjs), so that a slow query stops only its database.
    this.d1 = new D1Hosts({ persistDir, logger, gateSecret: this.gateSecret, pidFile: d1PidFile });
    // D1 imports' and exports' files and jobs (d1transfer.mjs), beside the persist dir.
    this.d1transfers = new D1Transfers({ dir: path.join(path.dirname(persistDir), "d1-transfers"), logger });
  }

  // entryPath is the path of the home group's entry socket.
  get entryPath() {
    return this.groups.get(HOME_GROUP)?.entry?.path ?? null;
  }

  // #recordPids notes every group's workerd pid (the home group's first) so that a later edge on this data dir can
  // stop workerds orphaned by a kill -9 of this process (they would keep the data files locked and go on running
  // instances).
  #recordPids() {
    if (!this.pidFile) return;
    const pids = this.workerdPids().map((g) => g.pid);
    try {
      fs.writeFileSync(this.pidFile, pids.map((p) => `${p}\n`).join(""));
    } catch (err) {
      this.logger(`cannot write ${this.pidFile}: ${err.message}`);
    }
  }

  async start() {
    await this.d1.start();
    const plan = this.#plan(this.registry.state);
    try {
      await this.#realize(plan);
    } catch (err) {
      throw new Error(`workerd failed to start: ${err.message}`);
    }
  }

  async close() {
    this.closed = true;
    await Promise.all([...this.groups.values()].map((g) => g.mf?.dispose().catch(() => {})));
    for (const g of this.groups.values()) g.entry?.close();
    await this.d1.close();
    this.d1transfers.close();
    await this.outbound.close();
    this.agent.destroy();
  }

  // workerdPid is the home group's workerd pid (the D1 hosts' and other groups' workerds are children of this
  // process too).
  workerdPid() {
    return this.groups.get(HOME_GROUP)?.pid ?? null;
  }

  // workerdPids lists every group's workerd: [{group, pid, workers}], the home group first.
  workerdPids() {
    const out = [];
    for (const g of this.groups.values()) if (g.pid) out.push({ group: g.id, pid: g.pid, workers: g.workers.length });
    return out.sort((a, b) => (a.group === HOME_GROUP ? -1 : b.group === HOME_GROUP ? 1 : 0));
  }

  // groupOf is the group that runs the worker with runtime name `name` (the home group for one that does not run).
  groupOf(name) {
    return this.groups.get(this.placement.get(name) ?? HOME_GROUP) ?? this.groups.get(HOME_GROUP);
  }

  // enter waits until the group of worker `name` is up and counts a request in flight there; it answers the group,
  // which leave must be given back.
  async enter(name) {
    return this.#enterGroup(() => this.groupOf(name));
  }

  async #enterGroup(pick) {
    for (;;) {
      const g = pick();
      if (!g) throw new EdgeError(503, INTERNAL_ERROR, "the edge's workerd is not running");
      if (g.restarting) {
        await g.restarting;
        continue;
      }
      // a group whose start just failed, until the rollback that follows at once has run
      if (!g.entry) throw new EdgeError(503, INTERNAL_ERROR, `workerd group ${g.id} is not running; try again`);
      g.inflight++;
      return g;
    }
  }

  leave(g) {
    g.inflight--;
    if (g.inflight === 0) for (const w of g.drainWaiters.splice(0)) w();
  }

  // apply runs change(state) on the registry and restarts the groups whose configuration it changed. A change that
  // throws leaves everything as it was; a configuration that workerd refuses is rolled back and reported as 10021.
  apply(change, { restart = true } = {}) {
    const run = async () => {
      const before = this.registry.snapshot();
      let result;
      try {
        result = await change(this.registry.state);
      } catch (err) {
        this.registry.restore(before);
        throw err;
      }
      if (!restart) {
        this.registry.save();
        return result;
      }
      const started = Date.now();
      const keep = { placement: new Map(this.placement), nextGroup: this.nextGroup };
      try {
        await this.#realize(this.#plan(this.registry.state));
      } catch (err) {
        const detail = err.detail ?? "";
        this.registry.restore(before);
        this.placement = keep.placement;
        try {
          await this.#realize(this.#plan(before));
        } catch (err2) {
          this.logger(`rollback failed: ${err2.message}`);
        }
        throw new EdgeError(400, SCRIPT_INVALID, `the new configuration failed to start on workerd: ${cleanError(err)}${detail}`);
      } finally {
        this.lastRestartMs = Date.now() - started;
      }
      this.registry.save();
      return result;
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => {});
    return p;
  }

  // #plan works out, from the registry's state, every group's workers and storage and its fingerprint. Workers
  // keep the group they have; a component of bound workers spread over several groups (a new binding joined them)
  // moves into one; new components fill the smallest group with room, or a new one.
  #plan(state) {
    const entries = []; // {name, w, version}
    const all = { kv: [], r2: [], wf: [] };
    for (const [id, acct, legacy] of accountStates(state)) {
      const names = new Naming(id, legacy);
      const canonical = canonicalWorkflows(acct);
      const deployed = new Set(Object.keys(acct.scripts).filter((n) => acct.scripts[n].current));
      for (const nsId of Object.keys(acct.kv)) all.kv.push(nsId);
      for (const bucket of Object.keys(acct.r2)) all.r2.push(names.bucket(bucket));
      for (const [name, def] of Object.entries(canonical)) {
        all.wf.push({ rt: names.workflow(name), className: def.className, scriptName: names.script(def.scriptName) });
      }
      for (const name of [...deployed].sort()) {
        const script = acct.scripts[name];
        const version = script.versions.find((v) => v.id === script.current);
        // classes: the Workflow classes this script runs, which instrument() tags with their instance id.
        const classes = Object.values(canonical).filter((d) => d.scriptName === name).map((d) => d.className);
        entries.push({ name: names.script(name), w: this.#workerOptions(name, version, canonical, deployed, names, acct), version, classes });
      }
    }
    // components
    const parent = new Map(entries.map((e) => [e.name, e.name]));
    const find = (x) => {
      while (parent.get(x) !== x) {
        parent.set(x, parent.get(parent.get(x)));
        x = parent.get(x);
      }
      return x;
    };
    const union = (a, b) => {
      if (!parent.has(a) || !parent.has(b)) return;
      const ra = find(a);
      const rb = find(b);
      if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
    };
    const holder = new Map(); // "kv:id" | "r2:bucket" -> a worker binding it
    const share = (key, name) => {
      if (holder.has(key)) union(holder.get(key), name);
      else holder.set(key, name);
    };
    for (const e of entries) {
      for (const v of Object.values(e.w.serviceBindings)) union(e.name, typeof v === "string" ? v : v.name);
      for (const v of Object.values(e.w.workflows)) if (v.scriptName) union(e.name, v.scriptName);
      for (const v of Object.values(e.w.durableObjects)) if (v.scriptName) union(e.name, v.scriptName);
      for (const id of Object.values(e.w.kvNamespaces)) share(`kv:${id}`, e.name);
      for (const b of Object.values(e.w.r2Buckets)) share(`r2:${b}`, e.name);
    }
    const components = new Map();
    for (const e of entries) {
      const r = find(e.name);
      if (!components.has(r)) components.set(r, []);
      components.get(r).push(e.name);
    }
    // placement
    const placement = new Map();
    const size = new Map();
    const put = (names, gid) => {
      for (const n of names) placement.set(n, gid);
      size.set(gid, (size.get(gid) ?? 0) + names.length);
    };
    const fresh = [];
    for (const comp of components.values()) {
      const had = [...new Set(comp.map((n) => this.placement.get(n)).filter((g) => g !== undefined && g !== HOME_GROUP))].sort(byGroupId);
      if (had.length > 0) put(comp, had[0]);
      else fresh.push(comp);
    }
    let next = this.nextGroup;
    for (const comp of fresh) {
      let best = null;
      for (const [gid, n] of size) {
        if (n + comp.length <= GROUP_SIZE && (best === null || n < size.get(best))) best = gid;
      }
      put(comp, best ?? `g${next++}`);
    }
    // storage owners and every group's spec
    const groups = new Map([[HOME_GROUP, { workers: [], kv: [], r2: [], wf: [] }]]);
    const spec = (gid) => {
      if (!groups.has(gid)) groups.set(gid, { workers: [], kv: [], r2: [], wf: [] });
      return groups.get(gid);
    };
    for (const e of entries) spec(placement.get(e.name)).workers.push(e);
    const owner = { kv: new Map(), r2: new Map(), wf: new Map() };
    for (const id of all.kv) {
      const gid = holder.has(`kv:${id}`) ? placement.get(holder.get(`kv:${id}`)) : HOME_GROUP;
      owner.kv.set(id, gid);
      spec(gid).kv.push(id);
    }
    for (const b of all.r2) {
      const gid = holder.has(`r2:${b}`) ? placement.get(holder.get(`r2:${b}`)) : HOME_GROUP;
      owner.r2.set(b, gid);
      spec(gid).r2.push(b);
    }
    for (const wf of all.wf) {
      const gid = placement.get(wf.scriptName) ?? HOME_GROUP;
      owner.wf.set(wf.rt, gid);
      spec(gid).wf.push(wf);
    }
    for (const g of groups.values()) {
      const h = createHash("sha256");
      h.update(JSON.stringify({ kv: g.kv, r2: g.r2, wf: g.wf }));
      for (const e of g.workers) h.update(JSON.stringify({ w: e.w, classes: e.classes, code: e.version.modules.map((m) => [m.name, m.type, m.blob]), format: e.version.format }));
      g.fingerprint = h.digest("hex");
    }
    return { groups, placement, owner, nextGroup: next };
  }

  // #realize brings the groups to plan: it starts new groups, restarts changed ones (those that give up a worker or
  // storage first, so that no two workerds open the same files), and stops groups left empty. Requests to the
  // groups it restarts wait from the moment the plan is taken.
  async #realize(plan) {
    const changed = [];
    const releases = [];
    const hold = (g) => {
      let release;
      g.restarting = new Promise((r) => (release = r));
      releases.push(() => {
        g.restarting = null;
        release();
      });
    };
    const removed = [];
    for (const [gid, g] of this.groups) if (!plan.groups.has(gid)) removed.push(g);
    for (const [gid, spec] of plan.groups) {
      let g = this.groups.get(gid);
      if (g && g.fingerprint === spec.fingerprint) continue;
      if (!g) {
        g = new Group(gid);
        this.groups.set(gid, g);
      }
      changed.push([g, spec]);
      hold(g);
    }
    for (const g of removed) hold(g);
    this.placement = plan.placement;
    this.owner = plan.owner;
    this.nextGroup = plan.nextGroup;
    try {
      const gives = (g, spec) => {
        const has = new Set([...spec.workers.map((e) => e.name), ...spec.kv.map((k) => `kv:${k}`), ...spec.r2.map((b) => `r2:${b}`), ...spec.wf.map((w) => `wf:${w.rt}`)]);
        return g.mf !== null && [...(g.holds ?? [])].some((x) => !has.has(x));
      };
      for (const g of removed) {
        await this.#drain(g);
        await g.mf?.dispose().catch(() => {});
        g.entry?.close();
        this.groups.delete(g.id);
      }
      const first = changed.filter(([g, spec]) => gives(g, spec));
      const then = changed.filter(([g, spec]) => !gives(g, spec));
      for (const [g, spec] of first) await this.#restart(g, spec);
      const results = await Promise.allSettled(then.map(([g, spec]) => this.#restart(g, spec)));
      const failed = results.find((r) => r.status === "rejected");
      if (failed) throw failed.reason;
    } finally {
      for (const r of releases) r();
      this.#recordPids();
    }
    for (const [g] of changed) if (g.mf) this.sweep(g);
    if (changed.length > 0) this.onWorkerdStarted?.();
  }

  // #restart (re)starts group g with spec; a failure leaves the error's `detail` with workerd's last lines.
  async #restart(g, spec) {
    await this.#drain(g);
    g.stderrTail = [];
    const opts = this.#instanceOptions(g, spec);
    const reported = g.reports.expect();
    // the old workerd stops now: its socket file goes, and requests wait for the new one (g.restarting)
    g.entry?.close();
    g.entry = null;
    try {
      if (g.mf) {
        await g.mf.setOptions(opts);
      } else {
        g.mf = new Miniflare(opts);
      }
      await g.mf.ready;
      const { pid, path: socketPath } = await awaitReport(reported);
      const tcp = tcpListeners(pid);
      if (tcp !== null && tcp.length > 0) {
        throw new Error(`workerd (pid ${pid}) listens on TCP port ${tcp.join(", ")}; the edge runs workerd with its Unix entry socket only`);
      }
      g.entry = new EntrySocket(socketPath, pid);
      g.pid = pid;
    } catch (err) {
      err.detail = this.#stderrSummary(g);
      g.fingerprint = null; // whatever runs now, it is not spec
      // a workerd that reported its socket and then failed (or listens on TCP) must not run on
      const r = g.reports.last;
      if (r) fs.rmSync(r.path, { force: true });
      await g.mf?.dispose().catch(() => {});
      g.mf = null;
      g.pid = null;
      throw err;
    }
    g.fingerprint = spec.fingerprint;
    g.workers = spec.workers.map((e) => e.name);
    g.workflows = spec.wf.map((w) => w.rt);
    g.holds = new Set([...g.workers, ...spec.kv.map((k) => `kv:${k}`), ...spec.r2.map((b) => `r2:${b}`), ...spec.wf.map((w) => `wf:${w.rt}`)]);
  }

  // #drain waits (a bounded time) for requests in flight in group g to finish before its workerd restarts.
  async #drain(g) {
    if (g.inflight === 0) return;
    await Promise.race([
      new Promise((r) => g.drainWaiters.push(r)),
      new Promise((r) => setTimeout(r, DRAIN_MS).unref()),
    ]);
  }

  #stderrSummary(g) {
    const lines = g.stderrTail
      .map((l) => l.trim())
      .filter((l) => l !== "" && !/^\s*at /.test(l))
      .slice(-8);
    return lines.length ? `: ${lines.join(" | ")}` : "";
  }

  #captureStdio(g, stdout, stderr) {
    const take = (stream, isErr) => {
      let buf = "";
      stream.on("data", (chunk) => {
        buf += chunk.toString();
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (!isErr && g.reports.line(line)) continue;
          if (isErr) {
            g.stderrTail.push(line);
            if (g.stderrTail.length > 50) g.stderrTail.shift();
          }
          if (line.trim() !== "") this.logger(g.id === HOME_GROUP ? `workerd: ${line}` : `workerd ${g.id}: ${line}`);
        }
      });
    };
    take(stdout, false);
    take(stderr, true);
  }

  // #controlGroup finds the group whose control worker holds what a control request is about: the KV namespace
  // (ns), R2 bucket (bucket) or Workflow (workflow) it names; the home group otherwise.
  #controlGroup(pathname, body) {
    const q = new URL(pathname, "http://control").searchParams;
    let gid;
    if (pathname.startsWith("/kv/")) gid = this.owner.kv.get(body?.ns ?? q.get("ns"));
    else if (pathname.startsWith("/r2/")) gid = this.owner.r2.get(body?.bucket ?? q.get("bucket"));
    else if (pathname.startsWith("/wf/")) gid = this.owner.wf.get(body?.workflow);
    return gid ?? HOME_GROUP;
  }

  // control calls a control worker inside workerd (the one of the group holding what the request names). A request
  // that dies on the socket before any response (a keep-alive connection workerd closed at that moment, or a
  // restart) is sent once more; the result says so in `retried` for callers that must tell their own earlier
  // attempt from someone else's.
  async control(pathname, body, init = {}) {
    for (let attempt = 0; ; attempt++) {
      const g = await this.#enterGroup(() => this.groups.get(this.#controlGroup(pathname, body)) ?? this.groups.get(HOME_GROUP));
      try {
        const req = {
          method: init.method ?? "POST",
          headers: {
            "MF-Route-Override": CONTROL_WORKER,
            "accept-encoding": "identity",
            ...(init.headers ?? {}),
            [GATE_HEADER]: this.gateSecret,
          },
          body: init.raw !== undefined ? init.raw : body === undefined ? undefined : JSON.stringify(body),
        };
        if (init.response) return await g.entry.fetch(pathname, req);
        const out = JSON.parse((await this.#request(g, pathname, req)).text);
        if (!out.ok) throw new EdgeError(out.status ?? 500, out.code ?? INTERNAL_ERROR, out.message);
        if (attempt > 0 && out.result && typeof out.result === "object") Object.defineProperty(out.result, "retried", { value: true });
        return out.result;
      } catch (err) {
        if (attempt === 0 && isSocketError(err)) continue;
        throw err;
      } finally {
        this.leave(g);
      }
    }
  }

  // #request sends a request to group g's workerd on the runtime's kept-alive connections over its entry socket and
  // answers {status, text}. It is node:http rather than fetch: in profiles of bursts undici's fetch cost about twice
  // the CPU per call on these small local requests (decision 304). A body that is not a string or bytes (a stream)
  // goes through fetch instead. Failing before any answer (a kept-alive connection workerd closed, a restart) is a
  // socket error, which callers may retry once, as they do for fetch's "fetch failed".
  #request(g, pathname, { method = "GET", headers = {}, body } = {}) {
    if (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)) {
      return g.entry.fetch(pathname, { method, headers, body }).then(async (res) => ({ status: res.status, text: await res.text() }));
    }
    return g.entry.request(pathname, { method, headers, body, agent: this.agent });
  }

  // scheduled runs the scheduled handler of the worker with runtime name `name` for cron expression `cron` at time
  // (a Date), through miniflare's trigger route on its group's entry socket (MF-Route-Override names the worker).
  // It answers the handler's outcome: "ok", or what went wrong ("exception", …).
  async scheduled(name, cron, time) {
    const g = await this.enter(name);
    try {
      const q = new URLSearchParams({ cron, time: String(time.getTime()) });
      const res = await this.#request(g, `/cdn-cgi/handler/scheduled?${q}`, { method: "GET", headers: { "MF-Route-Override": name } });
      // 200 "ok", or 500 with the outcome; anything else did not reach the handler
      if (res.status !== 200 && !(res.status === 500 && /^[a-zA-Z]+$/.test(res.text))) {
        throw new Error(`workerd answered ${res.status} ${res.text.slice(0, 200)}`);
      }
      return res.text;
    } finally {
      this.leave(g);
    }
  }

  // d1Query runs an API query on a D1 database ({db, sql, params, batch, raw, readOnly}); see d1host.mjs.
  async d1Query(body) {
    try {
      return await this.d1.query(body);
    } catch (err) {
      if (err?.code !== undefined && err?.status !== undefined) throw new EdgeError(err.status, err.code, err.message);
      throw err;
    }
  }

  // explorer calls miniflare's local explorer API (workflow instance listing and details) of the group that runs
  // the Workflow the path names.
  async explorer(pathname, init = {}) {
    const m = /^\/workflows\/([^/?]+)/.exec(pathname);
    const gid = m ? this.owner.wf.get(decodeURIComponent(m[1])) : undefined;
    for (let attempt = 0; ; attempt++) {
      const g = await this.#enterGroup(() => this.groups.get(gid ?? HOME_GROUP) ?? this.groups.get(HOME_GROUP));
      try {
        const res = await this.#request(g, `/cdn-cgi/explorer/api${pathname}`, { method: init.method, headers: { "accept-encoding": "identity" } });
        return { status: res.status, body: JSON.parse(res.text) };
      } catch (err) {
        if (attempt === 0 && isSocketError(err)) continue;
        throw err;
      } finally {
        this.leave(g);
      }
    }
  }

  // sweep revives every unfinished instance of every workflow group g runs (every group's without g). It runs after
  // each start and restart of a group; a sweep requested while one runs starts again when that one ends.
  sweep(g) {
    if (g === undefined) return Promise.all([...this.groups.values()].map((x) => this.sweep(x)));
    if (g.sweeping) {
      g.sweepAgain = true;
      return g.sweeping;
    }
    g.sweeping = (async () => {
      do {
        g.sweepAgain = false;
        try {
          const n = await this.#sweepOnce(g);
          if (n > 0) this.logger(`revived ${n} in-flight workflow instance(s)`);
        } catch (err) {
          if (!this.closed) this.logger(`revive sweep failed: ${err.message}`);
        }
      } while (g.sweepAgain && !this.closed);
      g.sweeping = null;
    })();
    return g.sweeping;
  }

  async #sweepOnce(g) {
    let total = 0;
    for (const wf of g.workflows) {
      const ids = await this.unfinishedInstances(wf);
      for (let i = 0; i < ids.length; i += 100) {
        const r = await this.control("/wf/revive", { workflow: wf, ids: ids.slice(i, i + 100) });
        total += r.revived;
      }
    }
    return total;
  }

  // listInstances returns [{id, status, created_on}] of a workflow (miniflare's statuses), newest first.
  async listInstances(workflow, { status } = {}) {
    const all = [];
    for (let page = 1; ; page++) {
      const q = new URLSearchParams({ page: String(page), per_page: "100" });
      if (status) q.set("status", status);
      const { status: code, body } = await this.explorer(`/workflows/${encodeURIComponent(workflow)}/instances?${q}`);
      if (code !== 200 || !body.success) break;
      for (const it of body.result) if (it.status !== undefined) all.push(it);
      const info = body.result_info ?? {};
      if (page >= (info.total_pages ?? 1) || body.result.length === 0) break;
    }
    return all;
  }

  async unfinishedInstances(workflow) {
    const unfinished = new Set(["queued", "running", "waiting", "waitingForPause"]);
    return (await this.listInstances(workflow)).filter((it) => unfinished.has(it.status)).map((it) => it.id);
  }

  // #instanceOptions builds one group's Miniflare options: every group's instance is configured here.
  #instanceOptions(g, spec) {
    const map = { kv: {}, d1: {}, r2: {}, wf: {} };
    const control = {
      name: CONTROL_WORKER,
      modules: [{ type: "ESModule", path: "control.worker.js", contents: CONTROL_SOURCE }],
      compatibilityDate: "2025-01-01",
      kvNamespaces: {},
      d1Databases: {},
      r2Buckets: {},
      workflows: {},
    };
    for (const nsId of spec.kv) {
      const b = `KV_${Object.keys(map.kv).length}`;
      control.kvNamespaces[b] = nsId;
      map.kv[nsId] = b;
    }
    for (const bucket of spec.r2) {
      const b = `R2_${Object.keys(map.r2).length}`;
      control.r2Buckets[b] = bucket;
      map.r2[bucket] = b;
    }
    for (const wf of spec.wf) {
      const b = `WF_${Object.keys(map.wf).length}`;
      control.workflows[b] = { name: wf.rt, className: wf.className, scriptName: wf.scriptName };
      map.wf[wf.rt] = b;
    }
    control.bindings = { MAP: map, GATE: this.gateSecret };
    const workers = [
      // The first worker is the entry socket's default route: it refuses everything (see gate.mjs).
      {
        name: REFUSER_WORKER,
        modules: [{ type: "ESModule", path: "refuser.worker.js", contents: REFUSER_SOURCE }],
        compatibilityDate: "2025-01-01",
      },
      // Every user worker's outbound fetch goes through the outbound guard (see outbound.mjs).
      {
        name: GUARD_WORKER,
        modules: [{ type: "ESModule", path: "outbound.worker.js", contents: GUARD_WORKER_SOURCE }],
        compatibilityDate: "2025-01-01",
        serviceBindings: { CHECKED: this.outbound.fetch },
      },
      control,
    ];
    // Every user worker's console output and exceptions reach the edge's one log store through this group's log
    // tail worker (logs.mjs); instrument() also tags each Workflow class's runs with their instance id.
    const users = spec.workers.map((e) => instrument(this.#withCode(e.w, e.version), e.classes));
    if (users.length > 0) workers.push(logTailWorker(this.logs), ...users);
    if (users.some((w) => Object.keys(w.wrappedBindings ?? {}).length > 0)) {
      workers.push({ name: GONE_WORKER, modules: [{ type: "ESModule", path: "gone.worker.js", contents: GONE_SOURCE }] });
    }
    return {
      host: "127.0.0.1",
      port: 0,
      defaultPersistRoot: this.persistDir,
      // The Cache API's storage is one file per cache name: each group keeps its own, so no two workerds open it.
      cachePersist: path.join(this.persistDir, "cache", g.id),
      cf: false,
      unsafeLocalExplorer: true,
      // the trigger route (/cdn-cgi/handler/scheduled) runs script cron triggers; only the edge reaches the entry
      // socket, and the gateway's worker requests carry a Host the route refuses
      unsafeTriggerHandlers: true,
      log: new QuietLog(this.logger),
      handleRuntimeStdio: (out, err) => this.#captureStdio(g, out, err),
      workers,
    };
  }

  // #withCode adds a version's code to worker options w (kept out of #plan, which reads no blobs).
  #withCode(w, version) {
    const name = w.name;
    if (version.format === "service-worker") {
      const m = version.modules[0];
      return { ...w, script: this.registry.getBlob(m.blob).toString("utf8"), scriptPath: `/${name}/${m.name}` };
    }
    return {
      ...w,
      modulesRoot: `/${name}`,
      modules: version.modules.map((m) => {
        const bytes = this.registry.getBlob(m.blob);
        const text = m.type === "ESModule" || m.type === "CommonJS" || m.type === "Text";
        return { type: m.type, path: `/${name}/${m.name}`, contents: text ? bytes.toString("utf8") : new Uint8Array(bytes) };
      }),
    };
  }

  // #workerOptions builds a user worker's options from its version, without its code (see #withCode); acct is its
  // account's registry (for the resources it binds).
  #workerOptions(userName, version, canonical, deployed, names, acct) {
    const md = version.metadata;
    const name = names.script(userName);
    const w = {
      name,
      compatibilityDate: clampDate(md.compatibility_date ?? "2021-11-02"),
      compatibilityFlags: md.compatibility_flags ?? [],
      bindings: {},
      kvNamespaces: {},
      d1Databases: {},
      r2Buckets: {},
      serviceBindings: {},
      workflows: {},
      durableObjects: {},
      wrappedBindings: {},
      outboundService: GUARD_WORKER,
    };
    // A binding to a resource deleted since the deploy fails every operation, as on Cloudflare (gone.worker.js).
    // Service-worker scripts cannot have wrapped bindings: there the binding is left out.
    const gone = (b, kind, id) => {
      if (version.format !== "service-worker") w.wrappedBindings[b.name] = { scriptName: GONE_WORKER, entrypoint: kind, bindings: { ID: id } };
      this.logger(`script ${name}: binding ${b.name} names ${kind} '${id}', which was deleted; its operations fail`);
    };
    const sqliteClasses = new Set(md.migrations?.new_sqlite_classes ?? []);
    for (const b of md.bindings ?? []) {
      switch (b.type) {
        case "plain_text":
        case "secret_text":
          w.bindings[b.name] = b.text;
          break;
        case "json":
          w.bindings[b.name] = b.json;
          break;
        case "kv_namespace":
          if (!acct.kv[b.namespace_id]) gone(b, "kv", b.namespace_id);
          else w.kvNamespaces[b.name] = b.namespace_id;
          break;
        case "d1":
          // The database runs in its own workerd; the binding reaches it through the D1 proxy (d1host.mjs).
          if (!acct.d1[b.id ?? b.database_id]) gone(b, "d1", b.id ?? b.database_id);
          else w.d1Databases[b.name] = { id: b.id ?? b.database_id, remoteProxyConnectionString: this.d1.bindingURL(b.id ?? b.database_id) };
          break;
        case "r2_bucket":
          if (!acct.r2[b.bucket_name]) gone(b, "r2", b.bucket_name);
          else w.r2Buckets[b.name] = names.bucket(b.bucket_name);
          break;
        case "service":
          if (b.service === userName || deployed.has(b.service)) {
            const svc = names.script(b.service);
            w.serviceBindings[b.name] = b.entrypoint ? { name: svc, entrypoint: b.entrypoint } : svc;
          } else {
            this.logger(`script ${name}: service binding ${b.name} waits for script ${b.service} to be deployed`);
          }
          break;
        case "workflow": {
          const def = canonical[b.workflow_name];
          if (def) {
            w.workflows[b.name] = { name: names.workflow(b.workflow_name), className: def.className, scriptName: names.script(def.scriptName) };
          } else {
            this.logger(`script ${name}: workflow binding ${b.name} waits for script ${b.script_name} to be deployed`);
          }
          break;
        }
        case "durable_object_namespace": {
          const owner = b.script_name ?? userName;
          if (owner === userName || deployed.has(owner)) {
            w.durableObjects[b.name] = {
              className: b.class_name,
              scriptName: owner === userName ? undefined : names.script(owner),
              useSQLite: sqliteClasses.has(b.class_name) || undefined,
            };
          }
          break;
        }
        default:
          break;
      }
    }
    return w;
  }
}

// canonicalWorkflows decides, for every workflow name, which class of which deployed script runs it: the
// registry's workflow (from PUT /workflows/{name}) first, then a binding in the owning script, then a binding
// naming another script.
export function canonicalWorkflows(state) {
  const deployed = (n) => state.scripts[n]?.current !== undefined && state.scripts[n]?.current !== null;
  const out = {};
  for (const [name, wf] of Object.entries(state.workflows)) {
    if (deployed(wf.script_name)) out[name] = { className: wf.class_name, scriptName: wf.script_name };
  }
  const bindings = [];
  for (const [sname, s] of Object.entries(state.scripts)) {
    if (!deployed(sname)) continue;
    const v = s.versions.find((x) => x.id === s.current);
    for (const b of v.metadata.bindings ?? []) if (b.type === "workflow") bindings.push([sname, b]);
  }
  for (const [sname, b] of bindings) {
    if (!out[b.workflow_name] && (!b.script_name || b.script_name === sname)) {
      out[b.workflow_name] = { className: b.class_name, scriptName: sname };
    }
  }
  for (const [, b] of bindings) {
    if (!out[b.workflow_name] && b.script_name && deployed(b.script_name)) {
      out[b.workflow_name] = { className: b.class_name, scriptName: b.script_name };
    }
  }
  return out;
}

function isSocketError(err) {
  return (err instanceof TypeError && err.message === "fetch failed") || err?.beforeAnswer === true;
}

function clampDate(d) {
  return typeof d === "string" && d > MAX_COMPAT_DATE ? MAX_COMPAT_DATE : d;
}

function cleanError(err) {
  return String(err?.message ?? err).split("\n")[0];
}

// byGroupId orders group ids by their number (g2 before g10).
function byGroupId(a, b) {
  return Number(a.slice(1)) - Number(b.slice(1));
}
