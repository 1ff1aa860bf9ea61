// A deploy lets the running steps of the group it restarts end first (groups.mjs #settle, decision 799). Groups hold
// the scripts of several accounts, and a restart stops the steps under way, which then run again from their start:
// without the settle, one account's deploy made another account's step (a payment, an email) run twice. The attack
// is that deploy, made by account B into the group that runs account A's step; the twin shows the bound: a step
// longer than the settle's bound does not hold B's deploy.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { asAccount, instance, provision, startEdge, upload, waitFor, waitStatus } from "./helpers.mjs";

// Slow runs one step that takes params.ms milliseconds (a timer inside the step: the step is under way meanwhile).
const SLOW = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class Slow extends WorkflowEntrypoint {
  async run(event, step) {
    const out = await step.do("slow", async () => {
      await new Promise((r) => setTimeout(r, event.payload.ms));
      return { slept: event.payload.ms };
    });
    return out;
  }
}
export default { fetch: () => new Response("slow") };
`;

let edge;
let a;
let b;
let uploads = 0;

before(async () => {
  edge = await startEdge({ env: { EDGEFLOW_EDGE_SETTLE_MS: "3000" } });
  const pa = await provision(edge, { name: "Org A", ref: "settle-a" });
  const pb = await provision(edge, { name: "Org B", ref: "settle-b" });
  assert.equal(pa.status, 201, JSON.stringify(pa.body));
  assert.equal(pb.status, 201, JSON.stringify(pb.body));
  a = asAccount(edge, pa.body);
  b = asAccount(edge, pb.body);
  const up = await upload(a, "slow", {
    source: SLOW,
    bindings: [{ type: "workflow", name: "WF", workflow_name: "slow", class_name: "Slow" }],
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  assert.equal((await a.call("PUT", "/workflows/slow", { script_name: "slow", class_name: "Slow" })).status, 200);
});

after(async () => {
  await edge?.stop();
});

// deployB uploads account B's worker with new code each time (an upload of unchanged code restarts nothing).
async function deployB() {
  const up = await upload(b, "neighbour", { source: `export default { fetch: () => new Response("${++uploads}") };` });
  assert.equal(up.status, 200, JSON.stringify(up.body));
}

async function groupOf() {
  return (await edge.stats()).workerd_groups;
}

// startStep creates an instance of A's Workflow whose step takes ms and waits until that step is under way.
async function startStep(id, ms) {
  const r = await a.call("POST", "/workflows/slow/instances", { instance_id: id, params: { ms } });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  await waitFor(
    async () => {
      const d = await instance(a, "slow", id);
      return d.steps.length === 1 && d.steps[0].start && !d.steps[0].end;
    },
    { what: `the step of ${id} to be under way`, intervalMs: 20 },
  );
}

test("another account's deploy into the group lets a running step end, and the step runs once", async () => {
  await startStep("short-1", 1200);
  await deployB();
  const groups = await groupOf();
  assert.equal(groups.filter((g) => g.workers > 0).length, 1, "A's and B's workers share one group");
  const shared = groups.find((g) => g.workers === 2);
  assert.ok(shared, JSON.stringify(groups));
  // the deploy answered once the step had ended
  const at = await instance(a, "slow", "short-1");
  assert.ok(at.steps[0].end, `the step had ended when the deploy answered: ${JSON.stringify(at.steps)}`);
  const d = await waitStatus(a, "slow", "short-1", "complete");
  assert.deepEqual(d.output, { slept: 1200 });
  assert.equal(d.steps[0].attempts.length, 1, `the step ran once: ${JSON.stringify(d.steps[0].attempts)}`);
  assert.equal(shared.last_settle.stepping, 0, JSON.stringify(shared.last_settle));
  assert.ok(shared.last_settle.ms > 0, JSON.stringify(shared.last_settle));
});

test("a step longer than the bound does not hold the deploy; it runs again after the restart", async () => {
  await startStep("long-1", 8000);
  await deployB();
  // the deploy answered while the step was still under way
  const during = await instance(a, "slow", "long-1");
  assert.equal(during.status, "running", JSON.stringify(during));
  const shared = (await groupOf()).find((g) => g.workers === 2);
  assert.equal(shared.last_settle.stepping, 1, JSON.stringify(shared.last_settle));
  assert.ok(shared.last_settle.ms >= 3000, JSON.stringify(shared.last_settle));
  // the restart stopped the step; the revive sweep runs it again from its start, and the instance completes
  const d = await waitStatus(a, "slow", "long-1", "complete", { timeoutMs: 60000 });
  assert.deepEqual(d.output, { slept: 8000 });
  assert.equal(d.steps[0].attempts.length, 2, JSON.stringify(d.steps[0].attempts));
});

test("a deploy into a group whose instances have all ended does not wait", async () => {
  const r = await a.call("POST", "/workflows/slow/instances", { instance_id: "idle-1", params: { ms: 10 } });
  assert.equal(r.status, 200);
  await waitStatus(a, "slow", "idle-1", "complete");
  await deployB();
  const shared = (await groupOf()).find((g) => g.workers === 2);
  assert.deepEqual(shared.last_settle.stepping, 0);
});
