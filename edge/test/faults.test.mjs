// Faults the edge must survive: a D1 query that runs for a minute (the rest of the edge keeps answering, the query is
// stopped at 30 s and its database is usable at once), kill -9 during a deploy, and stale lock files.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { SERVER, deployDemo, startEdge, tempDir, upload, waitFor, waitStatus } from "./helpers.mjs";

// gone reports whether pid no longer runs (a zombie waiting for its reaper counts as gone).
function gone(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return /^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    return true;
  }
}

const started = [];
after(async () => {
  for (const e of started) await e.stop("SIGKILL");
});

// A query that would run for well over a minute on this kind of machine (hundreds of millions of rows counted).
const SLOW_SQL =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000000) SELECT count(*) AS n FROM c";

// D1_WORKER runs SQL given in the query string on one of its D1 bindings and reads a KV key.
const D1_WORKER = `
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/kv") return new Response(await env.KV.get("k"));
    const db = env[url.searchParams.get("db")];
    try {
      const r = await db.prepare(url.searchParams.get("sql")).all();
      return Response.json({ ok: true, results: r.results });
    } catch (err) {
      return Response.json({ ok: false, error: String(err.message ?? err) });
    }
  },
};
`;

describe("a slow D1 query", () => {
  test("runs beside fast KV, R2, worker and D1 requests, is stopped at 30 s, and its database answers at once", async () => {
    const edge = await startEdge();
    started.push(edge);
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "faults-kv" })).body.result.id;
    assert.equal((await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/k`, "kv-value")).status, 200);
    assert.equal((await edge.call("POST", "/r2/buckets", { name: "faults-bucket" })).status, 200);
    assert.equal((await edge.call("PUT", "/r2/buckets/faults-bucket/objects/o", "r2-value")).status, 200);
    const db = {};
    for (const name of ["slow-api", "slow-binding", "fast"]) {
      db[name] = (await edge.call("POST", "/d1/database", { name })).body.result.uuid;
      const r = await edge.call("POST", `/d1/database/${db[name]}/query`, {
        sql: "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1)",
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    const up = await upload(edge, "d1w", {
      source: D1_WORKER,
      bindings: [
        { type: "d1", name: "SLOW", id: db["slow-binding"] },
        { type: "d1", name: "FAST", id: db.fast },
        { type: "kv_namespace", name: "KV", namespace_id: ns },
      ],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal((await edge.call("POST", "/workers/scripts/d1w/subdomain", { enabled: true })).status, 200);
    const worker = async (q) => (await fetch(`${edge.ready.workers}/d1w/q?${new URLSearchParams(q)}`)).json();
    const stats = () => edge.stats();
    assert.deepEqual(await worker({ db: "FAST", sql: "SELECT x FROM t" }), { ok: true, results: [{ x: 1 }] });

    // Through the API: a batch that writes and then runs for a minute. Through a worker's binding: the same query.
    let apiDone = false;
    let bindingDone = false;
    const slowAPI = edge
      .call("POST", `/d1/database/${db["slow-api"]}/query`, {
        batch: [{ sql: "INSERT INTO t VALUES (2)" }, { sql: SLOW_SQL }],
      })
      .finally(() => (apiDone = true));
    const slowBinding = worker({ db: "SLOW", sql: SLOW_SQL }).finally(() => (bindingDone = true));
    // both are running now: the two databases' workerds are answering them
    await waitFor(async () => (await stats()).d1_requests_in_flight >= 2, {
      what: "both slow queries to reach their databases",
    });

    const stillSlow = (what) => assert.ok(!apiDone && !bindingDone, `${what} answered only after a slow query ended`);
    let r = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/k`);
    assert.equal(r.body.text, "kv-value");
    stillSlow("a KV read");
    r = await edge.call("GET", "/r2/buckets/faults-bucket/objects/o");
    assert.equal(r.body.text, "r2-value");
    stillSlow("an R2 read");
    r = await edge.call("POST", `/d1/database/${db.fast}/query`, { sql: "SELECT x FROM t" });
    assert.deepEqual(r.body.result[0].results, [{ x: 1 }]);
    stillSlow("a query on another database");
    assert.deepEqual(await worker({ db: "FAST", sql: "SELECT x + 1 AS y FROM t" }), { ok: true, results: [{ y: 2 }] });
    stillSlow("a worker's query on another database");
    assert.equal(await (await fetch(`${edge.ready.workers}/d1w/kv`)).text(), "kv-value");
    stillSlow("a worker's KV read");

    // At 30 s both are stopped with D1's error; the API's batch was rolled back.
    r = await slowAPI;
    assert.equal(r.status, 400, JSON.stringify(r.body));
    assert.equal(r.body.success, false);
    assert.equal(r.body.errors[0].code, 7500);
    assert.match(r.body.errors[0].message, /exceeded the 30 s limit/);
    const b = await slowBinding;
    assert.equal(b.ok, false);
    assert.match(b.error, /^D1_ERROR: .*exceeded the 30 s limit/);

    r = await edge.call("POST", `/d1/database/${db["slow-api"]}/query`, { sql: "SELECT x FROM t ORDER BY x" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.result[0].results, [{ x: 1 }], "the stopped batch's insert was rolled back");
    assert.deepEqual(await worker({ db: "SLOW", sql: "SELECT x FROM t" }), { ok: true, results: [{ x: 1 }] });
    r = await edge.call("POST", `/d1/database/${db["slow-binding"]}/query`, {
      sql: "INSERT INTO t VALUES (3); SELECT count(*) AS n FROM t",
    });
    assert.deepEqual(r.body.result[1].results, [{ n: 2 }]);

    // The three databases run in workerds of their own, counted apart from the main one.
    const idle = await stats();
    assert.equal(idle.d1_workerds, 3, JSON.stringify(idle));
    assert.ok(idle.d1_workerd_rss > 0, JSON.stringify(idle));
  });
});

