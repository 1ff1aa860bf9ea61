// The running groups: each group is one Miniflare instance (one workerd process) that runs the workers, KV
// namespaces, R2 buckets and Workflows a plan (plan.mjs) gives it, beside the edge's own workers (the entry socket's
// refusing default, the control worker, and where user workers run the one that carries their outbound guard and
// log tail). Groups starts, restarts and stops them to bring them to a plan, holds requests to a group while it
// restarts, lets a group's requests in flight finish (for a bounded time) before its workerd stops, and records
// every workerd's pid for the next edge should this one be killed. runtime.mjs decides when (apply) and calls into
// the running groups.

import fs from "node:fs";
import { Log, LogLevel, Miniflare } from "./miniflare.mjs";
import { CONTROL_MODULES } from "./control.mjs";
import { EntrySocket, ReportWatch, awaitReport } from "./entry.mjs";
import { EdgeError, INTERNAL_ERROR } from "./errors.mjs";
import { REFUSER_SOURCE, REFUSER_WORKER, tcpListeners } from "./gate.mjs";
import { instrument, logTail } from "./logs.mjs";
import { groupPersistRoot, miniflareOptions } from "./mfconfig.mjs";
import { GUARD_WORKER_SOURCE, USER_IO_WORKER } from "./outbound.mjs";
import { Health, classify, thrownByJavaScript } from "./health.mjs";
import { HOME_GROUP } from "./plan.mjs";

export const CONTROL_WORKER = "__edgeflow_control";
const DRAIN_MS = 2000;
// A group's log deliveries count as flushed once none is under way and none came for LOG_QUIET_MS (at most
// LOG_FLUSH_MS): the tail worker sends a run's lines as they are written, so those of requests and steps that ended
// before a restart reach the edge before their workerd stops (decision 478).
const LOG_QUIET_MS = 150;
const LOG_FLUSH_MS = 3000;
// A change that restarts a group first lets the group's Workflow instances that run a step reach its end, for at
// most SETTLE_MS (EDGEFLOW_EDGE_SETTLE_MS; 0 turns it off), looking every SETTLE_POLL_MS (decision 799).
const SETTLE_MS = settleMs(process.env.EDGEFLOW_EDGE_SETTLE_MS);
const SETTLE_POLL_MS = 100;
// TOO_MANY_TO_SETTLE is what stepping(g) answers for a group with too many unfinished instances to wait for.
export const TOO_MANY_TO_SETTLE = -1;

function settleMs(v) {
  if (v === undefined || v === "") return 3000;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 60000)
    throw new Error(
      `EDGEFLOW_EDGE_SETTLE_MS must be an integer from 0 to 60000 (milliseconds), not ${JSON.stringify(v)}`,
    );
  return n;
}

class QuietLog extends Log {
  // onError(message) is told of miniflare's errors (health.mjs)
  constructor(logger, onError) {
    super(LogLevel.WARN);
    this.logger = logger;
    this.onError = onError;
  }
  logWithLevel(level, message) {
    if (level === LogLevel.ERROR) this.onError?.(String(message));
    super.logWithLevel(level, message);
  }
  log(message) {
    this.logger(`miniflare: ${message}`);
  }
}

// USER_IO_SOURCE is the main module of a group's USER_IO_WORKER: the guard's fetch and the log tail's tailStream.
// (Its lines are joined so that none starts with an import: the edge's import test reads edge/src's own.)
const USER_IO_SOURCE = [
  'import guard from "./outbound.worker.js";',
  'import tail from "./logs.worker.js";',
  "export default { fetch: guard.fetch, tailStream: tail.tailStream };",
].join("\n");

