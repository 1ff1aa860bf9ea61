// Shards (docs/edge.md, "Shards"; decisions 700-719): with EDGEFLOW_EDGE_SHARDS=2 a Workflow runs in two workerd
// processes; each instance lives in the shard its id picks, every operation on it reaches that shard, batches are
// split and answered in order, lists merge the shards, a killed shard restarts with its instances, and a deploy moves
// every shard.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { tcpListeners } from "../src/gate.mjs";
import { shardOf } from "../src/plan.mjs";
import { deployDemo, startEdge, upload, waitFor, waitStatus } from "./helpers.mjs";

// A workflow like the demo's that logs from its steps.
const SOURCE = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class DemoWorkflow extends WorkflowEntrypoint {
  async run(event, step) {
    const p = event.payload ?? {};
    const a = await step.do("first", async () => {
      console.log("first step of " + event.instanceId);
      return { n: (p.n ?? 1) * 2 };
    });
    if (p.sleepMs) await step.sleep("nap", p.sleepMs);
    let approved = null;
    if (p.waitFor) approved = (await step.waitForEvent("approval", { type: p.waitFor, timeout: "1 hour" })).payload;
    const b = await step.do("second", async () => ({ m: a.n + 1 }));
    return { a, b, approved, version: this.env.VERSION ?? "v1" };
  }
}
export default { async fetch() { return new Response("ok"); } };
`;

let edge;
before(async () => {
  edge = await startEdge({ env: { EDGEFLOW_EDGE_SHARDS: "2" } });
  await deployDemo(edge, "sharded", { source: SOURCE });
});
after(async () => {
  await edge?.stop();
});

// idsIn answers n instance ids (prefix-0, prefix-1, ...) that the shard function puts in shard k of 2.
function idsIn(prefix, k, n) {
  const out = [];
  for (let i = 0; out.length < n; i++) if (shardOf(`${prefix}-${i}`, 2) === k) out.push(`${prefix}-${i}`);
  return out;
}

// groups answers the edge's workerd groups ({group, pid}) by group id.
async function groups() {
  const stats = await edge.stats();
  return new Map(stats.workerd_groups.map((g) => [g.group, g]));
}

// files counts the instance storage files of Workflow wf in shard k.
function files(k, wf = "sharded") {
  const dir = path.join(
    edge.dataDir,
    "miniflare",
    ...(k > 0 ? ["shards", String(k)] : []),
    "workflows",
    `miniflare-workflows-${wf}`,
  );
  try {
    return fs.readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite").length;
  } catch {
    return 0;
  }
}

describe("shards", () => {
  test("a Workflow runs in two workerds and its instances spread over them by id", async () => {
    const g = await groups();
    assert.ok(g.has("g1") && g.has("g1~1"), JSON.stringify([...g.keys()]));
    assert.notEqual(g.get("g1").pid, g.get("g1~1").pid);
    // every shard's workerd is reached on its Unix entry socket only (docs/edge.md, Isolation): no TCP listener
    for (const gid of ["g1", "g1~1"]) {
      const tcp = tcpListeners(g.get(gid).pid);
      if (tcp !== null) assert.deepEqual(tcp, [], gid);
    }
    const before = [files(0), files(1)];
    const ids = Array.from({ length: 12 }, (_, i) => `spread-${i}`);
    // a batch whose items go to both shards (and two without an id): the answers keep the items' order
    const items = [
      ...ids.map((id) => ({ instance_id: id, params: { waitFor: "go" } })),
      { params: { waitFor: "go" } },
      { params: { waitFor: "go" } },
    ];
    const r = await edge.call("POST", "/workflows/sharded/instances/batch", items);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.result.slice(0, ids.length).map((x) => x.id),
      ids,
    );
    const all = r.body.result.map((x) => x.id);
    assert.equal(new Set(all).size, all.length);
    for (const id of all) await waitStatus(edge, "sharded", id, "waiting");
    const want = [0, 1].map((k) => all.filter((id) => shardOf(id, 2) === k).length);
    assert.ok(want[0] > 0 && want[1] > 0, `ids in both shards: ${want}`);
    assert.deepEqual([files(0) - before[0], files(1) - before[1]], want);
    // the object form: items refused by their shard keep their index (an id that exists, one named twice), and a
    // count's instances get ids of both shards
    const dup = await edge.call("POST", "/workflows/sharded/instances/batch", {
      instances: [
        { instance_id: "dup-a", params: {} },
        { instance_id: ids[1], params: {} },
        { instance_id: "dup-b", params: {} },
        { instance_id: "dup-a", params: {} },
      ],
    });
    assert.equal(dup.status, 200, JSON.stringify(dup.body));
    assert.deepEqual(
      dup.body.result.created.map((x) => x.id),
      ["dup-a", "dup-b"],
    );
    assert.deepEqual(
      dup.body.result.errors.map((e) => [e.index, e.id, e.code]),
      [
        [1, ids[1], 10405],
        [3, "dup-a", 10415],
      ],
    );
    const counted = await edge.call("POST", "/workflows/sharded/instances/batch", { count: 8, params: {} });
    assert.equal(counted.status, 200, JSON.stringify(counted.body));
    assert.equal(counted.body.result.created.length, 8);
    for (const { id } of counted.body.result.created) await waitStatus(edge, "sharded", id, "complete");
    for (const id of all) {
      const ev = await edge.call("POST", `/workflows/sharded/instances/${id}/events/go`, { id });
      assert.equal(ev.status, 200, JSON.stringify(ev.body));
    }
    for (const id of all) {
      const done = await waitStatus(edge, "sharded", id, "complete");
      assert.deepEqual(done.output.approved, { id });
    }
  });

  test("every operation on an instance reaches its shard", async () => {
    for (const k of [0, 1]) {
      const [a, b] = idsIn(`ops${k}`, k, 2);
      let r = await edge.call("POST", "/workflows/sharded/instances", { instance_id: a, params: { waitFor: "ok" } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await waitStatus(edge, "sharded", a, "waiting");
      // an id that exists is refused by its shard
      r = await edge.call("POST", "/workflows/sharded/instances", { instance_id: a, params: {} });
      assert.equal(r.status, 409);
      r = await edge.call("PATCH", `/workflows/sharded/instances/${a}/status`, { status: "pause" });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await waitStatus(edge, "sharded", a, "paused");
      r = await edge.call("PATCH", `/workflows/sharded/instances/${a}/status`, { status: "resume" });
      assert.equal(r.status, 200);
      await waitStatus(edge, "sharded", a, "waiting");
      r = await edge.call("POST", `/workflows/sharded/instances/${a}/events/ok`, { shard: k });
      assert.equal(r.status, 200);
      const done = await waitStatus(edge, "sharded", a, "complete");
      assert.deepEqual(done.output.approved, { shard: k });
      // step output, logs
      r = await edge.call("GET", `/workflows/sharded/instances/${a}/step?name=first`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const logs = await waitFor(async () => {
        const l = await edge.call("GET", `/workers/scripts/sharded/logs?instance=${a}`);
        return l.body.result?.lines?.some((x) => x.message.includes(`first step of ${a}`)) ? l : false;
      });
      assert.equal(logs.status, 200);
      // restart, terminate
      r = await edge.call("PATCH", `/workflows/sharded/instances/${a}/status`, { status: "restart" });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await waitStatus(edge, "sharded", a, "waiting");
      r = await edge.call("PATCH", `/workflows/sharded/instances/${a}/status`, { status: "terminate" });
      assert.equal(r.status, 200);
      await waitStatus(edge, "sharded", a, "terminated");
      // delete in a batch with an instance of the other shard
      r = await edge.call("POST", "/workflows/sharded/instances", { instance_id: b, params: {} });
      assert.equal(r.status, 200);
      await waitStatus(edge, "sharded", b, "complete");
    }
    // the list merges the shards, newest first, and its cursor pages through both
    const seen = [];
    let cursor = "";
    for (;;) {
      const r = await edge.call("GET", `/workflows/sharded/instances?per_page=3${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      seen.push(...r.body.result.map((x) => x.id));
      cursor = r.body.result_info?.cursor;
      if (!cursor) break;
    }
    assert.equal(new Set(seen).size, seen.length);
    for (const k of [0, 1]) for (const id of idsIn(`ops${k}`, k, 2)) assert.ok(seen.includes(id), id);
    const gone = [0, 1].map((k) => idsIn(`ops${k}`, k, 2)[1]);
    const del = await edge.call("POST", "/workflows/sharded/instances/batch/delete", {
      instances: [gone[1], "missing-1", gone[0]],
    });
    assert.equal(del.status, 200, JSON.stringify(del.body));
    assert.deepEqual(del.body.result.deleted, [{ id: gone[1] }, { id: gone[0] }]);
    assert.deepEqual(
      del.body.result.errors.map((e) => e.id),
      ["missing-1"],
    );
    for (const k of [0, 1]) {
      const r = await edge.call("GET", `/workflows/sharded/instances/${idsIn(`ops${k}`, k, 2)[1]}`);
      assert.equal(r.status, 404);
    }
  });

  test("a killed shard restarts and its instances complete", async () => {
    const [id] = idsIn("killed", 1, 1);
    const r = await edge.call("POST", "/workflows/sharded/instances", { instance_id: id, params: { waitFor: "late" } });
    assert.equal(r.status, 200);
    await waitStatus(edge, "sharded", id, "waiting");
    const pid = (await groups()).get("g1~1").pid;
    process.kill(pid, "SIGKILL");
    await waitFor(
      async () => {
        const g = (await groups()).get("g1~1");
        return g && g.pid !== pid;
      },
      { what: "shard g1~1 to restart" },
    );
    const ev = await edge.call("POST", `/workflows/sharded/instances/${id}/events/late`, { after: "kill" });
    assert.equal(ev.status, 200, JSON.stringify(ev.body));
    const done = await waitStatus(edge, "sharded", id, "complete");
    assert.deepEqual(done.output.approved, { after: "kill" });
  });

  test("a deploy moves every shard to the new version", async () => {
    const pids = await groups();
    const up = await upload(edge, "sharded", {
      source: SOURCE,
      bindings: [
        { type: "workflow", name: "WORKFLOW", workflow_name: "sharded", class_name: "DemoWorkflow" },
        { type: "plain_text", name: "VERSION", text: "v2" },
      ],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const now = await groups();
    for (const gid of ["g1", "g1~1"]) assert.notEqual(now.get(gid).pid, pids.get(gid).pid, gid);
    for (const k of [0, 1]) {
      const [id] = idsIn(`v2-${k}`, k, 1);
      await edge.call("POST", "/workflows/sharded/instances", { instance_id: id, params: {} });
      const done = await waitStatus(edge, "sharded", id, "complete");
      assert.equal(done.output.version, "v2");
    }
  });

  test("an operator restarts a group with its shards, or one shard by the id /readyz names", async () => {
    const base = edge.ready.api.replace("/client/v4", "");
    const restart = async (gid) => {
      const res = await fetch(`${base}/__edge/groups/${gid}/restart`, {
        method: "POST",
        headers: { authorization: `Bearer ${edge.token}` },
      });
      return { status: res.status, body: await res.json() };
    };
    let before = await groups();
    // creates while shard 1 restarts go on (an id that picks it goes to shard 0 while its workerd starts, decision
    // 796): wherever each instance landed, every later call finds it
    const restarting = restart("g1~1");
    const during = idsIn("during-restart", 1, 4);
    for (const id of during) {
      const c = await edge.call("POST", "/workflows/sharded/instances", { instance_id: id, params: { waitFor: "go" } });
      assert.equal(c.status, 200, JSON.stringify(c.body));
    }
    let r = await restarting;
    for (const id of during) {
      await waitStatus(edge, "sharded", id, "waiting");
      const ev = await edge.call("POST", `/workflows/sharded/instances/${id}/events/go`, { id });
      assert.equal(ev.status, 200, JSON.stringify(ev.body));
      assert.deepEqual((await waitStatus(edge, "sharded", id, "complete")).output.approved, { id });
    }
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { group: "g1~1", restarted: true, groups: ["g1~1"] });
    let now = await groups();
    assert.equal(now.get("g1").pid, before.get("g1").pid, "shard 0 keeps running");
    assert.notEqual(now.get("g1~1").pid, before.get("g1~1").pid);
    before = now;
    r = await restart("g1");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body, { group: "g1", restarted: true, groups: ["g1", "g1~1"] });
    now = await groups();
    for (const gid of ["g1", "g1~1"]) assert.notEqual(now.get(gid).pid, before.get(gid).pid, gid);
    assert.equal((await restart("g1~9")).status, 404);
    // the Workflow runs on in both
    for (const k of [0, 1]) {
      const [id] = idsIn(`restarted-${k}`, k, 1);
      await edge.call("POST", "/workflows/sharded/instances", { instance_id: id, params: {} });
      await waitStatus(edge, "sharded", id, "complete");
    }
  });

  test("a delete of the sharded Workflow reaches every shard once and answers", async () => {
    const r = await edge.call("DELETE", "/workflows/sharded");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await edge.call("GET", "/workflows/sharded")).status, 404);
    // its name is free again: a Workflow of that name starts with no instance in either shard
    const put = await edge.call("PUT", "/workflows/sharded", { script_name: "sharded", class_name: "DemoWorkflow" });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const list = await edge.call("GET", "/workflows/sharded/instances");
    assert.equal(list.status, 200, JSON.stringify(list.body));
    assert.deepEqual(list.body.result, []);
    for (const k of [0, 1]) {
      const [id] = idsIn(`after-delete-${k}`, k, 1);
      await edge.call("POST", "/workflows/sharded/instances", { instance_id: id, params: {} });
      await waitStatus(edge, "sharded", id, "complete");
    }
  });
});

