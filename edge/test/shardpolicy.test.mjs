// The shard policy (docs/edge.md, "Shards"; decision 704) on a running edge: without EDGEFLOW_EDGE_SHARDS a Workflow
// starts on one workerd, grows to EDGEFLOW_EDGE_SHARD_MAX shards once it had EDGEFLOW_EDGE_SHARD_GROW creates within
// a window (a counter, not a clock: the window here is ten minutes), keeps a shard while an instance of it waits, and
// stops the shard once the Workflow is idle and the shard's instances are archived. The unit tests of the counter are
// at the end.

import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { shardOf } from "../src/plan.mjs";
import { ShardPolicy } from "../src/shards.mjs";
import { deployDemo, startEdge, tempDir, waitFor, waitStatus } from "./helpers.mjs";

let edge;
before(async () => {
  edge = await startEdge({
    env: {
      EDGEFLOW_EDGE_SHARDS: "",
      EDGEFLOW_EDGE_SHARD_MAX: "2",
      EDGEFLOW_EDGE_SHARD_GROW: "6",
      EDGEFLOW_EDGE_SHARD_WINDOW_MS: "600000",
      EDGEFLOW_EDGE_SHARD_IDLE_MS: "4000",
    },
  });
  await deployDemo(edge, "grows");
});
after(async () => {
  await edge?.stop();
});

const stats = () => edge.stats();
const shardRuns = async () => (await stats()).workerd_groups.some((g) => g.group === "g1~1");

describe("shard policy", () => {
  test("a busy Workflow grows a shard; an idle one stops it once its instances are archived", async () => {
    assert.equal(await shardRuns(), false, "one workerd before the Workflow is busy");
    for (let i = 0; i < 5; i++) {
      const r = await edge.call("POST", "/workflows/grows/instances", { instance_id: `calm-${i}`, params: {} });
      assert.equal(r.status, 200);
    }
    assert.equal(await shardRuns(), false, "5 creates stay under the threshold of 6");
    await edge.call("POST", "/workflows/grows/instances", { instance_id: "calm-5", params: {} });
    await waitFor(shardRuns, { what: "shard g1~1 to start" });
    const st = await stats();
    assert.equal(st.shards.workflows.grows, 2, JSON.stringify(st.shards));
    // an instance in shard 1 that waits holds its shard while the Workflow is idle
    let held = null;
    for (let i = 0; held === null; i++) if (shardOf(`held-${i}`, 2) === 1) held = `held-${i}`;
    const r = await edge.call("POST", "/workflows/grows/instances", { instance_id: held, params: { waitFor: "go" } });
    assert.equal(r.status, 200);
    await waitStatus(edge, "grows", held, "waiting");
    for (let i = 0; i < 6; i++) await waitStatus(edge, "grows", `calm-${i}`, "complete");
    // once the Workflow is idle (no create for 4 s) and a shrink check has seen it, the waiting instance still
    // holds its shard: the event reaches it and it completes
    const idleSince = await waitFor(async () => {
      const s = (await stats()).shards;
      return s.idle.includes("grows") ? s : false;
    });
    await waitFor(async () => (await stats()).shards.shrink_checks > idleSince.shrink_checks + 1, {
      what: "a shrink check of the idle Workflow",
    });
    assert.equal(await shardRuns(), true);
    assert.equal((await stats()).shards.workflows.grows, 2);
    const ev = await edge.call("POST", `/workflows/grows/instances/${held}/events/go`, { ok: true });
    assert.equal(ev.status, 200, JSON.stringify(ev.body));
    const done = await waitStatus(edge, "grows", held, "complete");
    assert.deepEqual(done.output.approved, { ok: true });
    // emptied (its finished instance archived): the shard stops, and the instance still reads from the archive
    await waitFor(async () => !(await shardRuns()), { what: "shard g1~1 to stop" });
    assert.equal((await stats()).shards.workflows.grows, undefined);
    const again = await waitStatus(edge, "grows", held, "complete");
    assert.deepEqual(again.output.approved, { ok: true });
    // and the Workflow runs on
    await edge.call("POST", "/workflows/grows/instances", { instance_id: "after-stop", params: {} });
    await waitStatus(edge, "grows", "after-stop", "complete");
  });
});