// Group is one Miniflare instance and what it runs.
export class Group {
  constructor(id) {
    this.id = id;
    this.mf = null;
    this.entry = null; // its workerd's entry socket (entry.mjs), once started
    this.reports = new ReportWatch(); // the wrapper's report of each start of its workerd
    this.pid = null;
    this.restarting = null; // a promise while its workerd (re)starts
    this.inflight = 0;
    this.drainWaiters = [];
    this.settled = null; // what the last settle before a restart saw: {ms, stepping} (Groups.#settle)
    this.stderrTail = [];
    this.fingerprint = null;
    this.workers = []; // runtime names of its user workers
    this.workflows = []; // runtime names of the Workflows it runs
    this.sweeping = null; // the revive sweep under way (runtime.mjs)
    this.spec = null; // the plan's spec it runs (plan.mjs), for a cycle of its workerd
    this.tail = { inflight: 0, last: 0 }; // its log tail worker's deliveries under way, and when the last came (logs.mjs)
    this.sweepAgain = false;
    this.shard = 0; // its shard number: 0 for a group itself, k for its shard k (plan.mjs)
    this.leaving = false; // a shard about to stop: it takes no new create (runtime.mjs, #planKeeping)
  }
}

// Groups holds the running groups and the plan they run: placement (worker's workerd name -> group id) and owner
// (each KV namespace, R2 bucket and Workflow -> the group that opens it), as plan.mjs works them out.
export class Groups {
  constructor({ registry, persistDir, pidFile, logger, gateSecret, outbound, logs }) {
    this.registry = registry; // for the code blobs of the workers
    this.persistDir = persistDir;
    this.pidFile = pidFile;
    this.logger = logger;
    this.gateSecret = gateSecret;
    this.outbound = outbound;
    this.logs = logs;
    this.byId = new Map(); // group id -> Group
    this.placement = new Map(); // worker runtime name -> group id
    this.owner = { kv: new Map(), r2: new Map(), wf: new Map() }; // resource -> group id
    this.shards = new Map(); // a sharded Workflow's runtime name -> its shards' group ids, shard 0 first
    this.nextGroup = 1;
    this.health = new Health(logger); // errors of workerd and miniflare, and the groups they stop (health.mjs)
    // stepping(g) answers how many of group g's Workflow instances run a step now (Runtime; #settle)
    this.stepping = null;
  }

  // accountsOf lists the accounts whose workers group g runs (a worker's workerd name is "<account id>.<name>" for
  // every account but the legacy one, accounts.mjs).
  accountsOf(g) {
    const out = new Set();
    for (const w of g.workers) {
      const dot = w.indexOf(".");
      out.add(dot > 0 ? w.slice(0, dot) : this.registry.state.accountId);
    }
    return [...out];
  }

  // get is the group of id, or undefined.
  get(id) {
    return this.byId.get(id);
  }

  // list is every group.
  list() {
    return [...this.byId.values()];
  }

  // of is the group that runs the worker with runtime name `name` (the home group for one that does not run).
  of(name) {
    return this.byId.get(this.placement.get(name) ?? HOME_GROUP) ?? this.byId.get(HOME_GROUP);
  }

  // close stops every group's workerd.
  async close() {
    await Promise.all(this.list().map((g) => g.mf?.dispose().catch(() => {})));
    for (const g of this.byId.values()) g.entry?.close();
  }

