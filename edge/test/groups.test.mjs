// Workers run in groups, one workerd each (runtime.mjs, decision 259): an upload restarts only its own group, while
// service bindings, shared KV namespaces, Workflows and the REST API keep working across groups. The groups hold
// two workers each here, so that a few uploads make several groups.

process.env.EDGEFLOW_EDGE_GROUP_SIZE = "2";

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { deployDemo, startEdge, upload, waitFor, waitStatus } from "./helpers.mjs";

const BOOT = `
let boot; // drawn at the first request after each start of the worker's workerd
export default {
  async fetch(request, env) {
    boot ??= crypto.randomUUID();
    const url = new URL(request.url);
    const slow = Number(url.searchParams.get("slow") ?? 0);
    if (slow) await new Promise((r) => setTimeout(r, slow));
    const out = { boot, name: env.NAME };
    if (env.SVC) out.svc = await (await env.SVC.fetch("http://svc/")).json();
    if (env.KV) out.kv = await env.KV.get("k");
    if (url.searchParams.has("put")) await env.KV.put("k", url.searchParams.get("put"));
    return Response.json(out);
  },
};
`;

let edge;

before(async () => {
  edge = await startEdge();
});

after(async () => {
  await edge?.stop();
});

let uploads = 0;

// deploy uploads worker name with new code each time (an upload of unchanged code and bindings restarts nothing).
async function deploy(name, bindings = []) {
  const source = `${BOOT}// upload ${++uploads}\n`;
  const up = await upload(edge, name, {
    source,
    bindings: [{ type: "plain_text", name: "NAME", text: name }, ...bindings],
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  assert.equal((await edge.call("POST", `/workers/scripts/${name}/subdomain`, { enabled: true })).status, 200);
}

async function hit(name, query = "") {
  const r = await fetch(`${edge.ready.workers}/${name}/${query}`);
  assert.equal(r.status, 200, `${name}: ${r.status}`);
  return r.json();
}

const stats = () => edge.stats();

test(
  "an upload restarts its own group only; bindings, KV and Workflows work across groups",
  { timeout: 240000 },
  async (t) => {
    await t.test("a new worker starts in a group of its own without restarting the others", async () => {
      await deploy("a");
      await deploy("b"); // fills a's group
      const a0 = await hit("a");
      const before = await stats();
      const groupsBefore = new Map(before.workerd_groups.map((g) => [g.group, g.pid]));
      // a slow request to a runs through the deploy of c, which a's group does not see
      const slow = hit("a", "?slow=1500");
      await deploy("c");
      assert.equal((await slow).boot, a0.boot);
      assert.equal((await hit("a")).boot, a0.boot, "a's workerd was not restarted");
      const c0 = await hit("c");
      await deploy("c"); // a redeploy restarts c's group only
      assert.notEqual((await hit("c")).boot, c0.boot);
      assert.equal((await hit("a")).boot, a0.boot);
      const after = await stats();
      for (const [group, pid] of groupsBefore) {
        assert.equal(after.workerd_groups.find((g) => g.group === group)?.pid, pid, `group ${group} kept its workerd`);
      }
      assert.equal(after.workerd_groups.length, groupsBefore.size + 1, JSON.stringify(after.workerd_groups));
      assert.ok(after.workerd_rss > 0 && after.workerd_rss_per_worker > 0);
    });

    await t.test("a service binding joins its target's group and reaches it", async () => {
      await deploy("d", [{ type: "service", name: "SVC", service: "a" }]);
      const d = await hit("d");
      assert.equal(d.svc.name, "a");
      const s = await stats();
      const aGroup = s.workerd_groups.find((g) => g.workers >= 3);
      assert.ok(aGroup, `a, b and d share a group: ${JSON.stringify(s.workerd_groups)}`);
    });

    await t.test("a KV namespace moves to the group of the workers that bind it and keeps its data", async () => {
      const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "shared" })).body.result.id;
      assert.equal(
        (
          await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/k`, "from-rest", {
            headers: { "content-type": "text/plain" },
          })
        ).status,
        200,
      );
      await deploy("e", [{ type: "kv_namespace", name: "KV", namespace_id: ns }]);
      assert.equal((await hit("e")).kv, "from-rest");
      await deploy("f", [{ type: "kv_namespace", name: "KV", namespace_id: ns }]);
      await hit("f", "?put=from-f");
      assert.equal((await hit("e")).kv, "from-f", "e and f share the namespace");
      const got = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/k`, undefined, { raw: true });
      assert.equal(await got.text(), "from-f", "the REST API reaches the namespace in its group");
    });

    await t.test("a waiting Workflow instance lives through uploads to other groups and completes", async () => {
      await deployDemo(edge, "wf1");
      const r = await edge.call("POST", "/workflows/wf1/instances", { instance_id: "w-1", params: { waitFor: "go" } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      await waitStatus(edge, "wf1", "w-1", "waiting");
      await deploy("g");
      await deploy("g");
      const ev = await edge.call("POST", "/workflows/wf1/instances/w-1/events/go", { ok: 1 });
      assert.equal(ev.status, 200, JSON.stringify(ev.body));
      const done = await waitStatus(edge, "wf1", "w-1", "complete");
      assert.deepEqual(done.output.approved, { ok: 1 });
    });

    await t.test("an upload that does not start is rolled back in its group alone", async () => {
      const a0 = await hit("a");
      const c0 = await hit("c");
      const bad = await upload(edge, "c", { source: "throw new Error('broken at start');\nexport default {};\n" });
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.equal(bad.body.errors[0].code, 10021);
      assert.equal((await hit("c")).name, "c", "c serves its previous version again");
      assert.notEqual((await hit("c")).boot, c0.boot, "c's group was restarted with the previous configuration");
      assert.equal((await hit("a")).boot, a0.boot, "a's group was not touched");
    });

    await t.test("a group left empty by deletes stops; the others keep running", async () => {
      const before = await stats();
      const a0 = await hit("a");
      const wfGroup = before.workerd_groups.find((x) => x.workers === 2 && x.group !== "home");
      assert.ok(wfGroup, JSON.stringify(before.workerd_groups));
      assert.equal((await edge.call("DELETE", "/workers/scripts/g")).status, 200);
      assert.equal((await edge.call("DELETE", "/workflows/wf1")).status, 200);
      assert.equal((await edge.call("DELETE", "/workers/scripts/wf1")).status, 200);
      const after = (await stats()).workerd_groups;
      assert.equal(after.length, before.workerd_groups.length - 1, JSON.stringify(after));
      assert.equal((await hit("a")).boot, a0.boot);
    });
  },
);

// Every group's miniflare carries the log tail worker (and, where a worker binds a deleted resource, the worker that
// fails its operations): logs and deleted-resource errors are the same in whichever group a worker runs.
const LOGGED = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class Tagged extends WorkflowEntrypoint {
  async run(event, step) {
    console.log("run of", event.payload.tag);
    return await step.do("one", async () => 1);
  }
}
export default {
  async fetch(request, env) {
    console.log("hello from", env.NAME);
    let kv = null;
    try {
      kv = await env.KV.get("k");
    } catch (e) {
      kv = "error: " + e.message;
    }
    return Response.json({ name: env.NAME, kv });
  },
};
`;

test("logs and deleted resources work in every group", { timeout: 240000 }, async () => {
  const names = ["log1", "log2", "log3"];
  const namespaces = [];
  for (const name of names) {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: `kv-${name}` })).body.result.id;
    namespaces.push(ns);
    const up = await upload(edge, name, {
      source: LOGGED,
      bindings: [
        { type: "plain_text", name: "NAME", text: name },
        { type: "kv_namespace", name: "KV", namespace_id: ns },
        { type: "workflow", name: "WF", workflow_name: `flow-${name}`, class_name: "Tagged" },
      ],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal(
      (await edge.call("PUT", `/workflows/flow-${name}`, { script_name: name, class_name: "Tagged" })).status,
      200,
    );
    assert.equal((await edge.call("POST", `/workers/scripts/${name}/subdomain`, { enabled: true })).status, 200);
  }
  // groups hold two workers here: the three (bound to nothing in common) run in at least two groups
  const lines = async (name, query = "") => {
    const r = await edge.call("GET", `/workers/scripts/${name}/logs${query}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.result.lines;
  };
  for (const name of names) {
    assert.deepEqual(await hit(name), { name, kv: null });
    const got = await waitFor(async () => (await lines(name)).find((l) => l.message === `hello from ${name}`), {
      what: `${name}'s fetch line`,
    });
    assert.equal(got.level, "log");
    const run = await edge.call("POST", `/workflows/flow-${name}/instances`, {
      instance_id: `run-${name}`,
      params: { tag: name },
    });
    assert.equal(run.status, 200, JSON.stringify(run.body));
    await waitStatus(edge, `flow-${name}`, `run-${name}`, "complete");
    const tagged = await waitFor(
      async () => (await lines(name, `?instance=run-${name}`)).find((l) => l.message === `run of ${name}`),
      { what: `${name}'s workflow line` },
    );
    assert.equal(tagged.instanceId, `run-${name}`);
  }
  for (const ns of namespaces) assert.equal((await edge.call("DELETE", `/storage/kv/namespaces/${ns}`)).status, 200);
  for (const name of names) {
    const out = await hit(name);
    assert.match(out.kv, /^error: KV GET failed: 404 Not Found/, `${name}: ${JSON.stringify(out)}`);
  }
});
