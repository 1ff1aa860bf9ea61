import assert from "node:assert/strict";
import { after, test } from "node:test";
import fs from "node:fs";
import path from "node:path";
import { deployDemo, startEdge, tempDir, waitFor, waitStatus } from "./helpers.mjs";

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

test("kill -9 while instances sleep and wait; after a restart every one completes and all state is back", async () => {
  const dataDir = tempDir();
  const a = await startEdge({ dataDir });
  started.push(a);
  await deployDemo(a, "survivor", { bindings: [{ type: "plain_text", name: "GREETING", text: "persisted" }] });
  let r = await a.call("PUT", "/workers/scripts/survivor/secrets", {
    name: "API_KEY",
    text: "kept",
    type: "secret_text",
  });
  assert.equal(r.status, 200);
  const ns = (await a.call("POST", "/storage/kv/namespaces", { title: "restart-kv" })).body.result.id;
  await a.call("PUT", `/storage/kv/namespaces/${ns}/values/k`, "v");
  const db = (await a.call("POST", "/d1/database", { name: "restart-db" })).body.result.uuid;
  await a.call("POST", `/d1/database/${db}/query`, { sql: "CREATE TABLE t (x); INSERT INTO t VALUES (42)" });
  await a.call("POST", "/r2/buckets", { name: "restart-bucket" });
  await a.call("PUT", "/r2/buckets/restart-bucket/objects/o", "object");

  const sleepers = ["s1", "s2", "s3"];
  const waiters = ["w1", "w2"];
  for (const id of sleepers)
    await a.call("POST", "/workflows/survivor/instances", { instance_id: id, params: { sleepMs: 2500 } });
  for (const id of waiters)
    await a.call("POST", "/workflows/survivor/instances", { instance_id: id, params: { waitFor: "resume-me" } });
  await a.call("POST", "/workflows/survivor/instances", { instance_id: "paused-1", params: { waitFor: "later" } });
  for (const id of [...sleepers, ...waiters, "paused-1"]) await waitStatus(a, "survivor", id, "waiting");
  await a.call("PATCH", "/workflows/survivor/instances/paused-1/status", { status: "pause" });
  await waitStatus(a, "survivor", "paused-1", "paused");
  const sleepStarted = Date.now();

  // kill -9 of the edge alone: its workerds (one a group, see runtime.mjs) die with it (parent-death signal) and
  // free the data files.
  const workerdPids = fs.readFileSync(path.join(dataDir, "workerd.pid"), "utf8").trim().split("\n").map(Number);
  assert.ok(
    workerdPids.length >= 2 && workerdPids.every((p) => p > 0),
    `workerd.pid lists the home group's and the worker's group's workerd: ${workerdPids}`,
  );
  const exited = new Promise((res) => a.proc.once("exit", res));
  a.proc.kill("SIGKILL");
  await exited;
  if (process.platform === "linux") {
    for (const workerdPid of workerdPids) {
      await waitFor(() => gone(workerdPid), { timeoutMs: 15000, what: `workerd ${workerdPid} to die with the edge` });
    }
  }

  const b = await startEdge({ dataDir });
  started.push(b);
  assert.deepEqual(b.ready, a.ready, "URLs, account and token file stay the same across restarts");
  assert.equal(b.token, a.token);

  for (const id of sleepers) {
    const done = await waitStatus(b, "survivor", id, "complete", { timeoutMs: 60000 });
    assert.equal(done.output.b.greeting, "persisted");
    const nap = done.steps.find((s) => s.type === "sleep");
    assert.ok(new Date(nap.end) - new Date(nap.start) >= 2400, "the sleep deadline is honoured");
  }
  assert.ok(Date.now() - sleepStarted >= 2000);
  for (const id of waiters) {
    await waitStatus(b, "survivor", id, "waiting");
    r = await b.call("POST", `/workflows/survivor/instances/${id}/events/resume-me`, { id });
    assert.equal(r.status, 200);
  }
  for (const id of waiters) {
    const done = await waitStatus(b, "survivor", id, "complete");
    assert.deepEqual(done.output.approved, { id });
  }
  assert.equal((await waitStatus(b, "survivor", "paused-1", "paused")).status, "paused");
  r = await b.call("PATCH", "/workflows/survivor/instances/paused-1/status", { status: "resume" });
  assert.equal(r.status, 200);
  await waitStatus(b, "survivor", "paused-1", "waiting");
  await b.call("POST", "/workflows/survivor/instances/paused-1/events/later", {});
  await waitStatus(b, "survivor", "paused-1", "complete");

  const info = await (await fetch(`${b.ready.workers}/survivor`)).json();
  assert.equal(info.secret, "set");
  assert.equal(info.greeting, "persisted");
  assert.equal(
    await (await b.call("GET", `/storage/kv/namespaces/${ns}/values/k`, undefined, { raw: true })).text(),
    "v",
  );
  r = await b.call("POST", `/d1/database/${db}/query`, { sql: "SELECT x FROM t" });
  assert.deepEqual(r.body.result[0].results, [{ x: 42 }]);
  assert.equal(
    await (await b.call("GET", "/r2/buckets/restart-bucket/objects/o", undefined, { raw: true })).text(),
    "object",
  );
  r = await b.call("GET", "/workflows/survivor/instances/s1");
  assert.equal(r.body.result.trigger.source, "api");
  await b.stop();
});
