// The runtime: one Miniflare (one workerd process) hosting every deployed script of every account plus the edge's
// control worker. Every change of configuration goes through apply(), which serializes the changes, holds new
// requests while workerd restarts, rolls the registry and workerd back when the new configuration does not start,
// and afterwards revives the workflow instances that the restart stranded.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Log, LogLevel, Miniflare } from "miniflare";
import { Naming, accountStates } from "./accounts.mjs";
import { D1Hosts } from "./d1host.mjs";
import { D1Transfers } from "./d1transfer.mjs";
import { GATE_HEADER, REFUSER_SOURCE, REFUSER_WORKER, childWorkerds, listenerOf, newGateSecret } from "./gate.mjs";
import { GUARD_WORKER, GUARD_WORKER_SOURCE, OutboundGuard } from "./outbound.mjs";

export const CONTROL_WORKER = "__edgeflow_control";
const CONTROL_SOURCE = fs.readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), "control.worker.js"),
  "utf8",
);
// workerd refuses compatibility dates newer than its own release.
const MAX_COMPAT_DATE = "2026-04-26";
const DRAIN_MS = 2000;

export class EdgeError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

class QuietLog extends Log {
  constructor(logger) {
    super(LogLevel.WARN);
    this.logger = logger;
  }
  log(message) {
    this.logger(`miniflare: ${message}`);
  }
}

export class Runtime {
  constructor({ registry, persistDir, pidFile, d1PidFile, logger, outbound }) {
    this.pidFile = pidFile;
    this.outbound = outbound ?? new OutboundGuard({ logger });
    this.gateSecret = newGateSecret();
    this.registry = registry;
    this.persistDir = persistDir;
    this.logger = logger;
    this.mf = null;
    this.url = null;
    this.chain = Promise.resolve();
    this.restarting = null; // a promise while workerd restarts
    this.inflight = 0;
    this.drainWaiters = [];
    this.stderrTail = [];
    this.sweeping = null;
    this.sweepAgain = false;
    this.boundWorkflows = [];
    this.closed = false;
    // D1 databases run in workerds of their own (d1host.mjs), so that a slow query stops only its database.
    this.d1 = new D1Hosts({ persistDir, logger, gateSecret: this.gateSecret, pidFile: d1PidFile });
    // D1 imports' and exports' files and jobs (d1transfer.mjs), beside the persist dir.
    this.d1transfers = new D1Transfers({ dir: path.join(path.dirname(persistDir), "d1-transfers"), logger });
  }

