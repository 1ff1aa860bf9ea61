import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { deployDemo, instance, startEdge, upload, waitFor, waitStatus } from "./helpers.mjs";

let edge;
before(async () => {
  edge = await startEdge();
  await deployDemo(edge, "demo", { bindings: [{ type: "plain_text", name: "GREETING", text: "hello" }] });
});
after(async () => {
  await edge?.stop();
});

describe("workflows", () => {
  test("upload, workflow, instance, complete with output", async () => {
    const c = await edge.call("POST", "/workflows/demo/instances", { instance_id: "basic-1", params: { n: 4 } });
    assert.equal(c.status, 200);
    assert.equal(c.body.success, true);
    assert.equal(c.body.result.id, "basic-1");
    assert.equal(c.body.result.status, "queued");
    const done = await waitStatus(edge, "demo", "basic-1", "complete");
    assert.deepEqual(done.output, { a: { n: 8 }, b: { m: 9, greeting: "hello" }, approved: null, version: "v1" });
    assert.deepEqual(done.params, { n: 4 });
    assert.equal(done.trigger.source, "api");
    assert.equal(done.success, true);
    assert.equal(done.step_count, 2);
    assert.deepEqual(
      done.steps.map((s) => [s.name, s.type, s.success]),
      [
        ["first", "step", true],
        ["second", "step", true],
      ],
    );
    assert.deepEqual(done.steps[0].output, { n: 8 });
  });

  test("instance without id gets one; params any JSON", async () => {
    const c = await edge.call("POST", "/workflows/demo/instances", {});
    assert.equal(c.status, 200);
    assert.match(c.body.result.id, /^[0-9a-f-]{36}$/);
    await waitStatus(edge, "demo", c.body.result.id, "complete");
  });

  test("sleep and waitForEvent report waiting; the event completes the instance", async () => {
    await edge.call("POST", "/workflows/demo/instances", {
      instance_id: "wait-1",
      params: { n: 1, sleepMs: 800, waitFor: "approve" },
    });
    const sleeping = await waitStatus(edge, "demo", "wait-1", "waiting");
    assert.ok(sleeping.steps.some((s) => s.type === "sleep"));
    const waiting = await waitFor(async () => {
      const r = await instance(edge, "demo", "wait-1");
      return r.steps.some((s) => s.type === "waitForEvent" && !s.finished) ? r : false;
    });
    assert.equal(waiting.status, "waiting");
    const list = await edge.call("GET", "/workflows/demo/instances?status=waiting");
    assert.ok(list.body.result.some((i) => i.id === "wait-1"));
    const ev = await edge.call("POST", "/workflows/demo/instances/wait-1/events/approve", { by: "alice" });
    assert.equal(ev.status, 200);
    const done = await waitStatus(edge, "demo", "wait-1", "complete");
    assert.deepEqual(done.output.approved, { by: "alice" });
    const w = done.steps.find((s) => s.type === "waitForEvent");
    assert.deepEqual(w.output.payload, { by: "alice" });
  });

  test("pause, resume, terminate, restart", async () => {
    await edge.call("POST", "/workflows/demo/instances", { instance_id: "ctl-1", params: { waitFor: "never" } });
    await waitStatus(edge, "demo", "ctl-1", "waiting");
    let r = await edge.call("PATCH", "/workflows/demo/instances/ctl-1/status", { status: "pause" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await waitStatus(edge, "demo", "ctl-1", "paused");
    r = await edge.call("PATCH", "/workflows/demo/instances/ctl-1/status", { status: "resume" });
    assert.equal(r.status, 200);
    await waitStatus(edge, "demo", "ctl-1", "waiting");
    r = await edge.call("PATCH", "/workflows/demo/instances/ctl-1/status", { status: "terminate" });
    assert.equal(r.status, 200);
    const t = await waitStatus(edge, "demo", "ctl-1", "terminated");
    assert.equal(t.steps.at(-1).type, "termination");
    r = await edge.call("PATCH", "/workflows/demo/instances/ctl-1/status", { status: "terminate" });
    assert.equal(r.status, 409);
    assert.equal(r.body.errors[0].code, 10203);
    r = await edge.call("PATCH", "/workflows/demo/instances/ctl-1/status", { status: "resume" });
    assert.equal(r.status, 409);
    r = await edge.call("PATCH", "/workflows/demo/instances/ctl-1/status", { status: "restart" });
    assert.equal(r.status, 200);
    await waitStatus(edge, "demo", "ctl-1", "waiting");
    await edge.call("POST", "/workflows/demo/instances/ctl-1/events/never", { late: true });
    const done = await waitStatus(edge, "demo", "ctl-1", "complete");
    assert.deepEqual(done.output.approved, { late: true });
  });

  test("a failing step errors the instance", async () => {
    await edge.call("POST", "/workflows/demo/instances", { instance_id: "fail-1", params: { fail: true } });
    const r = await waitStatus(edge, "demo", "fail-1", "errored");
    assert.equal(r.error.message, "kaboom");
    assert.equal(r.success, false);
  });

  test("the worker URL creates instances and delivers events through the fetch handler", async () => {
    const url = `${edge.ready.workers}/demo`;
    const info = await (await fetch(`${url}/some/path?q=1`)).json();
    assert.equal(info.path, "/some/path");
    assert.equal(info.greeting, "hello");
    const created = await (
      await fetch(url, { method: "POST", body: JSON.stringify({ id: "viaurl-1", params: { waitFor: "go" } }) })
    ).json();
    assert.equal(created.id, "viaurl-1");
    await waitStatus(edge, "demo", "viaurl-1", "waiting");
    const got = await instance(edge, "demo", "viaurl-1");
    assert.equal(got.trigger.source, "binding");
    const sent = await fetch(url, {
      method: "POST",
      body: JSON.stringify({ instanceId: "viaurl-1", eventType: "go", payload: { x: 1 } }),
    });
    assert.equal(sent.status, 200);
    const done = await waitStatus(edge, "demo", "viaurl-1", "complete");
    assert.deepEqual(done.output.approved, { x: 1 });
    const st = await (await fetch(`${url}?instanceId=viaurl-1`)).json();
    assert.equal(st.status, "complete");
  });

  test("instances a worker creates through its binding show in lists and counts", async () => {
    const url = `${edge.ready.workers}/demo`;
    for (const id of ["bound-1", "bound-2"]) {
      const r = await fetch(url, { method: "POST", body: JSON.stringify({ id, params: {} }) });
      assert.equal(r.status, 200);
    }
    const listed = await waitFor(
      async () => {
        const r = await edge.call("GET", "/workflows/demo/instances?status=complete&per_page=100");
        const ids = r.body.result.map((it) => it.id);
        return ids.includes("bound-1") && ids.includes("bound-2") ? r.body.result : null;
      },
      { what: "bound-1 and bound-2 complete in the list" },
    );
    assert.ok(listed.every((it) => it.status === "complete"));
    const got = await instance(edge, "demo", "bound-2");
    assert.equal(got.trigger.source, "binding");
    const wf = await edge.call("GET", "/workflows/demo");
    assert.ok(wf.body.result.instances.complete >= 2);
  });

  test("instance list pages and filters", async () => {
    for (let i = 0; i < 3; i++) await edge.call("POST", "/workflows/demo/instances", { instance_id: `page-${i}` });
    for (let i = 0; i < 3; i++) await waitStatus(edge, "demo", `page-${i}`, "complete");
    const p1 = await edge.call("GET", "/workflows/demo/instances?per_page=2&page=1&status=complete");
    assert.equal(p1.body.result.length, 2);
    assert.ok(p1.body.result_info.total_count >= 3);
    const p2 = await edge.call("GET", "/workflows/demo/instances?per_page=2&page=2&status=complete");
    assert.ok(p2.body.result.length >= 1);
    const ids = new Set([...p1.body.result, ...p2.body.result].map((x) => x.id));
    assert.equal(ids.size, p1.body.result.length + p2.body.result.length);
    const bad = await edge.call("GET", "/workflows/demo/instances?status=sleepy");
    assert.equal(bad.status, 400);
  });

  test("a redeploy while an instance sleeps: the instance completes, the new code serves", async () => {
    await edge.call("POST", "/workflows/demo/instances", { instance_id: "redeploy-1", params: { sleepMs: 8000 } });
    await waitStatus(edge, "demo", "redeploy-1", "waiting");
    const up = await upload(edge, "demo", {
      bindings: [
        { type: "workflow", name: "WORKFLOW", workflow_name: "demo", class_name: "DemoWorkflow" },
        { type: "plain_text", name: "GREETING", text: "hello" },
        { type: "plain_text", name: "VERSION", text: "v2" },
      ],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const info = await (await fetch(`${edge.ready.workers}/demo`)).json();
    assert.equal(info.version, "v2");
    const done = await waitStatus(edge, "demo", "redeploy-1", "complete", { timeoutMs: 30000 });
    assert.equal(done.output.version, "v2");
  });

  test("sub-workflow binding to another script's class", async () => {
    const up = await upload(edge, "caller", {
      source: `export default { async fetch(req, env) { const i = await env.CHILD.create({ params: { n: 21 } }); return Response.json({ id: i.id }); } };`,
      bindings: [
        { type: "workflow", name: "CHILD", workflow_name: "demo", class_name: "DemoWorkflow", script_name: "demo" },
      ],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    await edge.call("POST", "/workers/scripts/caller/subdomain", { enabled: true });
    const r = await (await fetch(`${edge.ready.workers}/caller`)).json();
    const done = await waitStatus(edge, "demo", r.id, "complete");
    assert.equal(done.output.a.n, 42);
  });

  test("workflow get, list and versions", async () => {
    const g = await edge.call("GET", "/workflows/demo");
    assert.equal(g.status, 200);
    assert.equal(g.body.result.class_name, "DemoWorkflow");
    assert.ok(g.body.result.instances.complete >= 1);
    const l = await edge.call("GET", "/workflows?page=1");
    assert.ok(l.body.result.some((w) => w.name === "demo"));
    const v = await edge.call("GET", "/workflows/demo/versions");
    assert.ok(v.body.result.length >= 1);
  });

  test("reading several instances at once (the edge's POST …/instances/read)", async () => {
    await edge.call("POST", "/workflows/demo/instances", { instance_id: "read-1", params: { n: 1 } });
    await edge.call("POST", "/workflows/demo/instances", { instance_id: "read-2", params: { n: 2 } });
    const r = await edge.call("POST", "/workflows/demo/instances/read", { ids: ["read-2", "missing-9", "read-1"] });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.result.map((x) => x.id),
      ["read-2", "missing-9", "read-1"],
    );
    assert.equal(r.body.result[1].errors[0].code, 10201);
    assert.equal(r.body.result[1].result, undefined);
    for (const i of [0, 2]) {
      const one = await edge.call("GET", `/workflows/demo/instances/${r.body.result[i].id}`);
      assert.deepEqual(r.body.result[i].result.params, one.body.result.params);
      assert.equal(typeof r.body.result[i].result.status, "string");
      assert.ok(Array.isArray(r.body.result[i].result.steps));
    }
    for (const bad of [
      {},
      { ids: [] },
      { ids: ["bad id!"] },
      { ids: Array.from({ length: 101 }, (_, i) => `x-${i}`) },
    ]) {
      const b = await edge.call("POST", "/workflows/demo/instances/read", bad);
      assert.equal(b.status, 400, JSON.stringify(bad));
      assert.match(b.body.errors[0].message, /ids must be an array of 1 to 100 instance ids/);
    }
    const none = await edge.call("POST", "/workflows/nope/instances/read", { ids: ["read-1"] });
    assert.equal(none.body.errors[0].code, 10200);
  });

  test("workflow errors", async () => {
    let r = await edge.call("GET", "/workflows/nope");
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 10200);
    r = await edge.call("POST", "/workflows/nope/instances", {});
    assert.equal(r.body.errors[0].code, 10200);
    r = await edge.call("GET", "/workflows/demo/instances/missing-1");
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 10201);
    await edge.call("POST", "/workflows/demo/instances", { instance_id: "dup-1" });
    r = await edge.call("POST", "/workflows/demo/instances", { instance_id: "dup-1" });
    assert.equal(r.status, 409);
    assert.equal(r.body.errors[0].code, 10405);
    r = await edge.call("POST", "/workflows/demo/instances", { instance_id: "bad id!" });
    assert.equal(r.status, 400);
    r = await edge.call("POST", "/workflows/demo/instances", "{not json", {
      headers: { "content-type": "application/json" },
    });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /not valid JSON/);
    r = await edge.call("PATCH", "/workflows/demo/instances/dup-1/status", { status: "explode" });
    assert.equal(r.status, 400);
    r = await edge.call("POST", "/workflows/demo/instances/dup-1/events/bad%20type", {});
    assert.equal(r.status, 400);
    r = await edge.call("PUT", "/workflows/other", { script_name: "no-such-script", class_name: "X" });
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 10007);
    r = await edge.call("PUT", "/workflows/other", { script_name: "demo" });
    assert.equal(r.status, 400);
    r = await edge.call("PUT", "/workflows/other", { script_name: "demo", class_name: "NoSuchClass" });
    assert.equal(r.status, 400);
    assert.equal(r.body.errors[0].code, 10021);
    assert.match(r.body.errors[0].message, /NoSuchClass/);
    // the account keeps serving after the refused class
    const info = await fetch(`${edge.ready.workers}/demo`);
    assert.equal(info.status, 200);
    r = await edge.call("GET", "/workflows/other");
    assert.equal(r.status, 404);
  });

  test("cron schedules start instances", async () => {
    let r = await edge.call("PUT", "/workflows/demo", {
      script_name: "demo",
      class_name: "DemoWorkflow",
      schedules: [{ cron: "*/5 * * * *" }],
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.result.schedules, [{ cron: "*/5 * * * *" }]);
    const run = await fetch(`${edge.ready.api.replace("/client/v4", "")}/__edge/cron?time=2026-01-01T10:05:00Z`, {
      method: "POST",
      headers: { authorization: `Bearer ${edge.token}` },
    });
    assert.equal(run.status, 200);
    const started = (await run.json()).started;
    assert.equal(started.length, 1);
    const done = await waitStatus(edge, "demo", started[0].id, "complete");
    assert.equal(done.trigger.source, "cron");
    assert.equal(done.params.cron, "*/5 * * * *");
    const none = await fetch(`${edge.ready.api.replace("/client/v4", "")}/__edge/cron?time=2026-01-01T10:06:00Z`, {
      method: "POST",
      headers: { authorization: `Bearer ${edge.token}` },
    });
    assert.deepEqual((await none.json()).started, []);
    r = await edge.call("PUT", "/workflows/demo", {
      script_name: "demo",
      class_name: "DemoWorkflow",
      schedules: [{ cron: "61 * * * *" }],
    });
    assert.equal(r.status, 400);
  });
});
