// D1 databases run outside the main workerd. workerd executes a Durable Object's SQL synchronously on its one thread,
// and miniflare's D1 is a Durable Object per database, so one slow query used to stop every worker, KV namespace,
// R2 bucket and other database of the edge until it ended. Here every D1 database gets a workerd of its own (a
// Miniflare instance holding only that database), started on first use and stopped when idle. The API's queries
// go to it directly; a worker's `env.DB` reaches it through miniflare's remote-binding client, whose requests come
// to this module's proxy server and are passed on. A query that runs past QUERY_LIMIT_MS is stopped by killing that
// database's workerd (SQLite rolls the unfinished transaction back when the file is opened again), answered with
// D1's error, and the next query starts a fresh workerd on the same file (docs/edge.md, decisions 130-132).

import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { Log, LogLevel, Miniflare } from "./miniflare.mjs";
import { CONTROL_MODULES } from "./control.mjs";
import { bindingBudget } from "./bodybudget.mjs";
import { EntrySocket, ReportWatch, awaitReport } from "./entry.mjs";
import { D1_ERROR } from "./errors.mjs";
import { GATE_HEADER, tcpListeners } from "./gate.mjs";
import { miniflareOptions } from "./mfconfig.mjs";

export const QUERY_LIMIT_MS =
  Number(process.env.EDGEFLOW_D1_QUERY_LIMIT_MS) > 0 ? Number(process.env.EDGEFLOW_D1_QUERY_LIMIT_MS) : 30000;
const IDLE_MS = 60000;
// IMPORT_LIMIT_MS bounds an import or export (D1's own limit on a single query does not apply to them).
export const IMPORT_LIMIT_MS =
  Number(process.env.EDGEFLOW_D1_IMPORT_LIMIT_MS) > 0 ? Number(process.env.EDGEFLOW_D1_IMPORT_LIMIT_MS) : 600000;
const HOST_WORKER = "__edgeflow_d1";
const BINDING = "D1_0";

export class D1Error extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// timeoutMessage is the error text of a stopped query; workers see it as `D1_ERROR: <text>`.
export function timeoutMessage(limitMs = QUERY_LIMIT_MS) {
  return (
    `D1 DB query exceeded the ${Math.round(limitMs / 1000)} s limit on SQL query duration and was stopped; ` +
    "the database was reset and its other statements of that request were rolled back"
  );
}

class QuietLog extends Log {
  constructor(logger, id) {
    super(LogLevel.WARN);
    this.logger = logger;
    this.id = id;
  }
  log(message) {
    this.logger(`d1 ${this.id}: miniflare: ${message}`);
  }
}

// Host is one database's workerd.
class Host {
  constructor(hosts, id) {
    this.hosts = hosts;
    this.id = id;
    this.mf = null;
    this.entry = null; // its workerd's entry socket (entry.mjs), while it runs
    this.starting = null;
    this.inflight = new Set();
    this.idleTimer = null;
    this.generation = 0;
    this.pid = null;
  }

  async ready() {
    while (this.hosts.paused) await this.hosts.paused;
    if (this.entry) return this.entry;
    if (!this.starting) {
      const gen = this.generation;
      this.starting = (async () => {
        const reports = new ReportWatch();
        const reported = reports.expect();
        const mf = new Miniflare(
          miniflareOptions({
            persistRoot: this.hosts.persistDir,
            log: new QuietLog(this.hosts.logger, this.id),
            onLine: (level, line) => {
              if (!reports.line(line) && line.trim() !== "") this.hosts.logger(`d1 ${this.id}: workerd: ${line}`);
            },
            workers: [
              {
                name: HOST_WORKER,
                modules: CONTROL_MODULES.map((m) => ({ ...m })),
                compatibilityDate: "2025-01-01",
                // the binding's query() (control.worker.js, d1Binding)
                compatibilityFlags: ["d1_binding_jsrpc"],
                d1Databases: { [BINDING]: this.id },
                bindings: { MAP: { kv: {}, d1: { [this.id]: BINDING }, r2: {}, wf: {} }, GATE: this.hosts.gateSecret },
              },
            ],
          }),
        );
        try {
          await mf.ready;
          const { pid, path: socketPath } = await awaitReport(reported);
          const tcp = tcpListeners(pid);
          if (tcp !== null && tcp.length > 0) {
            throw new Error(
              `workerd (pid ${pid}) listens on TCP port ${tcp.join(", ")}; the edge runs workerd with its Unix entry socket only`,
            );
          }
          if (gen !== this.generation) {
            throw new D1Error(503, D1_ERROR, `database ${this.id} was reset while it started; try again`);
          }
          this.mf = mf;
          this.entry = new EntrySocket(socketPath, pid);
          this.pid = pid;
          this.hosts.recordPids();
          this.hosts.onHostStarted?.();
          return this.entry;
        } catch (err) {
          await mf.dispose().catch(() => {});
          if (reports.last) fs.rmSync(reports.last.path, { force: true });
          throw err;
        } finally {
          this.starting = null;
        }
      })();
    }
    return this.starting;
  }

