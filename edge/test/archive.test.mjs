// Finished Workflow instances leave the engine for the edge's archive (docs/edge.md, "Finished instances are
// archived"; decision 470): once archived, an instance's storage file is gone from workerd, and describe, list, a
// step's output, the event stream, restart and delete answer as before. Instances that sleep or wait stay.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, test } from "node:test";
import { deployDemo, instance, startEdge, waitFor, waitStatus } from "./helpers.mjs";

let edge;

// purged reports whether the edge deleted instance id from the engine (its index says so, in archive.sqlite).
function purged(id) {
  const db = new DatabaseSync(path.join(edge.dataDir, "archive.sqlite"), { readOnly: true });
  try {
    const row = db.prepare("SELECT body FROM instances WHERE id = ?").get(id);
    return row !== undefined && JSON.parse(row.body).purged === true;
  } finally {
    db.close();
  }
}

// instanceFiles counts the storage files of workflow wf's instances in the engine (one an instance).
function instanceFiles(wf) {
  const dir = path.join(edge.dataDir, "miniflare", "workflows", `miniflare-workflows-${wf}`);
  return fs.readdirSync(dir).filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite").length;
}

async function streamEvents(wf, id, query = "") {
  const res = await fetch(
    `${edge.ready.api}/accounts/${edge.ready.accountId}/workflows/${wf}/instances/${id}/subscribe${query}`,
    {
      headers: { authorization: `Bearer ${edge.token}` },
    },
  );
  assert.equal(res.status, 200);
  const text = await res.text(); // an archived instance's stream ends after its history
  return text
    .split("\n\n")
    .filter((b) => b.includes("data: "))
    .map((b) => {
      const f = Object.fromEntries(b.split("\n").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)]));
      return { id: Number(f.id), type: f.event };
    });
}

before(async () => {
  edge = await startEdge({ env: { EDGEFLOW_EDGE_ARCHIVE_SWEEP_MS: "300", EDGEFLOW_EDGE_ARCHIVE_KEEP: "0" } });
  await deployDemo(edge, "arch");
});

after(async () => {
  await edge?.stop();
});

test("a finished instance is archived: its storage goes, every read answers as before", async () => {
  const created = await edge.call("POST", "/workflows/arch/instances", { instance_id: "done-1", params: { n: 4 } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const live = await waitStatus(edge, "arch", "done-1", "complete");
  const liveEvents = await streamEvents("arch", "done-1");
  // nobody reads it again: the archive sweep finds it and deletes it from the engine
  await waitFor(() => purged("done-1") && instanceFiles("arch") === 0, {
    what: "the instance and its storage file to go",
  });
  const kept = await instance(edge, "arch", "done-1");
  assert.deepEqual({ ...kept, log_lines: 0 }, { ...live, log_lines: 0 });
  assert.deepEqual(kept.output.b, { m: 9, greeting: null });
  const step = await edge.call("GET", "/workflows/arch/instances/done-1/step?name=first");
  assert.equal(step.status, 200);
  assert.deepEqual(step.body.result, { status: "complete", error: null, output: { n: 8 } });
  const missing = await edge.call("GET", "/workflows/arch/instances/done-1/step?name=nope");
  assert.equal(missing.status, 404);
  const evs = await streamEvents("arch", "done-1");
  assert.deepEqual(evs, liveEvents);
  assert.equal(evs.at(-1).type, "workflow_completed");
  const after2 = await streamEvents("arch", "done-1", `?cursor=${evs[1].id}`);
  assert.deepEqual(after2, evs.slice(2));
  const list = await edge.call("GET", "/workflows/arch/instances?status=complete");
  assert.ok(list.body.result.some((x) => x.id === "done-1" && x.status === "complete" && x.ended_on));
  const ev = await edge.call("POST", "/workflows/arch/instances/done-1/events/go", {});
  assert.equal(ev.status, 409);
});

test("a sleeping or waiting instance is not archived; it is once it ends", async () => {
  await edge.call("POST", "/workflows/arch/instances", { instance_id: "wait-1", params: { waitFor: "approve" } });
  await edge.call("POST", "/workflows/arch/instances", { instance_id: "done-2" });
  await waitStatus(edge, "arch", "wait-1", "waiting");
  await waitStatus(edge, "arch", "done-2", "complete");
  // done-2 ended after wait-1 began to wait: once it is archived, the sweeps have passed wait-1 by
  await waitFor(() => purged("done-2"), { what: "done-2 archived" });
  assert.equal(purged("wait-1"), false);
  assert.equal(instanceFiles("arch"), 1);
  assert.equal((await instance(edge, "arch", "wait-1")).status, "waiting");
  const sent = await edge.call("POST", "/workflows/arch/instances/wait-1/events/approve", { ok: 1 });
  assert.equal(sent.status, 200);
  const done = await waitStatus(edge, "arch", "wait-1", "complete");
  assert.deepEqual(done.output.approved, { ok: 1 });
  await waitFor(() => purged("wait-1") && instanceFiles("arch") === 0, { what: "wait-1 archived" });
  assert.deepEqual((await instance(edge, "arch", "wait-1")).output.approved, { ok: 1 });
});

test("an archived instance restarts from its start (not from a step), and is deleted like any other", async () => {
  await edge.call("POST", "/workflows/arch/instances", { instance_id: "again-1", params: { n: 1 } });
  const first = await waitStatus(edge, "arch", "again-1", "complete");
  await waitFor(() => purged("again-1"), { what: "again-1 archived" });
  const fromStep = await edge.call("PATCH", "/workflows/arch/instances/again-1/status", {
    status: "restart",
    from: { name: "second" },
  });
  assert.equal(fromStep.status, 409);
  assert.match(fromStep.body.errors[0].message, /archived/);
  const restart = await edge.call("PATCH", "/workflows/arch/instances/again-1/status", { status: "restart" });
  assert.equal(restart.status, 200, JSON.stringify(restart.body));
  const done = await waitFor(
    async () => {
      const r = await instance(edge, "arch", "again-1");
      return r.status === "complete" && !purged("again-1")
        ? r
        : r.status === "complete" && r.end > first.end
          ? r
          : false;
    },
    { what: "again-1 to complete again" },
  );
  assert.deepEqual(done.output.a, { n: 2 });
  await waitFor(() => purged("again-1"), { what: "again-1 archived again" });
  const del = await edge.call("DELETE", "/workflows/arch/instances/again-1");
  assert.equal(del.status, 200);
  assert.equal((await edge.call("GET", "/workflows/arch/instances/again-1")).status, 404);
  assert.equal((await edge.call("DELETE", "/workflows/arch/instances/again-1")).status, 404);
});