// The one-step Workflow of the workers below.
const ONE_STEP = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class DemoWorkflow extends WorkflowEntrypoint {
  async run(event, step) {
    return await step.do("only", async () => ({ ok: true }));
  }
}
`;

// A worker with edgeflow's create path that asks for the deployment's token, as the generated worker does.
const GATED = `${ONE_STEP}export default {
  async fetch(req, env) {
    if (new URL(req.url).pathname !== "/__edgeflow/instances") return new Response("ok");
    if (req.headers.get("authorization") !== "Bearer " + env.EDGEFLOW_WORKER_TOKEN)
      return Response.json({ message: "the deployment's token is needed" }, { status: 401 });
    const items = await req.json();
    const got = await env.WORKFLOW.createBatch(items.map((x) => ({ id: x.id, params: x.params })));
    return Response.json({ instanceIds: got.map((h) => h.id) });
  },
};
`;

describe("shard policy: creates through a worker's create path", () => {
  test("attack: refused creates do not grow a Workflow; its twin: creates the worker makes do", async () => {
    await deployDemo(edge, "gated", {
      source: GATED,
      bindings: [{ type: "plain_text", name: "EDGEFLOW_WORKER_TOKEN", text: "t" }],
    });
    const post = (ids, token) =>
      fetch(`${edge.ready.workers}/gated/__edgeflow/instances`, {
        method: "POST",
        headers: {
          "x-edgeflow-instance-batch": "1",
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(ids.map((id) => ({ id, params: {} }))),
      });
    // three batches of 6 without the token (the threshold is 6 creates): each refused, none counted
    for (let b = 0; b < 3; b++) {
      const r = await post(
        Array.from({ length: 6 }, (_, i) => `refused-${b}-${i}`),
        null,
      );
      assert.equal(r.status, 401, await r.clone().text());
    }
    assert.equal((await stats()).shards.workflows.gated, undefined, "refused creates grew the Workflow");
    // the same batch with the token: its instances are made, counted, and the Workflow grows
    const ids = Array.from({ length: 6 }, (_, i) => `made-${i}`);
    const r = await post(ids, "t");
    assert.equal(r.status, 200, await r.clone().text());
    assert.deepEqual(await r.json(), { instanceIds: ids });
    await waitFor(async () => (await stats()).shards.workflows.gated === 2, { what: "Workflow gated to grow" });
    for (const id of ids) await waitStatus(edge, "gated", id, "complete");
  });
});

// A worker with edgeflow's create path that creates the one instance it is asked for and answers past the proxy's
// 1 MiB bound.
const LIAR = `${ONE_STEP}
export default {
  async fetch(req, env) {
    if (new URL(req.url).pathname !== "/__edgeflow/instances") return new Response("ok");
    const id = req.headers.get("x-edgeflow-instance-id");
    await env.WORKFLOW.create({ id, params: {} });
    return Response.json({ instanceId: id, pad: "x".repeat(2 << 20) });
  },
};
`;

describe("shard policy: what a worker's answer may claim", () => {
  before(async () => {
    await deployDemo(edge, "liar", {
      source: LIAR,
      bindings: [{ type: "plain_text", name: "EDGEFLOW_WORKER_TOKEN", text: "t" }],
    });
  });

  test("attack: an answer past 1 MiB is not read whole: the create fails with a gateway error; the edge goes on", async () => {
    const r = await fetch(`${edge.ready.workers}/liar/__edgeflow/instances`, {
      method: "POST",
      headers: { "x-edgeflow-instance-id": "padded-1", "content-type": "application/json", "x-pad": "1" },
      body: "{}",
    });
    const text = await r.text();
    assert.ok(r.status >= 500 && r.status < 600, `${r.status} ${text.slice(0, 200)}`);
    assert.ok(text.length < 4096, `the answer passed on ${text.length} bytes`);
    // the edge answers, and the instance the worker made runs
    await waitStatus(edge, "liar", "padded-1", "complete");
  });
});

// A worker with edgeflow's create path whose Workflow waits for an event "go" (params.quick: it ends at once), and
// whose answer is past the proxy's 1 MiB bound when asked (x-pad): the edge then never learns from the answer which
// instances it made.
const HIDDEN = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class DemoWorkflow extends WorkflowEntrypoint {
  async run(event, step) {
    if (event.payload?.quick) return { quick: true };
    const ev = await step.waitForEvent("go", { type: "go", timeout: "1 hour" });
    return { got: ev.payload };
  }
}
export default {
  async fetch(req, env) {
    if (new URL(req.url).pathname !== "/__edgeflow/instances") return new Response("ok");
    const items = await req.json();
    const got = await env.WORKFLOW.createBatch(items.map((x) => ({ id: x.id, params: x.params })));
    const pad = req.headers.get("x-pad") ? "x".repeat(2 << 20) : undefined;
    return Response.json({ instanceIds: got.map((h) => h.id), pad });
  },
};
`;

