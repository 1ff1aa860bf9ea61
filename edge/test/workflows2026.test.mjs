// Cloudflare Workflows as of late 2026 on the local edge: what worker code gained (rollback handlers, sensitive
// outputs, retry delays given as functions, the step context, stream outputs) and the REST surface beside it
// (instance delete and batch delete, createBatch's object form, restart from a step, terminate with rollback, a
// step's full output, the instance event stream, default_retention with expired instances deleted, and a create of
// an id that exists refused as instance.already_exists).

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import {
  FIXTURES,
  asAccount,
  instance,
  provision,
  startEdge,
  sweepRetention,
  upload,
  waitFor,
  waitStatus,
} from "./helpers.mjs";

const SAGA = fs.readFileSync(path.join(FIXTURES, "saga.mjs"), "utf8");
let edge;
let kv;

// instanceFiles lists the files in which miniflare stores the instances of workflow (legacy account: its workerd
// name is its name), one an instance.
function instanceFiles(name) {
  try {
    return fs
      .readdirSync(path.join(edge.dataDir, "miniflare", "workflows", `miniflare-workflows-${name}`))
      .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite");
  } catch {
    return [];
  }
}

// filesGone counts the files of before (instanceFiles) that are gone now; instances other tests created meanwhile
// add files of their own.
function filesGone(before, name) {
  const now = new Set(instanceFiles(name));
  return before.filter((f) => !now.has(f)).length;
}

async function kvKeys() {
  return (await edge.call("GET", `/storage/kv/namespaces/${kv}/keys`)).body.result.map((k) => k.name);
}

// events reads an instance's event stream until it ends (or until `until` events when given) and answers the
// events, each {id, type, data}; onEvent(event), when given, is awaited for each as it arrives.
async function events(client, wf, id, { query = "", headers = {}, until, onEvent } = {}) {
  const ctl = new AbortController();
  const res = await fetch(`${client.account}/workflows/${wf}/instances/${id}/subscribe${query}`, {
    headers: { authorization: `Bearer ${client.token}`, ...headers },
    signal: ctl.signal,
  });
  if (res.status !== 200) return { status: res.status, body: await res.json() };
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const out = [];
  let buf = "";
  const dec = new TextDecoder();
  try {
    for await (const chunk of res.body) {
      buf += dec.decode(chunk, { stream: true });
      let i;
      while ((i = buf.indexOf("\n\n")) >= 0) {
        const block = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const f = Object.fromEntries(
          block
            .split("\n")
            .filter((l) => !l.startsWith(":"))
            .map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)]),
        );
        if (f.data === undefined) continue;
        const ev = { id: Number(f.id), type: f.event, data: JSON.parse(f.data) };
        out.push(ev);
        await onEvent?.(ev);
      }
      if (until !== undefined && out.length >= until) break;
    }
  } finally {
    ctl.abort();
  }
  return { status: 200, events: out };
}