  // #recordPids notes every group's workerd pid (the home group's first) so that a later edge on this data dir can
  // stop workerds orphaned by a kill -9 of this process (they would keep the data files locked and go on running
  // instances).
  #recordPids() {
    if (!this.pidFile) return;
    const pids = this.pids().map((g) => g.pid);
    try {
      fs.writeFileSync(this.pidFile, pids.map((p) => `${p}\n`).join(""));
    } catch (err) {
      this.logger(`cannot write ${this.pidFile}: ${err.message}`);
    }
  }

  // pids lists every group's workerd: [{group, pid, workers, workflows, last_settle}], the home group first (a group
  // with no Workflow runs no local explorer); last_settle is what the settle before its last restart for a change
  // saw ({ms, stepping}: how long it waited, and how many instances still ran a step when it stopped waiting), or
  // null.
  pids() {
    const out = [];
    for (const g of this.byId.values())
      if (g.pid)
        out.push({
          group: g.id,
          pid: g.pid,
          workers: g.workers.length,
          workflows: g.workflows.length,
          last_settle: g.settled,
        });
    return out.sort((a, b) => (a.group === HOME_GROUP ? -1 : b.group === HOME_GROUP ? 1 : 0));
  }

  // enter waits until the group pick() answers is up and counts a request in flight there; it answers the group,
  // which leave must be given back.
  async enter(pick, { draining = false } = {}) {
    for (;;) {
      const g = pick();
      if (!g) throw new EdgeError(503, INTERNAL_ERROR, "the edge's workerd is not running");
      // a call a worker's request makes through a binding the edge serves (a shard's KV or R2, a Workflow that may
      // shard) is part of that request: while the group's requests in flight are drained its workerd still runs,
      // and waiting for the restart would hold the request the drain waits for (decision 779)
      if (g.restarting && draining && g.entry) {
        g.inflight++;
        return g;
      }
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

  // leave counts a request of group g (from enter) as ended.
  leave(g) {
    g.inflight--;
    if (g.inflight === 0) for (const w of g.drainWaiters.splice(0)) w();
  }

  // realize brings the groups to plan (plan.mjs): it starts new groups, restarts changed ones (those that give up a
  // worker or storage first, so that no two workerds open the same files), and stops groups left empty. Requests to
  // the groups it restarts wait from the moment the plan is taken. It answers the groups it started or restarted; a
  // group that does not start fails it, with workerd's last lines in the error's `detail`.
  async realize(plan) {
    // the running groups this plan restarts first let their steps under way end (#settle), all at once
    const settle = [];
    for (const [gid, spec] of plan.groups) {
      const g = this.byId.get(gid);
      if (g?.entry && g.fingerprint !== spec.fingerprint && g.workflows.length > 0) settle.push(g);
    }
    await Promise.all(settle.map((g) => this.#settle(g)));
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
    for (const [gid, g] of this.byId) if (!plan.groups.has(gid)) removed.push(g);
    for (const [gid, spec] of plan.groups) {
      let g = this.byId.get(gid);
      if (g && g.fingerprint === spec.fingerprint) continue;
      if (!g) {
        g = new Group(gid);
        g.shard = spec.shard ?? 0;
        this.byId.set(gid, g);
      }
      changed.push([g, spec]);
      hold(g);
    }
    for (const g of removed) hold(g);
    this.placement = plan.placement;
    this.owner = plan.owner;
    this.shards = plan.shards ?? new Map();
    this.nextGroup = plan.nextGroup;
    try {
      const gives = (g, spec) => {
        const has = new Set([
          ...spec.workers.map((e) => e.name),
          ...spec.kv.map((k) => `kv:${k}`),
          ...spec.r2.map((b) => `r2:${b}`),
          ...spec.wf.map((w) => `wf:${w.rt}`),
        ]);
        return g.mf !== null && [...(g.holds ?? [])].some((x) => !has.has(x));
      };
      for (const g of removed) {
        await this.#drain(g);
        await g.mf?.dispose().catch(() => {});
        g.entry?.close();
        this.byId.delete(g.id);
        this.health.failing.delete(g.id);
      }
      const first = changed.filter(([g, spec]) => gives(g, spec));
      const then = changed.filter(([g, spec]) => !gives(g, spec));
      for (const [g, spec] of first) await this.#restart(g, spec);
      // A group's shards past 0 start once the other groups of the change have started: workerd sets up each
      // Durable Object directory's metadata.sqlite when it starts, the KV, R2 and D1 plugins' directories are shared
      // by every group that runs them, and two workerds setting up a new one at the same moment made one fail with
      // SQLITE_BUSY (a fresh edge's first Workflow group and its shard 1, decision 805).
      for (const part of [then.filter(([g]) => g.shard === 0), then.filter(([g]) => g.shard > 0)]) {
        const results = await Promise.allSettled(part.map(([g, spec]) => this.#restart(g, spec)));
        const failed = results.find((r) => r.status === "rejected");
        if (failed) throw failed.reason;
      }
    } finally {
      for (const r of releases) r();
      this.#recordPids();
    }
    return changed.map(([g]) => g);
  }

  // cycle restarts group g's workerd on the spec it runs (bounds.mjs): requests to it wait meanwhile, its log
  // deliveries are flushed first; fresh (for a workerd that died) starts it on a new Miniflare. The caller serializes it with deploys (Runtime.cycle).
  async cycle(g, { fresh = false } = {}) {
    let release;
    g.restarting = new Promise((r) => (release = r));
    try {
      // a workerd that died: its Miniflare is replaced by a new one (setOptions on it started a workerd that
      // did not live)
      if (fresh && g.mf) {
        g.entry?.close();
        g.entry = null;
        await g.mf.dispose().catch(() => {});
        g.mf = null;
      }
      await this.#restart(g, g.spec);
    } finally {
      g.restarting = null;
      release();
      this.#recordPids();
    }
  }

  // stopAll stops every group's workerd after its requests in flight (a bounded wait); the next realize starts them.
  async stopAll() {
    for (const g of this.list()) {
      await this.#drain(g);
      g.entry?.close();
      g.entry = null;
      await g.mf?.dispose().catch(() => {});
      g.mf = null;
      g.pid = null;
      g.fingerprint = null;
    }
  }

  // #restart (re)starts group g with spec; a failure leaves the error's `detail` with workerd's last lines.
  async #restart(g, spec) {
    await this.#drain(g);
    if (g.mf) await this.#flushLogs(g);
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
        throw new Error(
          `workerd (pid ${pid}) listens on TCP port ${tcp.join(", ")}; the edge runs workerd with its Unix entry socket only`,
        );
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
    g.spec = spec;
    this.health.restarted(g.id);
    g.workers = spec.workers.map((e) => e.name);
    g.workflows = spec.wf.map((w) => w.rt);
    g.holds = new Set([
      ...g.workers,
      ...spec.kv.map((k) => `kv:${k}`),
      ...spec.r2.map((b) => `r2:${b}`),
      ...spec.wf.map((w) => `wf:${w.rt}`),
    ]);
  }

  // drained waits (a bounded time, as before a restart) for the requests in flight in group g to finish.
  drained(g) {
    return this.#drain(g);
  }

  // #drain waits (a bounded time) for requests in flight in group g to finish before its workerd restarts.
  async #drain(g) {
    if (g.inflight === 0) return;
    await Promise.race([
      new Promise((r) => g.drainWaiters.push(r)),
      new Promise((r) => setTimeout(r, DRAIN_MS).unref()),
    ]);
  }

  // #settle waits, at most SETTLE_MS, until none of group g's Workflow instances runs a step, as this.stepping(g)
  // counts them (runtime.mjs). A restart stops the steps under way, and each then runs again from its start (at least
  // once, as on Cloudflare after an infrastructure failure): a step that sends a payment or an email would send it
  // twice, and since groups hold the scripts of several accounts, another account's deploy would cause it. It runs
  // before the change holds the group's requests, so that its own calls to the group (the index's statuses, the
  // details of running instances) are answered; a create that comes meanwhile starts an instance that the next look
  // sees. Only a create the hold finds in flight may still start a step the restart stops. A restart for a workerd's
  // bounds or after it died (cycle) does not wait.
  async #settle(g) {
    if (SETTLE_MS === 0 || this.stepping === null) return;
    const start = Date.now();
    let n = 0;
    for (;;) {
      // a look that fails or outlasts the bound ends the wait
      let timer;
      const late = new Promise((r) => (timer = setTimeout(() => r(null), Math.max(0, start + SETTLE_MS - Date.now()))));
      const got = await Promise.race([this.stepping(g).catch(() => 0), late]);
      clearTimeout(timer);
      if (got === TOO_MANY_TO_SETTLE) {
        this.logger(`workerd ${g.id}: restarting without waiting for steps under way (too many unfinished instances)`);
        n = 0;
        break;
      }
      if (got !== null) n = got;
      if (n === 0 || Date.now() - start >= SETTLE_MS) break;
      await new Promise((r) => setTimeout(r, SETTLE_POLL_MS));
    }
    g.settled = { ms: Date.now() - start, stepping: n };
    if (n > 0) this.logger(`workerd ${g.id}: restarting with ${n} instance(s) still in a step after ${SETTLE_MS} ms`);
  }

  // #flushLogs waits (at most LOG_FLUSH_MS) until group g's log tail worker has no delivery under way and sent none
  // for LOG_QUIET_MS, so that the lines its workers wrote reach the edge before its workerd stops.
  async #flushLogs(g) {
    const deadline = Date.now() + LOG_FLUSH_MS;
    while (Date.now() < deadline && (g.tail.inflight > 0 || Date.now() - g.tail.last < LOG_QUIET_MS)) {
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  #stderrSummary(g) {
    const lines = g.stderrTail
      .map((l) => l.trim())
      .filter((l) => l !== "" && !/^\s*at /.test(l))
      .slice(-8);
    return lines.length ? `: ${lines.join(" | ")}` : "";
  }

  // #workerdLine takes one line workerd (or the wrapper before it) wrote: the wrapper's report of the entry socket, an
  // error of the runtime (health.mjs), or a line for the edge's log (warnings and errors are kept for a failed start's
  // message).
  #workerdLine(g, level, line) {
    if (g.reports.line(line)) return;
    const kind = classify(level, line);
    if (level === "error" || level === "warn" || kind !== null) {
      g.stderrTail.push(line);
      if (g.stderrTail.length > 50) g.stderrTail.shift();
    }
    if (kind !== null) {
      // an error of the runtime: an edge-error line, counted, and the group's health (health.mjs)
      this.health.error(g.id, kind, line, this.accountsOf(g));
      return;
    }
    // a worker's uncaught exception reaches its account through the log store (the log tail worker), not the
    // edge's log (decision 804)
    if (thrownByJavaScript(line)) return;
    if (line.trim() !== "") this.logger(g.id === HOME_GROUP ? `workerd: ${line}` : `workerd ${g.id}: ${line}`);
  }

  // #instanceOptions builds one group's Miniflare options: every group's instance is configured here.
  #instanceOptions(g, spec) {
    const map = { kv: {}, d1: {}, r2: {}, wf: {} };
    const control = {
      name: CONTROL_WORKER,
      modules: CONTROL_MODULES.map((m) => ({ ...m })),
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
      control,
    ];
    // Every user worker's outbound fetch goes through the outbound guard (outbound.mjs), and its console output and
    // exceptions reach the edge's one log store through the log tail (logs.mjs; instrument() also tags each Workflow
    // class's runs with their instance id): both are handlers of the group's one USER_IO_WORKER, which a group
    // without user workers does without.
    const users = spec.workers.map((e) => instrument(this.#withCode(e.w, e.version), e.classes));
    if (users.length > 0) {
      const tail = logTail(this.logs, g.tail);
      workers.push(
        {
          name: USER_IO_WORKER,
          modules: [
            { type: "ESModule", path: "io.worker.js", contents: USER_IO_SOURCE },
            { type: "ESModule", path: "outbound.worker.js", contents: GUARD_WORKER_SOURCE },
            tail.module,
          ],
          compatibilityDate: "2025-01-01",
          serviceBindings: { CHECKED: this.outbound.fetch, ...tail.serviceBindings },
        },
        ...users,
      );
    }
    return miniflareOptions({
      workers,
      // The Cache API's storage is one file per cache name: each group keeps its own, so no two workerds open it.
      persistRoot: groupPersistRoot(this.persistDir, g.id, g.shard),
      log: new QuietLog(this.logger, (message) => this.health.error(g.id, "miniflare", message, this.accountsOf(g))),
      onLine: (level, line) => this.#workerdLine(g, level, line),
      // miniflare's local explorer serves the edge's reads of Workflow instances (runtime.explorer); it is the largest
      // worker of a group and brings the KV, R2 and D1 plugins' workers with it, about half of a workerd's start
      // (decision 805): a group that runs no Workflow starts without it
      explorer: spec.wf.length > 0,
      // the trigger route (/cdn-cgi/local/scheduled) runs script cron triggers; only the edge reaches the entry
      // socket, and the gateway's worker requests carry a Host the route refuses
      triggers: true,
    });
  }

  // #withCode adds a version's code to worker options w (kept out of the plan, which reads no blobs).
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
        return {
          type: m.type,
          path: `/${name}/${m.name}`,
          contents: text ? bytes.toString("utf8") : new Uint8Array(bytes),
        };
      }),
    };
  }
}