// A worker with edgeflow's create path (POST /__edgeflow/instances, one id in X-Edgeflow-Instance-Id or a batch) and
// its status read (GET ?instanceId=), as edgeflow's generated workers have them.
const CREATE_SOURCE = SOURCE.replace(
  'export default { async fetch() { return new Response("ok"); } };',
  `export default {
  async fetch(req, env) {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/__edgeflow/instances") {
      if (req.headers.get("x-edgeflow-instance-batch") === "1") {
        const items = await req.json();
        const got = await env.WORKFLOW.createBatch(items.map((x) => ({ id: x.id, params: x.params })));
        // (whole: how many items this request of the worker held, which a batch the edge split does not answer)
        return Response.json({ instanceIds: got.map((h) => h.id), whole: items.length });
      }
      const inst = await env.WORKFLOW.create({ id: req.headers.get("x-edgeflow-instance-id"), params: await req.json() });
      return Response.json({ instanceId: inst.id });
    }
    const id = url.searchParams.get("instanceId");
    if (id) return Response.json(await (await env.WORKFLOW.get(id)).status());
    if (req.method === "POST") {
      const b = await req.json();
      await (await env.WORKFLOW.get(b.instanceId)).sendEvent({ type: b.eventType, payload: b.payload });
      return Response.json({ instanceId: b.instanceId });
    }
    return new Response("ok");
  },
};`,
);