before(async () => {
  // EDGEFLOW_EDGE_ARCHIVE_KEEP=0: the tests that count storage files expect a finished instance to leave the engine
  // at once, not when later ones end (decision 484)
  edge = await startEdge({ env: { EDGEFLOW_EDGE_SUBSCRIPTION_LIMIT: "3", EDGEFLOW_EDGE_ARCHIVE_KEEP: "0" } });
  kv = (await edge.call("POST", "/storage/kv/namespaces", { title: "saga" })).body.result.id;
  const up = await upload(edge, "saga", {
    source: SAGA,
    bindings: [
      { type: "workflow", name: "WF", workflow_name: "saga", class_name: "Saga" },
      { type: "kv_namespace", name: "KV", namespace_id: kv },
    ],
    extra: { compatibility_date: "2026-11-17" },
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  assert.equal((await edge.call("PUT", "/workflows/saga", { script_name: "saga", class_name: "Saga" })).status, 200);
});
after(async () => {
  await edge?.stop();
});

describe("worker code of 2026 on the local edge", () => {
  test("step context, a sensitive output, a retry delay function and a stream output", async () => {
    assert.equal(
      (await edge.call("POST", "/workflows/saga/instances", { instance_id: "code-1", params: { seats: 3 } })).status,
      200,
    );
    const done = await waitStatus(edge, "saga", "code-1", "complete");
    assert.deepEqual(done.output, {
      ctx: { name: "context", count: 1, attempt: 1, retries: 5 },
      reserved: { seats: 3 },
      charged: { amount: 30 },
      token: 6,
      retried: { tries: 3 },
      text: "hello stream",
    });
    const step = (n) => done.steps.find((s) => s.name === n);
    assert.equal(step("token").output, "[REDACTED]");
    assert.equal(step("token").config.sensitive, "output");
    assert.equal(step("flaky").attempts.length, 3);
    assert.deepEqual(
      step("flaky").attempts.map((a) => a.success),
      [false, false, true],
    );
    assert.equal(step("flaky").config.retries.delay, "[dynamic]");
    assert.equal(done.rollback, null);
  });

  test("a failing step runs the rollback handlers in reverse order; their steps and outcome are in the details", async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "saga-fail", params: { fail: true } });
    const failed = await waitStatus(edge, "saga", "saga-fail", "errored");
    assert.deepEqual(failed.error, { name: "Error", message: "kaboom" });
    assert.deepEqual(failed.rollback, { outcome: "complete", error: null });
    const rb = failed.steps.filter((s) => s.type === "rollback");
    assert.deepEqual(
      rb.map((s) => [s.name, s.success]),
      [
        ["charge", true],
        ["reserve", true],
      ],
    );
    assert.ok(rb[0].start <= rb[1].start);
    assert.equal(rb[0].attempts.length, 1);
    const keys = await kvKeys();
    assert.ok(keys.includes("undo:saga-fail:charge") && keys.includes("undo:saga-fail:reserve"), keys.join());
    const undo = await edge.call("GET", `/storage/kv/namespaces/${kv}/values/undo:saga-fail:reserve`, undefined, {
      raw: true,
    });
    assert.deepEqual(await undo.json(), { output: { seats: 2 }, error: "kaboom", stepName: "reserve-1" });
  });

  test("a rollback handler that fails stops the chain: outcome failed, with its error", async () => {
    await edge.call("POST", "/workflows/saga/instances", {
      instance_id: "saga-undo-fails",
      params: { fail: true, failUndo: true },
    });
    const failed = await waitStatus(edge, "saga", "saga-undo-fails", "errored");
    assert.deepEqual(failed.rollback, { outcome: "failed", error: { name: "Error", message: "refund failed" } });
    const rb = failed.steps.filter((s) => s.type === "rollback");
    assert.deepEqual(
      rb.map((s) => [s.name, s.success]),
      [["charge", false]],
    );
    assert.ok(!(await kvKeys()).includes("undo:saga-undo-fails:reserve"), "the chain stopped before reserve");
  });
});