describe("shard policy: a shard that holds an instance the index does not know of", () => {
  // The archive sweep (which also brings the index up to date from the engines' files) is held off, so that only the
  // shrink itself can learn of the instance.
  let e2;
  before(async () => {
    e2 = await startEdge({
      env: {
        EDGEFLOW_EDGE_SHARDS: "",
        EDGEFLOW_EDGE_SHARD_MAX: "2",
        EDGEFLOW_EDGE_SHARD_GROW: "6",
        EDGEFLOW_EDGE_SHARD_WINDOW_MS: "600000",
        EDGEFLOW_EDGE_SHARD_IDLE_MS: "3000",
        EDGEFLOW_EDGE_ARCHIVE_SWEEP_MS: "600000",
      },
    });
    await deployDemo(e2, "hidden", {
      source: HIDDEN,
      bindings: [{ type: "plain_text", name: "EDGEFLOW_WORKER_TOKEN", text: "t" }],
    });
  });
  after(async () => {
    await e2?.stop();
  });
  const stats2 = () => e2.stats();
  const post = (items, pad) =>
    fetch(`${e2.ready.workers}/hidden/__edgeflow/instances`, {
      method: "POST",
      headers: {
        "x-edgeflow-instance-batch": "1",
        "content-type": "application/json",
        ...(pad ? { "x-pad": "1" } : {}),
      },
      body: JSON.stringify(items),
    });

  test("attack: an instance made in shard 1 whose answer was lost keeps the shard running; its twin: the emptied shard stops", async () => {
    // six quick creates grow the Workflow to 2 shards
    const quick = Array.from({ length: 6 }, (_, i) => ({ id: `quick-${i}`, params: { quick: true } }));
    const r = await post(quick, false);
    assert.equal(r.status, 200, await r.clone().text());
    await waitFor(async () => (await stats2()).workerd_groups.some((g) => g.group === "g1~1"), {
      what: "shard g1~1 to start",
    });
    for (const { id } of quick) await waitStatus(e2, "hidden", id, "complete");
    // an instance in shard 1 that waits, whose create's answer the proxy refuses: the index does not hold it
    let hid = null;
    for (let i = 0; hid === null; i++) if (shardOf(`hid-${i}`, 2) === 1) hid = `hid-${i}`;
    const lost = await post([{ id: hid, params: {} }], true);
    assert.ok(lost.status >= 500, `${lost.status}`);
    await lost.arrayBuffer();
    // the Workflow goes idle and the shrink checks look at it: shard 1 keeps running, since it holds the instance
    const idleSince = await waitFor(async () => {
      const s = (await stats2()).shards;
      return s.idle.includes("hidden") ? s : false;
    });
    await waitFor(async () => (await stats2()).shards.shrink_checks > idleSince.shrink_checks + 2, {
      what: "shrink checks of the idle Workflow",
    });
    const st = await stats2();
    assert.ok(
      st.workerd_groups.some((g) => g.group === "g1~1"),
      `shard 1 stopped under an instance: ${JSON.stringify(st.shards)}`,
    );
    assert.equal((await waitStatus(e2, "hidden", hid, "waiting")).status, "waiting");
    const ev = await e2.call("POST", `/workflows/hidden/instances/${hid}/events/go`, { ok: 1 });
    assert.equal(ev.status, 200, JSON.stringify(ev.body));
    const done = await waitStatus(e2, "hidden", hid, "complete");
    assert.deepEqual(done.output, { got: { ok: 1 } });
    // emptied (its finished instance archived), the shard stops, and the instance still reads
    await waitFor(async () => !(await stats2()).workerd_groups.some((g) => g.group === "g1~1"), {
      what: "shard g1~1 to stop",
    });
    assert.deepEqual((await waitStatus(e2, "hidden", hid, "complete")).output, { got: { ok: 1 } });
  });
});