describe("shards: edgeflow's create path through the worker", () => {
  test("a create through the worker runs in the shard its id picks, and the edge finds it there", async () => {
    // a worker edgeflow deploys (it binds its token): miniflare's binding, and the edge routes each request by id
    await deployDemo(edge, "viaworker", {
      source: CREATE_SOURCE,
      bindings: [{ type: "plain_text", name: "EDGEFLOW_WORKER_TOKEN", text: "t" }],
    });
    const url = `${edge.ready.workers}/viaworker/__edgeflow/instances`;
    for (const k of [0, 1]) {
      const [id] = idsIn(`vw${k}`, k, 1);
      const r = await fetch(url, {
        method: "POST",
        headers: { "x-edgeflow-instance-id": id, "content-type": "application/json" },
        body: JSON.stringify({ waitFor: "go" }),
      });
      assert.equal(r.status, 200, await r.clone().text());
      assert.deepEqual(await r.json(), { instanceId: id });
      await waitStatus(edge, "viaworker", id, "waiting");
      const st = await (await fetch(`${edge.ready.workers}/viaworker?instanceId=${id}`)).json();
      // (miniflare's own status: running while the instance waits for its event)
      assert.equal(st.status, "running", JSON.stringify(st));
      // an event sent through the worker (the generated worker's event path) reaches the instance's shard
      const ev = await fetch(`${edge.ready.workers}/viaworker`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ instanceId: id, eventType: "go", payload: { k } }),
      });
      assert.equal(ev.status, 200, await ev.clone().text());
      const done = await waitStatus(edge, "viaworker", id, "complete");
      assert.deepEqual(done.output.approved, { k });
    }
    // a batch whose ids pick both shards is split: each shard creates its own at once, the answer keeps the order
    const before = [files(0, "viaworker"), files(1, "viaworker")];
    const batch = [...idsIn("vwb", 1, 2), ...idsIn("vwb0", 0, 3), ...idsIn("vwb1", 1, 1)].map((id) => ({
      id,
      params: {},
    }));
    const post = (body, worker = "viaworker") =>
      fetch(`${edge.ready.workers}/${worker}/__edgeflow/instances`, {
        method: "POST",
        headers: { "x-edgeflow-instance-batch": "1", "content-type": "application/json", "accept-encoding": "gzip" },
        body: JSON.stringify(body),
      });
    const r = await post(batch);
    assert.equal(r.status, 200, await r.clone().text());
    assert.deepEqual(await r.json(), { instanceIds: batch.map((x) => x.id) });
    for (const { id } of batch) await waitStatus(edge, "viaworker", id, "complete");
    assert.deepEqual([files(0, "viaworker") - before[0], files(1, "viaworker") - before[1]], [3, 3]);
    // a batch whose ids all pick one shard goes whole, as the worker answers it
    const one = idsIn("vwo", 0, 2).map((id) => ({ id, params: {} }));
    const whole = await post(one);
    assert.equal(whole.status, 200, await whole.clone().text());
    assert.deepEqual(await whole.json(), { instanceIds: one.map((x) => x.id), whole: 2 });
    // a part the worker does not answer as a batch (here: an id that exists, which the engine's createBatch passes
    // over) makes the batch fail as a whole, so that edgeflow creates its instances one by one; the other part's
    // instances are created
    const [fresh] = idsIn("vwf", 0, 1);
    const mixed = await post([
      { id: fresh, params: {} },
      { id: batch[0].id, params: {} },
    ]);
    assert.equal(mixed.status, 502, await mixed.clone().text());
    assert.match((await mixed.json()).message, /does not name its instances/);
    await waitStatus(edge, "viaworker", fresh, "complete");
    // more items than a batch of edgeflow's holds, or a batch to a worker edgeflow did not deploy, goes whole to the
    // worker, which answers it: split in two, 101 items would pass the engine's bound of 100 a batch
    const big = Array.from({ length: 101 }, (_, i) => ({ id: `vwbig-${i}`, params: {} }));
    const bigAnswer = await post(big);
    assert.equal(bigAnswer.status, 500, await bigAnswer.clone().text());
    assert.match(await bigAnswer.text(), /only supports 100 instances/);
    await deployDemo(edge, "handwritten", { source: CREATE_SOURCE });
    const theirs = [...idsIn("hw", 0, 1), ...idsIn("hw", 1, 1)].map((id) => ({ id, params: {} }));
    const theirAnswer = await post(theirs, "handwritten");
    assert.equal(theirAnswer.status, 200, await theirAnswer.clone().text());
    assert.deepEqual(await theirAnswer.json(), { instanceIds: theirs.map((x) => x.id), whole: 2 });
  });
});