describe("creating instances", () => {
  test("a create of an id that exists is 409 instance.already_exists (10405), and changes nothing", async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "dup-1", params: { seats: 5 } });
    const r = await edge.call("POST", "/workflows/saga/instances", { instance_id: "dup-1", params: { seats: 9 } });
    assert.equal(r.status, 409);
    assert.equal(r.body.errors[0].code, 10405);
    assert.match(r.body.errors[0].message, /instance\.already_exists/);
    assert.equal(r.headers.get("x-should-retry"), "false");
    assert.deepEqual((await waitStatus(edge, "saga", "dup-1", "complete")).params, { seats: 5 });
  });

  test("batch, object form: {instances} answers {created, errors} with the index of each refused entry", async () => {
    const r = await edge.call("POST", "/workflows/saga/instances/batch", {
      instances: [
        { instance_id: "dup-1" },
        { instance_id: "obj-1", params: { seats: 1 } },
        { id: "obj-1" },
        { params: { seats: 4 } },
      ],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const { created, errors } = r.body.result;
    assert.deepEqual(
      created.map((x) => x.status),
      ["queued", "queued"],
    );
    assert.equal(created[0].id, "obj-1");
    assert.match(created[1].id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      errors.map((e) => [e.index, e.id, e.code]),
      [
        [0, "dup-1", 10405],
        [2, "obj-1", 10415],
      ],
    );
    await waitStatus(edge, "saga", "obj-1", "complete");
    assert.deepEqual((await instance(edge, "saga", created[1].id)).params, { seats: 4 });
  });

  test("batch, object form: {count, params} creates count instances with generated ids", async () => {
    const r = await edge.call("POST", "/workflows/saga/instances/batch", { count: 3, params: { seats: 7 } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.result.created.length, 3);
    assert.deepEqual(r.body.result.errors, []);
    assert.equal(new Set(r.body.result.created.map((x) => x.id)).size, 3);
    for (const x of r.body.result.created) assert.deepEqual((await instance(edge, "saga", x.id)).params, { seats: 7 });
  });

  test("batch, array form kept: in order, refused whole (409) when an id exists", async () => {
    let r = await edge.call("POST", "/workflows/saga/instances/batch", [
      { instance_id: "arr-1" },
      { instance_id: "arr-2" },
    ]);
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.result.map((x) => x.id),
      ["arr-1", "arr-2"],
    );
    r = await edge.call("POST", "/workflows/saga/instances/batch", [{ instance_id: "arr-1" }]);
    assert.equal(r.status, 409);
    assert.equal(r.body.errors[0].code, 10405);
  });

  test("bounds: at most 100 a batch, count 1 to 100, reserved ids refused, unknown fields named", async () => {
    const cases = [
      [{ count: 101 }, /count must be a whole number from 1 to 100/],
      [{ count: 0 }, /count must be a whole number from 1 to 100/],
      [{ count: 2, instances: [] }, /unknown field 'instances' beside count/],
      [{ instances: Array.from({ length: 101 }, () => ({})) }, /1 to 100 entries/],
      [{ instances: [{ instance_id: "batch" }] }, /instances\[0\]\.instance_id 'batch' is invalid/],
      [{ instances: [{ params: "x".repeat(1 << 20) }] }, /instances\[0\]\.params/],
      [{}, /body must be/],
    ];
    for (const [body, message] of cases) {
      const r = await edge.call("POST", "/workflows/saga/instances/batch", body);
      assert.ok(r.status === 400 || r.status === 413, `${JSON.stringify(body).slice(0, 80)}: ${r.status}`);
      assert.match(r.body.errors[0].message, message);
    }
    const single = await edge.call("POST", "/workflows/saga/instances", { instance_id: "terminate" });
    assert.equal(single.status, 400);
  });
});

