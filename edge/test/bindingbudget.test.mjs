// The binding proxy's budget of bytes held at once (src/bodybudget.mjs, decision 785): a shard's binding calls are
// read whole by the edge, so their sum is bounded. The attack: an instance in shard 1 puts a KV value larger than the
// whole budget (as many puts at once would add up to); it is refused as overloaded and the edge holds nothing after.
// Its twin: a put within the budget, from the same shard, is stored and read back.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { BodyBudget } from "../src/bodybudget.mjs";
import { shardOf } from "../src/plan.mjs";
import { startEdge, upload, waitStatus } from "./helpers.mjs";

const MiB = 1024 * 1024;

const SOURCE = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class PutFlow extends WorkflowEntrypoint {
  async run(event, step) {
    const { key, mib } = event.payload;
    return await step.do("put", async () => {
      try {
        await this.env.STORE.put(key, "x".repeat(mib * 1024 * 1024));
        return { stored: (await this.env.STORE.get(key))?.length ?? null };
      } catch (err) {
        return { error: String(err.message ?? err) };
      }
    });
  }
}
export default { async fetch() { return new Response("ok"); } };
`;

let edge;
before(async () => {
  edge = await startEdge({ env: { EDGEFLOW_EDGE_SHARDS: "2", EDGEFLOW_EDGE_BINDING_BUFFER: String(8 * MiB) } });
});
after(async () => {
  await edge?.stop();
});

function idIn(prefix, k) {
  for (let i = 0; ; i++) if (shardOf(`${prefix}-${i}`, 2) === k) return `${prefix}-${i}`;
}

const stats = () => edge.stats();

test("a shard's binding call past the proxy's budget is refused, one within it is served", async () => {
  const ns = await edge.call("POST", "/storage/kv/namespaces", { title: "budget-store" });
  assert.equal(ns.status, 200, JSON.stringify(ns.body));
  const up = await upload(edge, "putflow", {
    source: SOURCE,
    bindings: [
      { type: "workflow", name: "WORKFLOW", workflow_name: "putflow", class_name: "PutFlow" },
      { type: "kv_namespace", name: "STORE", namespace_id: ns.body.result.id },
    ],
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const wf = await edge.call("PUT", "/workflows/putflow", { script_name: "putflow", class_name: "PutFlow" });
  assert.equal(wf.status, 200, JSON.stringify(wf.body));

  const big = idIn("big", 1);
  await edge.call("POST", "/workflows/putflow/instances", { instance_id: big, params: { key: "big", mib: 10 } });
  const refused = await waitStatus(edge, "putflow", big, "complete");
  // KV's binding reports the proxy's 503 by its status (the message is the edge's log's and the test's below)
  assert.match(refused.output.error ?? "", /503/, JSON.stringify(refused.output));

  const small = idIn("small", 1);
  await edge.call("POST", "/workflows/putflow/instances", { instance_id: small, params: { key: "small", mib: 3 } });
  const served = await waitStatus(edge, "putflow", small, "complete");
  assert.deepEqual(served.output, { stored: 3 * MiB });

  const s = await stats();
  assert.equal(s.binding_buffer.held, 0, JSON.stringify(s.binding_buffer));
  assert.equal(s.binding_buffer.limit, 8 * MiB);
  assert.ok(s.binding_buffer.refused >= 1, JSON.stringify(s.binding_buffer));
});

test("the budget is shared: bytes held by one call leave less for the next, and come back when it is done", async () => {
  const budget = new BodyBudget(4 * MiB);
  const body = (n) => ({
    async *[Symbol.asyncIterator]() {
      for (let i = 0; i < n; i++) yield Buffer.alloc(MiB);
    },
  });
  const first = await budget.read(body(3), 8 * MiB);
  assert.equal(first.body.length, 3 * MiB);
  assert.equal(budget.held, 3 * MiB);
  assert.deepEqual(await budget.read(body(2), 8 * MiB), { error: "busy" });
  assert.equal(budget.held, 3 * MiB, "a refused call holds nothing");
  first.release();
  first.release();
  assert.equal(budget.held, 0);
  assert.deepEqual(await budget.read(body(3), 2 * MiB), { error: "too_large" });
  assert.equal(budget.held, 0, "a call past its own limit holds nothing");
  const second = await budget.read(body(4), 8 * MiB);
  assert.equal(second.body.length, 4 * MiB);
  second.release();
  assert.equal(budget.refused, 1);
});