// A Workflow whose steps write and read a KV namespace.
const KV_SOURCE = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class KvFlow extends WorkflowEntrypoint {
  async run(event, step) {
    const p = event.payload ?? {};
    if (p.write)
      await step.do("write", async () => {
        await this.env.STORE.put(p.write, event.instanceId, { metadata: { by: event.instanceId } });
        return true;
      });
    if (p.read)
      return await step.do("read", async () => {
        const one = await this.env.STORE.getWithMetadata(p.read);
        const bulk = Object.fromEntries(await this.env.STORE.get([p.read, "nope"]));
        const listed = (await this.env.STORE.list({ prefix: p.read })).keys.map((k) => [k.name, k.metadata]);
        await this.env.STORE.delete(p.read);
        return { value: one.value, metadata: one.metadata, bulk, listed, after: await this.env.STORE.get(p.read) };
      });
    return null;
  }
}
export default { async fetch() { return new Response("ok"); } };
`;

describe("shards: bindings stay one store", () => {
  test("a KV value written by an instance in one shard is read by an instance in the other", async () => {
    const ns = await edge.call("POST", "/storage/kv/namespaces", { title: "shared-store" });
    assert.equal(ns.status, 200, JSON.stringify(ns.body));
    const id = ns.body.result.id;
    const up = await upload(edge, "kvflow", {
      source: KV_SOURCE,
      bindings: [
        { type: "workflow", name: "WORKFLOW", workflow_name: "kvflow", class_name: "KvFlow" },
        { type: "kv_namespace", name: "STORE", namespace_id: id },
      ],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const wf = await edge.call("PUT", "/workflows/kvflow", { script_name: "kvflow", class_name: "KvFlow" });
    assert.equal(wf.status, 200, JSON.stringify(wf.body));
    for (const [from, to] of [
      [1, 0],
      [0, 1],
    ]) {
      const [writer] = idsIn(`kvw${from}`, from, 1);
      const [reader] = idsIn(`kvr${to}`, to, 1);
      const key = `key-of-${writer}`;
      await edge.call("POST", "/workflows/kvflow/instances", { instance_id: writer, params: { write: key } });
      await waitStatus(edge, "kvflow", writer, "complete");
      // the REST API reads the same namespace
      const v = await edge.call("GET", `/storage/kv/namespaces/${id}/values/${key}`, undefined, { raw: true });
      assert.equal(await v.text(), writer);
      await edge.call("POST", "/workflows/kvflow/instances", { instance_id: reader, params: { read: key } });
      const done = await waitStatus(edge, "kvflow", reader, "complete");
      assert.deepEqual(done.output, {
        value: writer,
        metadata: { by: writer },
        bulk: { [key]: writer, nope: null },
        listed: [[key, { by: writer }]],
        after: null,
      });
    }
  });
});

// A Workflow whose steps write and read an R2 bucket with the binding's calls: puts with metadata and a checksum,
// a multipart upload, heads, ranged and conditional gets, lists and deletes.
const R2_SOURCE = `
import { WorkflowEntrypoint } from "cloudflare:workers";
const MIB = 1024 * 1024;
export class R2Flow extends WorkflowEntrypoint {
  async run(event, step) {
    const p = event.payload ?? {};
    const B = this.env.BUCKET;
    if (p.write)
      return await step.do("write", async () => {
        const body = "hello from " + event.instanceId;
        const sha = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body));
        const o = await B.put(p.write + "/a.txt", body, {
          httpMetadata: { contentType: "text/plain", cacheExpiry: new Date(1767225600000) },
          customMetadata: { by: event.instanceId },
          sha256: sha,
        });
        await B.put(p.write + "/dir/b.txt", "b");
        // a put whose condition does not hold answers null
        const refused = await B.put(p.write + "/a.txt", "x", { onlyIf: { etagMatches: "nope" } });
        const up = await B.createMultipartUpload(p.write + "/big.bin", { customMetadata: { parts: "2" } });
        const one = await up.uploadPart(1, new Uint8Array(5 * MIB).fill(97));
        const two = await up.uploadPart(2, "tail");
        await up.complete([one, two]);
        const gone = await B.createMultipartUpload(p.write + "/aborted.bin");
        await gone.abort();
        return { etag: o.etag, sha256: o.checksums.toJSON().sha256, refused };
      });
    if (p.read)
      return await step.do("read", async () => {
        const k = p.read + "/a.txt";
        const head = await B.head(k);
        const whole = await B.get(k);
        const text = await whole.text();
        const part = await (await B.get(k, { range: { offset: 6, length: 4 } })).text();
        const suffix = await (await B.get(k, { range: { suffix: 3 } })).text();
        const unchanged = await B.get(k, { onlyIf: { etagDoesNotMatch: head.etag } });
        const listed = await B.list({ prefix: p.read + "/", delimiter: "/", include: ["customMetadata", "httpMetadata"] });
        const big = await B.get(p.read + "/big.bin", { range: { offset: 5 * MIB - 2, length: 6 } });
        const bigText = await big.text();
        let aborted = null;
        try {
          await B.resumeMultipartUpload(p.read + "/aborted.bin", "nope").uploadPart(1, "x");
        } catch (err) {
          aborted = String(err.message);
        }
        await B.delete([k, p.read + "/dir/b.txt", p.read + "/big.bin"]);
        return {
          text,
          part,
          suffix,
          contentType: head.httpMetadata.contentType,
          cacheExpiry: head.httpMetadata.cacheExpiry.getTime(),
          custom: whole.customMetadata,
          etag: head.etag,
          sha256: head.checksums.toJSON().sha256,
          unchanged: unchanged !== null && !("body" in unchanged),
          listed: listed.objects.map((o) => [o.key, o.customMetadata, o.httpMetadata.contentType ?? null]),
          prefixes: listed.delimitedPrefixes,
          big: [big.size, big.customMetadata, bigText],
          aborted: aborted !== null,
          after: [await B.head(k), await B.get(p.read + "/big.bin"), (await B.list({ prefix: p.read })).objects.length],
        };
      });
    return null;
  }
}
export default { async fetch() { return new Response("ok"); } };
`;

describe("shards: R2 buckets stay one store", () => {
  test("an R2 object written by an instance in one shard is read, listed and deleted by an instance in the other", async () => {
    const b = await edge.call("POST", "/r2/buckets", { name: "shared-bucket" });
    assert.equal(b.status, 200, JSON.stringify(b.body));
    const up = await upload(edge, "r2flow", {
      source: R2_SOURCE,
      bindings: [
        { type: "workflow", name: "WORKFLOW", workflow_name: "r2flow", class_name: "R2Flow" },
        { type: "r2_bucket", name: "BUCKET", bucket_name: "shared-bucket" },
      ],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const wf = await edge.call("PUT", "/workflows/r2flow", { script_name: "r2flow", class_name: "R2Flow" });
    assert.equal(wf.status, 200, JSON.stringify(wf.body));
    // the group of the bucket runs in two shards now
    assert.ok([...(await groups()).keys()].some((g) => g.endsWith("~1")));
    for (const [from, to] of [
      [1, 0],
      [0, 1],
    ]) {
      const [writer] = idsIn(`r2w${from}`, from, 1);
      const [reader] = idsIn(`r2r${to}`, to, 1);
      const prefix = `p-${writer}`;
      await edge.call("POST", "/workflows/r2flow/instances", { instance_id: writer, params: { write: prefix } });
      const wrote = await waitStatus(edge, "r2flow", writer, "complete");
      assert.equal(wrote.output.refused, null);
      // the REST API reads the same bucket
      const v = await edge.call("GET", `/r2/buckets/shared-bucket/objects/${prefix}%2Fa.txt`, undefined, { raw: true });
      assert.equal(await v.text(), `hello from ${writer}`);
      await edge.call("POST", "/workflows/r2flow/instances", { instance_id: reader, params: { read: prefix } });
      const done = await waitStatus(edge, "r2flow", reader, "complete");
      assert.deepEqual(done.output, {
        text: `hello from ${writer}`,
        part: "from",
        suffix: writer.slice(-3),
        contentType: "text/plain",
        cacheExpiry: 1767225600000,
        custom: { by: writer },
        etag: wrote.output.etag,
        sha256: wrote.output.sha256,
        unchanged: true,
        listed: [
          [`${prefix}/a.txt`, { by: writer }, "text/plain"],
          [`${prefix}/big.bin`, { parts: "2" }, null],
        ],
        prefixes: [`${prefix}/dir/`],
        big: [5 * 1024 * 1024 + 4, { parts: "2" }, "aatail"],
        aborted: true,
        after: [null, null, 0],
      });
    }
  });
});

// A worker whose fetch handler drives its own Workflow through its binding: it creates instances (one by one and in
// a batch), reads each one's status, sends each an event, and tries an id that exists.
const BINDING_SOURCE = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class DemoWorkflow extends WorkflowEntrypoint {
  async run(event, step) {
    const got = await step.waitForEvent("go", { type: "go", timeout: "1 hour" });
    return await step.do("done", async () => ({ id: event.instanceId, got: got.payload }));
  }
}
export default {
  async fetch(req, env) {
    const ids = new URL(req.url).searchParams.get("ids").split(",");
    const half = Math.ceil(ids.length / 2);
    for (const id of ids.slice(0, half)) await env.WORKFLOW.create({ id, params: {} });
    const batch = await env.WORKFLOW.createBatch(ids.slice(half).map((id) => ({ id, params: {} })));
    const statuses = {};
    for (const id of ids) {
      const h = await env.WORKFLOW.get(id);
      statuses[id] = (await h.status()).status;
      await h.sendEvent({ type: "go", payload: { id } });
    }
    let again = null;
    try {
      await env.WORKFLOW.create({ id: ids[ids.length - 1] });
    } catch (err) {
      again = String(err.message);
    }
    // a list-form batch passes over ids that exist, as the engine's binding does
    const rebatch = (await env.WORKFLOW.createBatch(ids.slice(0, 2).map((id) => ({ id })))).map((h) => h.id);
    let missing = null;
    try {
      await env.WORKFLOW.get("no-such-instance");
    } catch (err) {
      missing = String(err.message);
    }
    return Response.json({ batch: batch.map((h) => h.id), statuses, again, rebatch, missing });
  },
};
`;