describe("deleting instances", () => {
  test("DELETE …/instances/{id} deletes the instance and its storage; it is gone from reads and lists", async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "del-1", params: { waitFor: "never" } });
    await waitStatus(edge, "saga", "del-1", "waiting");
    const files = instanceFiles("saga");
    const r = await edge.call("DELETE", "/workflows/saga/instances/del-1");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.result, { success: true });
    // (before any read of the id: a read opens the engine's storage for it, which leaves an empty file behind)
    await waitFor(() => filesGone(files, "saga") === 1, { what: "the instance's storage file to be gone" });
    assert.equal((await edge.call("GET", "/workflows/saga/instances/del-1")).status, 404);
    const list = await edge.call("GET", "/workflows/saga/instances?per_page=100");
    assert.ok(!list.body.result.some((x) => x.id === "del-1"));
    const again = await edge.call("DELETE", "/workflows/saga/instances/del-1");
    assert.equal(again.status, 404);
    assert.equal(again.body.errors[0].code, 10201);
  });

  test("POST …/instances/batch/delete: {deleted, errors} in order, an id named twice listed twice", async () => {
    await edge.call("POST", "/workflows/saga/instances/batch", [{ instance_id: "bd-1" }, { instance_id: "bd-2" }]);
    await waitStatus(edge, "saga", "bd-2", "complete");
    const r = await edge.call("POST", "/workflows/saga/instances/batch/delete", {
      instances: ["bd-1", "missing-1", "bd-2", "bd-1"],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.result.deleted, [{ id: "bd-1" }, { id: "bd-2" }, { id: "bd-1" }]);
    assert.deepEqual(r.body.result.errors, [
      { id: "missing-1", code: 10400, message: "workflows.api.error.instance.not_found" },
    ]);
    for (const id of ["bd-1", "bd-2"])
      assert.equal((await edge.call("GET", `/workflows/saga/instances/${id}`)).status, 404);
    for (const body of [
      { instances: [] },
      { instances: Array.from({ length: 101 }, (_, i) => `x-${i}`) },
      { instances: ["bad id"] },
      { ids: ["x"] },
    ]) {
      assert.equal(
        (await edge.call("POST", "/workflows/saga/instances/batch/delete", body)).status,
        400,
        JSON.stringify(body).slice(0, 60),
      );
    }
  });
});

describe("status changes", () => {
  test("restart from a step keeps the steps before it and runs the rest again", async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "rs-1" });
    const first = await waitStatus(edge, "saga", "rs-1", "complete");
    const before = Object.fromEntries(first.steps.map((s) => [s.name, s.start]));
    const r = await edge.call("PATCH", "/workflows/saga/instances/rs-1/status", {
      status: "restart",
      from: { name: "charge", count: 1, type: "do" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const again = await waitFor(
      async () => {
        const x = await instance(edge, "saga", "rs-1");
        const charge = x.steps.find((s) => s.name === "charge");
        return x.status === "complete" && charge && charge.start !== before.charge ? x : false;
      },
      { what: "rs-1 to complete again from charge" },
    );
    const now = Object.fromEntries(again.steps.map((s) => [s.name, s.start]));
    assert.equal(now.context, before.context);
    assert.equal(now.reserve, before.reserve);
    assert.notEqual(now.flaky, before.flaky);
  });

  test("bad restart and terminate bodies are refused with the field named", async () => {
    for (const [body, message] of [
      [{ status: "restart", from: "charge" }, /from must be an object/],
      [{ status: "restart", from: { name: "" } }, /from\.name/],
      [{ status: "restart", from: { name: "charge", count: 0 } }, /from\.count/],
      [{ status: "restart", from: { name: "charge", type: "step" } }, /from\.type/],
      [{ status: "restart", from: { name: "charge", extra: 1 } }, /unknown field 'extra'/],
      [{ status: "pause", from: { name: "charge" } }, /from is only for status restart/],
      [{ status: "terminate", rollback: "yes" }, /rollback is true or false/],
      [{ status: "pause", rollback: true }, /rollback is true or false/],
    ]) {
      const r = await edge.call("PATCH", "/workflows/saga/instances/rs-1/status", body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.errors[0].message, message);
    }
  });

  test("terminate with rollback runs the rollback handlers before the instance ends", async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "tr-1", params: { waitFor: "never" } });
    await waitStatus(edge, "saga", "tr-1", "waiting");
    const r = await edge.call("PATCH", "/workflows/saga/instances/tr-1/status", {
      status: "terminate",
      rollback: true,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const t = await waitStatus(edge, "saga", "tr-1", "terminated");
    assert.deepEqual(t.rollback, { outcome: "complete", error: null });
    assert.deepEqual(
      t.steps.filter((s) => s.type === "rollback").map((s) => s.name),
      ["charge", "reserve"],
    );
    assert.equal(t.steps.at(-1).type, "termination");
    assert.ok((await kvKeys()).includes("undo:tr-1:reserve"));
  });
});