  // #recordPid notes workerd's pid so that a later edge on this data dir can stop a workerd orphaned by a kill -9
  // of this process (it would keep the data files locked and go on running instances).
  #recordPid() {
    const pid = this.workerdPid();
    if (pid && this.pidFile) fs.writeFileSync(this.pidFile, `${pid}\n`);
  }

  // tieWorkerdToUs makes miniflare start workerd through a small wrapper (DIR/workerd.sh) that gives it a
  // parent-death signal: when this Node process dies, even by SIGKILL, the kernel kills workerd too. It uses
  // setpriv(1) from util-linux; where that is missing (not Linux), workerd starts as before and a later edge stops
  // the orphan through workerd.pid.
  static tieWorkerdToUs(dataDir, logger) {
    if (process.env.MINIFLARE_WORKERD_PATH || process.platform !== "linux") return;
    let setpriv;
    try {
      setpriv = execFileSync("sh", ["-c", "command -v setpriv"], { encoding: "utf8" }).trim();
      execFileSync(setpriv, ["--pdeathsig", "KILL", "--", "true"]);
    } catch {
      logger("setpriv is not available: workerd would outlive a killed edge until the next edge starts");
      return;
    }
    const require = createRequire(createRequire(import.meta.url).resolve("miniflare"));
    const workerd = require("workerd").default;
    const wrapper = path.join(dataDir, "workerd.sh");
    const q = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
    const text = `#!/bin/sh\n# written by the edge: run workerd so that it dies with the edge (see runtime.mjs)\nexec ${q(setpriv)} --pdeathsig KILL -- ${q(workerd)} "$@"\n`;
    const tmp = `${wrapper}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, text, { mode: 0o755 });
    fs.renameSync(tmp, wrapper);
    process.env.MINIFLARE_WORKERD_PATH = wrapper;
  }

  // stopOrphan kills the workerds a previous edge on this data dir left running: the pids in pidFile, one a line
  // (workerd.pid holds the main workerd's, d1-workerd.pid the D1 databases' own, see d1host.mjs).
  static async stopOrphan(pidFile, logger) {
    let pids;
    try {
      pids = fs.readFileSync(pidFile, "utf8").split("\n").map((l) => Number(l.trim()));
    } catch {
      return;
    }
    const isWorkerd = (pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd");
      } catch {
        return false;
      }
    };
    for (const pid of pids) {
      if (!Number.isInteger(pid) || pid <= 0 || !isWorkerd(pid)) continue;
      logger(`stopping workerd pid ${pid} left running by a previous edge`);
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        continue;
      }
      for (let i = 0; i < 100 && isWorkerd(pid); i++) await new Promise((r) => setTimeout(r, 50));
    }
  }

  async start() {
    await this.d1.start();
    const opts = this.#options(this.registry.state);
    this.mf = new Miniflare(opts);
    try {
      this.url = await this.mf.ready;
    } catch (err) {
      throw new Error(`workerd failed to start: ${err.message}${this.#stderrSummary()}`);
    }
    this.#recordPid();
    this.sweep();
  }

  async close() {
    this.closed = true;
    if (this.mf) await this.mf.dispose().catch(() => {});
    await this.d1.close();
    this.d1transfers.close();
    await this.outbound.close();
  }

  // workerdPid is the pid of the main workerd (the D1 hosts' workerds are children of this process too): the one
  // of our workerd children that listens on the entry socket.
  workerdPid() {
    const kids = childWorkerds();
    if (kids.length <= 1 || !this.url) return kids[0] ?? null;
    return listenerOf(Number(this.url.port), kids);
  }

  // enter waits until workerd is up and counts a request in flight; leave must follow.
  async enter() {
    while (this.restarting) await this.restarting;
    this.inflight++;
  }

  leave() {
    this.inflight--;
    if (this.inflight === 0) for (const w of this.drainWaiters.splice(0)) w();
  }

  // apply runs change(state) on the registry and restarts workerd with the new configuration. A change that throws
  // leaves everything as it was; a configuration that workerd refuses is rolled back and reported as 10021.
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
      let release;
      this.restarting = new Promise((r) => (release = r));
      try {
        await this.#drain();
        this.stderrTail = [];
        try {
          await this.mf.setOptions(this.#options(this.registry.state));
          this.url = await this.mf.ready;
          this.#recordPid();
        } catch (err) {
          const detail = this.#stderrSummary();
          this.registry.restore(before);
          try {
            await this.mf.setOptions(this.#options(before));
            this.url = await this.mf.ready;
            this.#recordPid();
          } catch (err2) {
            this.logger(`rollback failed: ${err2.message}`);
          }
          throw new EdgeError(400, 10021, `the new configuration failed to start on workerd: ${cleanError(err)}${detail}`);
        }
        this.registry.save();
      } finally {
        this.restarting = null;
        release();
        this.lastRestartMs = Date.now() - started;
      }
      this.sweep();
      return result;
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => {});
    return p;
  }

  // #drain waits (a bounded time) for requests in flight to workers to finish before workerd restarts.
  async #drain() {
    if (this.inflight === 0) return;
    await Promise.race([
      new Promise((r) => this.drainWaiters.push(r)),
      new Promise((r) => setTimeout(r, DRAIN_MS).unref()),
    ]);
  }

  #stderrSummary() {
    const lines = this.stderrTail
      .map((l) => l.trim())
      .filter((l) => l !== "" && !/^\s*at /.test(l))
      .slice(-8);
    return lines.length ? `: ${lines.join(" | ")}` : "";
  }

  #captureStdio(stdout, stderr) {
    const take = (stream, isErr) => {
      let buf = "";
      stream.on("data", (chunk) => {
        buf += chunk.toString();
        let i;
        while ((i = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          if (isErr) {
            this.stderrTail.push(line);
            if (this.stderrTail.length > 50) this.stderrTail.shift();
          }
          if (line.trim() !== "") this.logger(`workerd: ${line}`);
        }
      });
    };
    take(stdout, false);
    take(stderr, true);
  }

  // control calls the control worker inside workerd. A request that dies on the socket before any response (a
  // keep-alive connection workerd closed at that moment, or a restart) is sent once more; the result says so in
  // `retried` for callers that must tell their own earlier attempt from someone else's.
  async control(pathname, body, init = {}) {
    for (let attempt = 0; ; attempt++) {
      await this.enter();
      try {
        const res = await fetch(new URL(pathname, this.url), {
          method: init.method ?? "POST",
          headers: {
            "MF-Route-Override": CONTROL_WORKER,
            "accept-encoding": "identity",
            ...(init.headers ?? {}),
            [GATE_HEADER]: this.gateSecret,
          },
          body: init.raw !== undefined ? init.raw : body === undefined ? undefined : JSON.stringify(body),
        });
        if (init.response) return res;
        const out = await res.json();
        if (!out.ok) throw new EdgeError(out.status ?? 500, out.code ?? 10001, out.message);
        if (attempt > 0 && out.result && typeof out.result === "object") Object.defineProperty(out.result, "retried", { value: true });
        return out.result;
      } catch (err) {
        if (attempt === 0 && isSocketError(err)) continue;
        throw err;
      } finally {
        this.leave();
      }
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

  // explorer calls miniflare's local explorer API (workflow instance listing and details).
  async explorer(pathname, init = {}) {
    for (let attempt = 0; ; attempt++) {
      await this.enter();
      try {
        const res = await fetch(new URL(`/cdn-cgi/explorer/api${pathname}`, this.url), init);
        const out = await res.json();
        return { status: res.status, body: out };
      } catch (err) {
        if (attempt === 0 && isSocketError(err)) continue;
        throw err;
      } finally {
        this.leave();
      }
    }
  }

  // sweep revives every unfinished instance of every workflow workerd runs. It runs after each start and restart;
  // a sweep requested while one runs starts again when that one ends.
  sweep() {
    if (this.sweeping) {
      this.sweepAgain = true;
      return this.sweeping;
    }
    this.sweeping = (async () => {
      do {
        this.sweepAgain = false;
        try {
          const n = await this.#sweepOnce();
          if (n > 0) this.logger(`revived ${n} in-flight workflow instance(s)`);
        } catch (err) {
          if (!this.closed) this.logger(`revive sweep failed: ${err.message}`);
        }
      } while (this.sweepAgain && !this.closed);
      this.sweeping = null;
    })();
    return this.sweeping;
  }

  async #sweepOnce() {
    let total = 0;
    for (const wf of this.boundWorkflows) {
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

  // #options builds miniflare's options from the registry.
  #options(state) {
    const workers = [];
    const map = { kv: {}, d1: {}, r2: {}, wf: {} };
    // The first worker is the entry socket's default route: it refuses everything (see gate.mjs).
    workers.push({
      name: REFUSER_WORKER,
      modules: [{ type: "ESModule", path: "refuser.worker.js", contents: REFUSER_SOURCE }],
      compatibilityDate: "2025-01-01",
    });
    // Every user worker's outbound fetch goes through the outbound guard (see outbound.mjs).
    workers.push({
      name: GUARD_WORKER,
      modules: [{ type: "ESModule", path: "outbound.worker.js", contents: GUARD_WORKER_SOURCE }],
      compatibilityDate: "2025-01-01",
      serviceBindings: { CHECKED: this.outbound.fetch },
    });
    const control = {
      name: CONTROL_WORKER,
      modules: [{ type: "ESModule", path: "control.worker.js", contents: CONTROL_SOURCE }],
      compatibilityDate: "2025-01-01",
      kvNamespaces: {},
      d1Databases: {},
      r2Buckets: {},
      workflows: {},
    };
    const bound = [];
    const users = [];
    // Every account's names are mapped onto workerd's (accounts.mjs): a binding resolves within its account.
    for (const [id, acct, legacy] of accountStates(state)) {
      const names = new Naming(id, legacy);
      const canonical = canonicalWorkflows(acct);
      const deployed = new Set(Object.keys(acct.scripts).filter((n) => acct.scripts[n].current));
      for (const nsId of Object.keys(acct.kv)) {
        const b = `KV_${Object.keys(map.kv).length}`;
        control.kvNamespaces[b] = nsId;
        map.kv[nsId] = b;
      }
      for (const bucket of Object.keys(acct.r2)) {
        const b = `R2_${Object.keys(map.r2).length}`;
        control.r2Buckets[b] = names.bucket(bucket);
        map.r2[names.bucket(bucket)] = b;
      }
      for (const [name, def] of Object.entries(canonical)) {
        const b = `WF_${Object.keys(map.wf).length}`;
        const rt = names.workflow(name);
        control.workflows[b] = { name: rt, className: def.className, scriptName: names.script(def.scriptName) };
        map.wf[rt] = b;
        bound.push(rt);
      }
      for (const name of [...deployed].sort()) {
        const script = acct.scripts[name];
        const version = script.versions.find((v) => v.id === script.current);
        users.push(this.#workerOptions(name, version, canonical, deployed, names));
      }
    }
    control.bindings = { MAP: map, GATE: this.gateSecret };
    workers.push(control, ...users);
    this.boundWorkflows = bound;
    return {
      host: "127.0.0.1",
      port: 0,
      defaultPersistRoot: this.persistDir,
      cf: false,
      unsafeLocalExplorer: true,
      log: new QuietLog(this.logger),
      handleRuntimeStdio: (out, err) => this.#captureStdio(out, err),
      workers,
    };
  }

  #workerOptions(userName, version, canonical, deployed, names) {
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
      outboundService: GUARD_WORKER,
    };
    if (version.format === "service-worker") {
      const m = version.modules[0];
      w.script = this.registry.getBlob(m.blob).toString("utf8");
      w.scriptPath = `/${name}/${m.name}`;
    } else {
      w.modulesRoot = `/${name}`;
      w.modules = version.modules.map((m) => {
        const bytes = this.registry.getBlob(m.blob);
        const text = m.type === "ESModule" || m.type === "CommonJS" || m.type === "Text";
        return { type: m.type, path: `/${name}/${m.name}`, contents: text ? bytes.toString("utf8") : new Uint8Array(bytes) };
      });
    }
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
          w.kvNamespaces[b.name] = b.namespace_id;
          break;
        case "d1":
          // The database runs in its own workerd; the binding reaches it through the D1 proxy (d1host.mjs).
          w.d1Databases[b.name] = { id: b.id ?? b.database_id, remoteProxyConnectionString: this.d1.bindingURL(b.id ?? b.database_id) };
          break;
        case "r2_bucket":
          w.r2Buckets[b.name] = names.bucket(b.bucket_name);
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
  return err instanceof TypeError && err.message === "fetch failed";
}

function clampDate(d) {
  return typeof d === "string" && d > MAX_COMPAT_DATE ? MAX_COMPAT_DATE : d;
}

function cleanError(err) {
  return String(err?.message ?? err).split("\n")[0];
}