  // call sends one request to this database's worker and stops the database when it runs past the limit.
  async call(pathname, init, limitMs = this.hosts.limitMs) {
    clearTimeout(this.idleTimer);
    let socket;
    try {
      socket = await this.ready();
    } catch (err) {
      if (err instanceof D1Error) throw err;
      throw new D1Error(
        503,
        D1_ERROR,
        `D1 DB ${this.id} could not be started: ${String(err?.message ?? err).split("\n")[0]}`,
      );
    }
    if (this.pid && !alive(this.pid)) {
      // Its workerd died while idle (killed from outside): start a new one before sending anything.
      this.hosts.logger(`d1 ${this.id}: workerd pid ${this.pid} is gone; starting it again`);
      this.reset();
      return this.call(pathname, init, limitMs);
    }
    const ctl = new AbortController();
    const entry = { ctl, timedOut: false };
    this.inflight.add(entry);
    const timer = setTimeout(() => {
      entry.timedOut = true;
      this.hosts.logger(`d1 ${this.id}: a query ran past ${limitMs} ms; stopping the database's workerd`);
      this.reset();
    }, limitMs);
    try {
      return await socket.fetch(pathname, {
        ...init,
        signal: ctl.signal,
        headers: { ...(init.headers ?? {}), "MF-Route-Override": HOST_WORKER, [GATE_HEADER]: this.hosts.gateSecret },
      });
    } catch (err) {
      if (entry.timedOut) throw new D1Error(400, D1_ERROR, timeoutMessage(limitMs));
      if (ctl.signal.aborted)
        throw new D1Error(
          503,
          D1_ERROR,
          `the query was stopped: database ${this.id} was reset by another query that ran past the limit`,
        );
      // The database's workerd went away (it crashed or was killed): the next request starts a new one.
      this.hosts.logger(`d1 ${this.id}: request failed: ${err.message}`);
      if (this.entry === socket) this.reset();
      throw new D1Error(
        503,
        D1_ERROR,
        `D1 DB ${this.id} is unavailable: its process ended during the request; the next request starts it again`,
      );
    } finally {
      clearTimeout(timer);
      this.inflight.delete(entry);
      if (this.inflight.size === 0 && this.entry) {
        this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);
        this.idleTimer.unref();
      }
    }
  }

  // reset kills this database's workerd (SIGKILL: its thread may be inside SQLite) and fails the requests in flight.
  reset() {
    this.generation++;
    const mf = this.mf;
    this.mf = null;
    const entry = this.entry;
    this.entry = null;
    if (this.pid) {
      this.pid = null;
      this.hosts.recordPids();
    }
    for (const e of this.inflight) e.ctl.abort();
    entry?.close();
    if (mf) return mf.dispose().catch(() => {});
  }

  stop() {
    clearTimeout(this.idleTimer);
    if (this.inflight.size > 0) return;
    return this.reset();
  }
}

