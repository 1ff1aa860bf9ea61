// A restart of a group loses no log line its tail worker delivers (decision 478): a deploy of another worker of the
// same group restarts it while requests of a logging worker are answered, or while Workflow instances of it run, and
// every answered request's line and every finished step's lines are kept in the worker's log ring afterwards. These
// guard the property; on the machine they were written on they passed also with the flush taken out (decision 483),
// so they do not reproduce the loss the flush prevents.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { startEdge, upload, waitFor, waitStatus } from "./helpers.mjs";

const TALKER = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Talk extends WorkflowEntrypoint {
  async run(event, step) {
    await step.do("talk", async () => {
      for (let i = 0; i < 3; i++) console.log("step line " + i + " of " + event.payload.tag);
      return 1;
    });
    return event.payload.tag;
  }
}
export default {
  async fetch(req) {
    const n = new URL(req.url).pathname.slice(1);
    for (let i = 0; i < 5; i++) console.log("line " + i + " of " + n + " " + "x".repeat(200));
    console.log("hit " + n);
    return new Response("ok " + n);
  },
};`;

// other is a second worker of the talker's group; each version answers differently, so an upload restarts the group.
const other = (v) => `export default { fetch() { return new Response("other ${v}"); } };`;

let edge;
before(async () => {
  edge = await startEdge();
  for (const [name, source] of [
    ["talker", TALKER],
    ["other", other(1)],
  ]) {
    const bindings =
      name === "talker" ? [{ type: "workflow", name: "WF", workflow_name: "talk", class_name: "Talk" }] : [];
    const up = await upload(edge, name, { source, bindings });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal((await edge.call("POST", `/workers/scripts/${name}/subdomain`, { enabled: true })).status, 200);
  }
  const wf = await edge.call("PUT", "/workflows/talk", { script_name: "talker", class_name: "Talk" });
  assert.equal(wf.status, 200, JSON.stringify(wf.body));
});
after(async () => {
  await edge?.stop();
});

async function groups() {
  return (await edge.stats()).workerd_groups;
}

test("a deploy that restarts a shared group loses no line the tail worker delivers", async () => {
  // both workers run in one group (a group holds up to 4 scripts)
  const [g] = (await groups()).filter((x) => x.workers === 2);
  assert.ok(g, `no group runs both workers: ${JSON.stringify(await groups())}`);
  // requests go on, 16 at a time, from before the deploy until after it
  const N = 240;
  let next = 0;
  let answered = 0;
  const firstAnswers = Promise.withResolvers();
  const worker = async () => {
    while (next < N) {
      const i = next++;
      const r = await fetch(`${edge.ready.workers}/talker/${i}`);
      assert.equal(r.status, 200);
      assert.equal(await r.text(), `ok ${i}`);
      if (++answered === 20) firstAnswers.resolve();
    }
  };
  const requests = Array.from({ length: 16 }, worker);
  await firstAnswers.promise;
  const up = await upload(edge, "other", { source: other(2) });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  await Promise.all(requests);
  const after = (await groups()).find((x) => x.group === g.group);
  assert.notEqual(after?.pid, g.pid, "the deploy did not restart the shared group");
  // a request after the restart is answered by the new workerd and its line kept too
  const late = await fetch(`${edge.ready.workers}/talker/${N}`);
  assert.equal(await late.text(), `ok ${N}`);
  const want = Array.from({ length: N + 1 }, (_, i) => `hit ${i}`);
  let missing = want;
  await waitFor(
    async () => {
      const r = await edge.call("GET", "/workers/scripts/talker/logs");
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const got = new Set(r.body.result.lines.map((l) => l.message));
      missing = want.filter((m) => !got.has(m));
      return missing.length === 0;
    },
    { what: "every answered request's line", timeoutMs: 30000 },
  ).catch((err) => assert.fail(`${err.message}; lines lost: ${missing.join(", ")}`));
});

test("a deploy that restarts a shared group loses no line of a Workflow step that finished", async () => {
  const [g] = (await groups()).filter((x) => x.workers === 2);
  assert.ok(g, `no group runs both workers: ${JSON.stringify(await groups())}`);
  // instances are created, 8 at a time, from before the deploy until after it
  const N = 120;
  let next = 0;
  let created = 0;
  const firstCreates = Promise.withResolvers();
  const creator = async () => {
    while (next < N) {
      const i = next++;
      const r = await edge.call("POST", "/workflows/talk/instances", {
        instance_id: `t-${i}`,
        params: { tag: `t-${i}` },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      if (++created === 16) firstCreates.resolve();
    }
  };
  const creators = Array.from({ length: 8 }, creator);
  await firstCreates.promise;
  const up = await upload(edge, "other", { source: other(3) });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  await Promise.all(creators);
  for (let i = 0; i < N; i++) await waitStatus(edge, "talk", `t-${i}`, "complete");
  // a step that finished is not run again, so its lines are only those its first delivery carried
  const want = [];
  for (let i = 0; i < N; i++) for (let k = 0; k < 3; k++) want.push(`step line ${k} of t-${i}`);
  let missing = want;
  await waitFor(
    async () => {
      const r = await edge.call("GET", "/workers/scripts/talker/logs");
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const got = new Set(r.body.result.lines.map((l) => l.message));
      missing = want.filter((m) => !got.has(m));
      return missing.length === 0;
    },
    { what: "every finished step's lines", timeoutMs: 30000 },
  ).catch((err) => assert.fail(`${err.message}; lines lost: ${missing.slice(0, 20).join(", ")} (${missing.length})`));
});