describe("shards across a restart of the edge", () => {
  test("a shard's sleeping and waiting instances are revived in it, also once the count is no longer forced", async () => {
    const dataDir = tempDir();
    const ids = [];
    for (let i = 0; ids.length < 2; i++) if (shardOf(`kept-${i}`, 2) === 1) ids.push(`kept-${i}`);
    const [sleeper, waiter] = ids;
    const a = await startEdge({ dataDir, env: { EDGEFLOW_EDGE_SHARDS: "2" } });
    try {
      await deployDemo(a, "kept");
      await a.call("POST", "/workflows/kept/instances", { instance_id: sleeper, params: { sleepMs: 4000 } });
      await a.call("POST", "/workflows/kept/instances", { instance_id: waiter, params: { waitFor: "go" } });
      await waitStatus(a, "kept", sleeper, "waiting");
      await waitStatus(a, "kept", waiter, "waiting");
    } finally {
      await a.stop();
    }
    // the policy with one core at most: shard 1 still runs, since it holds the two instances
    const b = await startEdge({ dataDir, env: { EDGEFLOW_EDGE_SHARDS: "", EDGEFLOW_EDGE_SHARD_MAX: "1" } });
    try {
      const st = await b.stats();
      assert.ok(
        st.workerd_groups.some((g) => g.group === "g1~1"),
        JSON.stringify(st.workerd_groups),
      );
      await waitStatus(b, "kept", sleeper, "complete");
      const ev = await b.call("POST", `/workflows/kept/instances/${waiter}/events/go`, { after: "restart" });
      assert.equal(ev.status, 200, JSON.stringify(ev.body));
      const done = await waitStatus(b, "kept", waiter, "complete");
      assert.deepEqual(done.output.approved, { after: "restart" });
    } finally {
      await b.stop();
    }
  });
});

describe("ShardPolicy", () => {
  test("grows past the threshold within a window, shrinks to the shards that hold instances", () => {
    let t = 0;
    let changes = 0;
    const p = new ShardPolicy({ max: 4, grow: 3, windowMs: 100, idleMs: 50, now: () => t, onChange: () => changes++ });
    p.created("wf", 2);
    assert.equal(p.count("wf"), 1);
    t = 150; // a new window: the count starts again
    p.created("wf", 2);
    assert.equal(p.count("wf"), 1);
    p.created("wf", 1);
    assert.equal(p.count("wf"), 4);
    assert.equal(changes, 1);
    assert.deepEqual(p.idle(), []);
    t = 200;
    assert.deepEqual(p.idle(), ["wf"]);
    assert.equal(p.shrink("wf", 2), true);
    assert.equal(p.count("wf"), 3);
    assert.equal(p.shrink("wf", -1), true);
    assert.equal(p.count("wf"), 1);
    p.busy("other", 0.5);
    assert.equal(p.count("other"), 1);
    p.busy("other", 0.9);
    assert.equal(p.count("other"), 4);
  });

  test("a forced count never grows nor shrinks below itself; instances in higher shards keep theirs", () => {
    const p = new ShardPolicy({ forced: 2, grow: 1 });
    p.created("wf", 10);
    assert.equal(p.count("wf"), 2);
    p.floor("wf", 3);
    assert.equal(p.count("wf"), 4);
    assert.equal(p.shrink("wf", -1), true);
    assert.equal(p.count("wf"), 2);
    assert.equal(p.shrink("wf", -1), false);
  });
});