describe("kill -9", () => {
  test("during a deploy: the edge comes back on the same data dir and the deploy can be retried", async () => {
    const dataDir = tempDir();
    const a = await startEdge({ dataDir });
    started.push(a);
    await deployDemo(a, "before");
    // A D1 database in use has a workerd of its own, which must die with the edge as the main one does.
    const db = (await a.call("POST", "/d1/database", { name: "dies-with-edge" })).body.result.uuid;
    assert.equal(
      (await a.call("POST", `/d1/database/${db}/query`, { sql: "CREATE TABLE t (x); INSERT INTO t VALUES (7)" }))
        .status,
      200,
    );
    const d1Pids = fs.readFileSync(path.join(dataDir, "d1-workerd.pid"), "utf8").trim().split("\n").map(Number);
    assert.equal(d1Pids.length, 1);
    if (process.platform === "linux") assert.match(fs.readFileSync(`/proc/${d1Pids[0]}/cmdline`, "utf8"), /workerd/);
    // The upload restarts workerd; kill the edge while that is under way: once a workerd that ran before the upload
    // has stopped (the restart began), or, should the upload have ended first, at once.
    const workerds = fs.readFileSync(path.join(dataDir, "workerd.pid"), "utf8").trim().split("\n").map(Number);
    let answered = false;
    const pending = upload(a, "during", {
      bindings: [{ type: "workflow", name: "WORKFLOW", workflow_name: "during", class_name: "DemoWorkflow" }],
    })
      .catch((err) => err)
      .finally(() => (answered = true));
    await waitFor(() => answered || workerds.some(gone), { intervalMs: 5, what: "the upload to restart workerd" });
    await a.stop("SIGKILL");
    await pending;
    if (process.platform === "linux") {
      await waitFor(() => gone(d1Pids[0]), { timeoutMs: 5000, what: "the D1 database's workerd to die with the edge" });
    }

    const b = await startEdge({ dataDir });
    started.push(b);
    await deployDemo(b, "during");
    await b.call("POST", "/workflows/during/instances", { instance_id: "i1", params: {} });
    await waitStatus(b, "during", "i1", "complete", { timeoutMs: 30000 });
    await b.call("POST", "/workflows/before/instances", { instance_id: "i2", params: {} });
    await waitStatus(b, "before", "i2", "complete", { timeoutMs: 30000 });
    const r = await b.call("POST", `/d1/database/${db}/query`, { sql: "SELECT x FROM t" });
    assert.deepEqual(r.body.result[0].results, [{ x: 7 }]);
  });
});

describe("a D1 database's workerd", () => {
  test("killed with kill -9 is started again by the next request, with its data", async () => {
    const edge = await startEdge();
    started.push(edge);
    const db = (await edge.call("POST", "/d1/database", { name: "killed-d1" })).body.result.uuid;
    assert.equal(
      (await edge.call("POST", `/d1/database/${db}/query`, { sql: "CREATE TABLE t (x); INSERT INTO t VALUES (5)" }))
        .status,
      200,
    );
    const pid = Number(fs.readFileSync(path.join(edge.dataDir, "d1-workerd.pid"), "utf8").trim());
    process.kill(pid, "SIGKILL");
    await waitFor(() => gone(pid), { timeoutMs: 5000, what: `workerd ${pid} to die` });
    const r = await edge.call("POST", `/d1/database/${db}/query`, { sql: "SELECT x FROM t" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.result[0].results, [{ x: 5 }]);
    const again = Number(fs.readFileSync(path.join(edge.dataDir, "d1-workerd.pid"), "utf8").trim());
    assert.notEqual(again, pid);
    await edge.stop();
  });
});

describe("stale lock", () => {
  const deadPid = () => {
    const r = spawnSync("true");
    return r.pid;
  };

  test("a lock whose pid no longer runs is taken over", async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, "edge.lock"), `${deadPid()}\n`);
    const e = await startEdge({ dataDir });
    started.push(e);
    assert.match(fs.readFileSync(path.join(dataDir, "edge.lock"), "utf8"), new RegExp(`^${e.proc.pid}\n`));
    await e.stop();
  });

  test("a lock whose pid now belongs to another program is taken over", async () => {
    const dataDir = tempDir();
    const other = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      // As a kill -9 leaves it when the pid is reused: the old edge's pid only (older format) ...
      fs.writeFileSync(path.join(dataDir, "edge.lock"), `${other.pid}\n`);
      let e = await startEdge({ dataDir });
      started.push(e);
      await e.stop("SIGKILL");
      // ... or with the start time of the process that had the pid then.
      fs.writeFileSync(path.join(dataDir, "edge.lock"), `${other.pid}\nstart 1\n`);
      e = await startEdge({ dataDir });
      started.push(e);
      await e.stop();
    } finally {
      other.kill("SIGKILL");
    }
  });

  test("a lock of a running edge keeps a second edge out", async () => {
    const e = await startEdge();
    started.push(e);
    await waitFor(() => fs.existsSync(path.join(e.dataDir, "edge.lock")));
    const r = spawnSync(process.execPath, [SERVER, "--port", "0", "--data-dir", e.dataDir], {
      encoding: "utf8",
      // a guard against a hang, not a time limit: on a loaded machine loading the edge's modules alone takes seconds
      timeout: 180000,
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`in use by another edge \\(pid ${e.proc.pid}\\)`));
    await e.stop();
  });
});