// D1Hosts owns every database's workerd and the proxy server through which workers' D1 bindings reach them.
export class D1Hosts {
  constructor({ persistDir, logger, gateSecret, pidFile, limitMs = QUERY_LIMIT_MS, budget = bindingBudget() }) {
    this.persistDir = persistDir;
    this.pidFile = pidFile;
    this.logger = logger;
    this.gateSecret = gateSecret;
    this.limitMs = limitMs;
    this.hosts = new Map();
    this.proxySecret = randomBytes(24).toString("hex");
    // the bytes of binding calls the proxy holds at once, shared by every kind of call (bodybudget.mjs)
    this.budget = budget;
    this.server = null;
    this.base = null;
  }

  host(id) {
    let h = this.hosts.get(id);
    if (!h) {
      h = new Host(this, id);
      this.hosts.set(id, h);
    }
    return h;
  }

  // start opens the proxy server on a loopback port.
  async start() {
    this.server = http.createServer((req, res) => this.#proxy(req, res));
    await new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", resolve);
    });
    this.base = `http://127.0.0.1:${this.server.address().port}`;
  }

  // bindingURL is the remote-binding address miniflare gives a worker's D1 bindings, databases mapping each
  // binding's name to its database id (or, for a shard's KV and R2 bindings, to {kv: namespace id} or {r2: bucket},
  // which storeBinding serves) (miniflare takes one address per worker; each request names its binding in
  // MF-Binding). It carries the proxy's secret; only miniflare's internal binding client holds it, never the
  // worker's code.
  bindingURL(databases) {
    const map = Buffer.from(JSON.stringify(databases)).toString("base64url");
    return new URL(`${this.base}/${this.proxySecret}/${map}`);
  }

  // query runs an API query ({db, sql, params, batch, raw, readOnly}) on the database's own workerd.
  async query(body) {
    const res = await this.host(body.db).call("/d1/query", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const out = await res.json();
    if (!out.ok) throw new D1Error(out.status ?? 500, out.code ?? D1_ERROR, out.message);
    return out.result;
  }

  // importSql runs an uploaded SQL file on database id in one transaction (control.worker.js, d1Import) and answers
  // {num_queries, meta}. An import may run up to IMPORT_LIMIT_MS; past that it is stopped and rolled back as a query.
  async importSql(id, sql) {
    return this.#control(id, "/d1/import", { db: id, sql }, IMPORT_LIMIT_MS);
  }

  // exportSql dumps database id as SQL statements ({noSchema, noData, tables}) and answers their lines.
  async exportSql(id, opts) {
    return (await this.#control(id, "/d1/export", { db: id, ...opts }, IMPORT_LIMIT_MS)).lines;
  }

  async #control(id, pathname, body, limitMs) {
    const res = await this.host(id).call(
      pathname,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      },
      limitMs,
    );
    const out = await res.json();
    if (!out.ok) throw new D1Error(out.status ?? 500, out.code ?? D1_ERROR, out.message);
    return out.result;
  }

  // recordPids writes the pids of the running databases' workerds to pidFile, so that the next edge can stop them
  // should this one die without taking them along (where the parent-death signal is not available, see entry.mjs).
  recordPids() {
    if (!this.pidFile) return;
    const pids = [...this.hosts.values()].map((h) => h.pid).filter((p) => p);
    try {
      fs.writeFileSync(this.pidFile, pids.map((p) => `${p}\n`).join(""));
    } catch (err) {
      this.logger(`cannot write ${this.pidFile}: ${err.message}`);
    }
  }

  // running counts the databases whose workerd runs now.
  running() {
    let n = 0;
    for (const h of this.hosts.values()) if (h.entry) n++;
    return n;
  }

  // inFlight counts the requests (API queries, imports, exports and workers' binding calls) that the databases'
  // workerds are answering now.
  inFlight() {
    let n = 0;
    for (const h of this.hosts.values()) n += h.inflight.size;
    return n;
  }

  // pause runs fn with every database's workerd stopped (after its requests in flight, a bounded wait) and none
  // starting: a request arriving meanwhile waits for fn to end.
  async pause(fn) {
    let release;
    this.paused = new Promise((r) => (release = r));
    try {
      for (const h of this.hosts.values()) {
        for (let i = 0; i < 100 && h.inflight.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
        await h.starting?.catch(() => {});
        clearTimeout(h.idleTimer);
        await h.reset();
      }
      await fn();
    } finally {
      this.paused = null;
      release();
    }
  }

  // forget stops a deleted database's workerd.
  async forget(id) {
    const h = this.hosts.get(id);
    this.hosts.delete(id);
    if (h) {
      clearTimeout(h.idleTimer);
      await h.reset();
    }
  }

  async close() {
    if (this.server) {
      this.server.closeAllConnections?.();
      this.server.close();
    }
    await Promise.all([...this.hosts.values()].map((h) => h.reset()));
    this.hosts.clear();
  }

  // #proxy passes a request of miniflare's remote-binding client (a worker's env.DB) on to the database's workerd.
  // The client sends the binding's name in MF-Binding, its request URL in MF-URL and its headers prefixed with
  // MF-Header-; the address names the worker's databases by binding (bindingURL).
  async #proxy(req, res) {
    const parts = (req.url ?? "").split("?")[0].split("/");
    const given = Buffer.from(parts[1] ?? "");
    const want = Buffer.from(this.proxySecret);
    if (parts.length !== 3 || given.length !== want.length || !timingSafeEqual(given, want)) {
      res.writeHead(404).end();
      return;
    }
    // The binding client also opens a WebSocket for RPC, which the D1 client never uses: refuse it rather than
    // queue it at the database.
    if (req.headers.upgrade !== undefined) {
      res.writeHead(404).end();
      return;
    }
    let id;
    try {
      const databases = JSON.parse(Buffer.from(parts[2], "base64url").toString("utf8"));
      id = databases[req.headers["mf-binding"]];
    } catch {
      id = undefined;
    }
    // a shard's KV or R2 binding ({kv: namespace id} or {r2: bucket}) is served by the group that holds the store,
    // a Workflow binding of a Workflow that may run in shards ({wf: name}) by the edge (runtime.mjs)
    const store =
      id !== null && typeof id === "object" && ["kv", "r2", "wf"].some((kind) => typeof id[kind] === "string");
    if (store && this.storeBinding) {
      await this.storeBinding(id, req, res);
      return;
    }
    if (typeof id !== "string") {
      res.writeHead(404).end();
      return;
    }
    const read = await this.budget.read(req, this.budget.limit);
    if (read.error) {
      const error =
        "D1 DB is overloaded: the edge is holding too many binding requests at once (EDGEFLOW_EDGE_BINDING_BUFFER); try again";
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success: false, error }));
      return;
    }
    const headers = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (k.startsWith("mf-header-")) headers[k.slice("mf-header-".length)] = v;
    }
    let target;
    try {
      target = new URL(req.headers["mf-url"] ?? "http://d1/query");
    } catch {
      target = new URL("http://d1/query");
    }
    headers["x-edgeflow-d1-path"] = target.pathname + target.search;
    try {
      const r = await this.host(id).call("/d1/binding", {
        method: req.method,
        headers,
        body: req.method === "GET" || req.method === "HEAD" ? undefined : read.body,
      });
      read.release();
      const out = Buffer.from(await r.arrayBuffer());
      const h = {};
      r.headers.forEach((v, k) => {
        if (k !== "content-length" && k !== "transfer-encoding" && k !== "content-encoding") h[k] = v;
      });
      res.writeHead(r.status, h).end(out);
    } catch (err) {
      // D1's own error answer: the binding turns it into `D1_ERROR: <error>`.
      read.release();
      const error = err instanceof D1Error ? err.message : `D1 DB is unavailable: ${err.message}`;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ success: false, error }));
    }
  }
}

// alive reports whether pid runs; a zombie (dead, not yet reaped by miniflare) does not.
function alive(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(")") + 2));
  } catch (err) {
    if (err.code !== "ENOENT" || fs.existsSync("/proc/self")) return false;
  }
  try {
    process.kill(pid, 0); // no /proc
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}