describe("shards: a worker's own Workflow binding", () => {
  test("a fetch handler creates instances through its binding, reads and wakes each in its shard; none is made twice", async () => {
    await deployDemo(edge, "bound", { source: BINDING_SOURCE });
    const ids = [...idsIn("bnd", 0, 4), ...idsIn("bnd1", 1, 4)];
    const r = await fetch(`${edge.ready.workers}/bound?ids=${ids.join(",")}`);
    assert.equal(r.status, 200, await r.clone().text());
    const out = await r.json();
    assert.deepEqual(out.batch, ids.slice(4));
    for (const id of ids) assert.ok(["queued", "running", "waiting"].includes(out.statuses[id]), JSON.stringify(out));
    assert.equal(out.again, `(instance.already_exists) Workflow instance with id "${ids.at(-1)}" already exists`);
    assert.deepEqual(out.rebatch, []);
    assert.equal(out.missing, "instance.not_found");
    for (const id of ids) {
      const done = await waitStatus(edge, "bound", id, "complete");
      assert.deepEqual(done.output, { id, got: { id } });
    }
    // each instance lives in the shard its id picks, once
    const dir = (k) =>
      path.join(
        edge.dataDir,
        "miniflare",
        ...(k > 0 ? ["shards", String(k)] : []),
        "workflows",
        "miniflare-workflows-bound",
      );
    const names = (k) => fs.readdirSync(dir(k)).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
    // (shard 0 also keeps the engine's empty file of the missing id the handler asked for, as any read of one does)
    assert.equal(names(0).length, 5, names(0).join(" "));
    assert.equal(names(1).length, 4);
    const list = await edge.call("GET", "/workflows/bound/instances?per_page=100");
    assert.deepEqual(list.body.result.map((x) => x.id).sort(), [...ids].sort());
  });
});

describe("shards: bad configuration", () => {
  test("EDGEFLOW_EDGE_SHARDS that is not an integer of at least 1 stops the start with a clear error", async () => {
    await assert.rejects(startEdge({ env: { EDGEFLOW_EDGE_SHARDS: "0" } }), /EDGEFLOW_EDGE_SHARDS must be an integer/);
  });
});