describe("a step's full output", () => {
  before(async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "out-1", params: { waitFor: "go" } });
    // waiting for its event, past the flaky step's retries (the instance is also `waiting` while a retry backs off)
    await waitFor(async () => (await instance(edge, "saga", "out-1")).steps.some((s) => s.type === "waitForEvent"), {
      what: "instance out-1 to wait for its approval event",
    });
  });

  test("JSON output, a sensitive step's [REDACTED], one attempt's error", async () => {
    let r = await edge.call("GET", "/workflows/saga/instances/out-1/step?name=charge&type=step");
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.result, { status: "complete", error: null, output: { amount: 20 } });
    r = await edge.call("GET", "/workflows/saga/instances/out-1/step?name=token&type=step");
    assert.deepEqual(r.body.result, { status: "complete", error: null, output: "[REDACTED]" });
    r = await edge.call("GET", "/workflows/saga/instances/out-1/step?name=flaky&type=step&attempt=2");
    assert.deepEqual(r.body.result, { status: "errored", error: { name: "Error", message: "again" }, output: null });
    r = await edge.call("GET", "/workflows/saga/instances/out-1/step?name=flaky-1&type=step&attempt=3");
    assert.deepEqual(r.body.result.output, { tries: 3 }, "the name with its counter, as in the engine's logs");
  });

  test("a ReadableStream output is served as application/octet-stream", async () => {
    const res = await edge.call("GET", "/workflows/saga/instances/out-1/step?name=bytes&type=step", undefined, {
      raw: true,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/octet-stream");
    assert.equal(await res.text(), "hello stream");
  });

  test("a waitForEvent step is waiting until its event, then complete with the payload", async () => {
    let r = await edge.call("GET", "/workflows/saga/instances/out-1/step?name=approval&type=waitForEvent");
    assert.deepEqual(r.body.result, { status: "waiting", error: null, output: null });
    await edge.call("POST", "/workflows/saga/instances/out-1/events/go", { ok: true });
    await waitStatus(edge, "saga", "out-1", "complete");
    r = await edge.call("GET", "/workflows/saga/instances/out-1/step?name=approval&type=waitForEvent");
    assert.deepEqual(r.body.result, { status: "complete", error: null, output: { ok: true }, event_type: "go" });
  });

  test("bad lookups: no name, a step that does not exist, an attempt it never made", async () => {
    const cases = [
      ["", 400, 10001],
      ["?name=charge&type=sleep", 400, 10001],
      ["?name=nope", 404, 10204],
      ["?name=charge&count=2", 404, 10204],
      ["?name=charge&attempt=2", 404, 10204],
      ["?name=charge&attempt=0", 400, 10001],
    ];
    for (const [q, status, code] of cases) {
      const r = await edge.call("GET", `/workflows/saga/instances/out-1/step${q}`);
      assert.equal(r.status, status, q);
      assert.equal(r.body.errors[0].code, code, q);
    }
    assert.equal((await edge.call("GET", "/workflows/saga/instances/no-such/step?name=charge")).status, 404);
  });
});

describe("the instance event stream", () => {
  test("history in order with event ids; a cursor (or Last-Event-ID) starts after it; a sensitive output is redacted", async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "ev-1" });
    await waitStatus(edge, "saga", "ev-1", "complete");
    const all = await events(edge, "saga", "ev-1");
    assert.equal(all.status, 200);
    const types = all.events.map((e) => e.type);
    assert.equal(types[0], "workflow_queued");
    assert.equal(types.at(-1), "workflow_completed");
    assert.ok(types.includes("step_started") && types.includes("attempt_errored") && types.includes("step_completed"));
    for (let i = 1; i < all.events.length; i++) assert.ok(all.events[i].id > all.events[i - 1].id);
    const token = all.events.find((e) => e.type === "step_completed" && e.data.stepName === "token-1");
    assert.equal(token.data.output, "[REDACTED]");
    const stream = all.events.find((e) => e.type === "step_completed" && e.data.stepName === "bytes-1");
    assert.equal(stream.data.output_stream, true);
    const mid = all.events[5].id;
    const rest = await events(edge, "saga", "ev-1", { query: `?cursor=${mid}` });
    assert.deepEqual(
      rest.events.map((e) => e.id),
      all.events.filter((e) => e.id > mid).map((e) => e.id),
    );
    const resumed = await events(edge, "saga", "ev-1", { headers: { "Last-Event-ID": String(mid) } });
    assert.deepEqual(
      resumed.events.map((e) => e.id),
      rest.events.map((e) => e.id),
    );
  });

  test("live: events arrive as the instance runs; the stream ends with the instance; filter keeps only some types", async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "ev-live", params: { waitFor: "go" } });
    await waitStatus(edge, "saga", "ev-live", "waiting");
    // the event is sent once the stream has delivered the wait's start (from the history): what follows is live
    const got = await events(edge, "saga", "ev-live", {
      query: "?filter=wait_started,wait_completed&filter=workflow_completed",
      onEvent: async (ev) => {
        if (ev.type === "wait_started")
          assert.equal((await edge.call("POST", "/workflows/saga/instances/ev-live/events/go", { ok: 1 })).status, 200);
      },
    });
    assert.deepEqual(
      got.events.map((e) => e.type),
      ["wait_started", "wait_completed", "workflow_completed"],
    );
    assert.equal(got.events[2].data.instanceId, "ev-live");
    assert.equal(got.events[2].data.output.text, "hello stream");
  });

  test("bad input: a filter that is no event type, a cursor that is no event id, an unknown instance", async () => {
    let r = await events(edge, "saga", "ev-1", { query: "?filter=step_done" });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /filter: 'step_done'/);
    r = await events(edge, "saga", "ev-1", { query: "?cursor=-1" });
    assert.equal(r.status, 400);
    r = await events(edge, "saga", "no-such-instance");
    assert.equal(r.status, 404);
  });

  test("attack: the streams an account may hold open are bounded (429); twin: a stream closed frees its place", async () => {
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "ev-hold", params: { waitFor: "never" } });
    await waitStatus(edge, "saga", "ev-hold", "waiting");
    const open = [];
    for (let i = 0; i < 3; i++) {
      const ctl = new AbortController();
      const res = await fetch(`${edge.account}/workflows/saga/instances/ev-hold/subscribe`, {
        headers: { authorization: `Bearer ${edge.token}` },
        signal: ctl.signal,
      });
      assert.equal(res.status, 200);
      open.push(ctl);
    }
    const refused = await events(edge, "saga", "ev-hold");
    assert.equal(refused.status, 429);
    assert.equal(refused.body.errors[0].code, 10429);
    open.pop().abort();
    const admitted = await waitFor(
      async () => {
        const r = await events(edge, "saga", "ev-hold", { until: 1 });
        return r.status === 200 ? r : false;
      },
      { what: "a place for a stream after one closed" },
    );
    assert.equal(admitted.events[0].type, "workflow_queued");
    for (const ctl of open) ctl.abort();
  });

  test("attack: another account's token cannot subscribe to, read the steps of or delete this account's instances", async () => {
    const p = await provision(edge, { name: "Other", ref: "other-2026" });
    const other = asAccount(edge, p.body);
    const path = `${edge.account}/workflows/saga/instances/ev-1`;
    const sub = await fetch(`${path}/subscribe`, { headers: { authorization: `Bearer ${other.token}` } });
    assert.equal(sub.status, 403);
    for (const [method, url, body] of [
      ["GET", `${path}/step?name=charge`],
      ["DELETE", path],
      ["POST", `${edge.account}/workflows/saga/instances/batch/delete`, { instances: ["ev-1"] }],
      ["POST", `${edge.account}/workflows/saga/instances/batch`, { count: 1 }],
    ]) {
      const r = await other.call(method, url, body);
      assert.equal(r.status, 403, `${method} ${url}`);
    }
    assert.equal((await edge.call("GET", "/workflows/saga/instances/ev-1")).status, 200, "the owner still reads it");
  });
});

describe("retention", () => {
  test("default_retention on the Workflow: an expired instance is hidden, then deleted with its storage by the sweep", async () => {
    let r = await edge.call("PUT", "/workflows/saga", {
      script_name: "saga",
      class_name: "Saga",
      default_retention: { success_retention: 1000, error_retention: "1 hour" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.result.default_retention, { success_retention: 1000, error_retention: 3600000 });
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "ret-ok" });
    await edge.call("POST", "/workflows/saga/instances", {
      instance_id: "ret-keep",
      instance_retention: { success_retention: "1 day" },
    });
    await edge.call("POST", "/workflows/saga/instances", { instance_id: "ret-err", params: { fail: true } });
    await waitStatus(edge, "saga", "ret-keep", "complete");
    await waitStatus(edge, "saga", "ret-err", "errored");
    await waitFor(async () => (await edge.call("GET", "/workflows/saga/instances/ret-ok")).status === 404, {
      what: "ret-ok to expire",
    });
    const files = instanceFiles("saga");
    const deleted = await sweepRetention(edge);
    const ids = deleted.map((d) => d.id);
    assert.ok(ids.includes("ret-ok"), JSON.stringify(deleted));
    assert.ok(
      !ids.includes("ret-keep") && !ids.includes("ret-err"),
      "an instance's own retention, and the error retention, keep them",
    );
    // At least the swept instances' files go (a file of another instance, such as a SQLite journal closed
    // meanwhile, may go too: the count is a floor, and ret-keep is read below).
    await waitFor(() => filesGone(files, "saga") >= ids.length, { what: "the expired instances' storage to be gone" });
    assert.equal((await edge.call("GET", "/workflows/saga/instances/ret-keep")).status, 200);
    r = await edge.call("PUT", "/workflows/saga", { script_name: "saga", class_name: "Saga", default_retention: null });
    assert.equal(r.body.result.default_retention, undefined);
  });

  test("bad retention is refused with the field named; the sweep is the root token's", async () => {
    const r = await edge.call("PUT", "/workflows/saga", {
      script_name: "saga",
      class_name: "Saga",
      default_retention: { success_retention: "31 days" },
    });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /default_retention\.success_retention is longer than the 30 days/);
    const p = await provision(edge, { name: "Sweeper", ref: "sweeper" });
    const base = edge.ready.api.replace("/client/v4", "");
    const res = await fetch(`${base}/__edge/retention`, {
      method: "POST",
      headers: { authorization: `Bearer ${p.body.token}` },
    });
    assert.equal(res.status, 401);
  });
});

describe("terminating every instance (last: it ends whatever still runs)", () => {
  test("PUT …/instances/terminate starts a job that terminates every unfinished instance; status narrows it", async () => {
    await edge.call("POST", "/workflows/saga/instances/batch", [
      { instance_id: "ta-1", params: { waitFor: "never" } },
      { instance_id: "ta-2", params: { waitFor: "never" } },
    ]);
    await waitStatus(edge, "saga", "ta-1", "waiting");
    await waitStatus(edge, "saga", "ta-2", "waiting");
    assert.equal((await edge.call("PUT", "/workflows/saga/instances/terminate?status=done")).status, 400);
    const r = await edge.call("PUT", "/workflows/saga/instances/terminate");
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(["ok", "already_running"].includes(r.body.result.status));
    await waitStatus(edge, "saga", "ta-1", "terminated");
    await waitStatus(edge, "saga", "ta-2", "terminated");
    assert.equal((await instance(edge, "saga", "ret-keep")).status, "complete", "a finished instance stays as it was");
  });
});
