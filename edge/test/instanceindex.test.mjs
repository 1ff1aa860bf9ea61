// The instance index lives on disk (instanceindex.mjs; docs/edge.md, "The instance index"): the records the edge
// keeps of Workflow instances survive a restart, the sweeps' selections answer from SQL, and an older edge's
// instances.jsonl is moved into it once.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { Registry } from "../src/registry.mjs";
import { tempDir } from "./helpers.mjs";

const rec = (id, fields = {}) => ({
  workflow: "wf",
  id,
  source: "api",
  created_on: "2026-12-07T00:00:00.000Z",
  version_id: "v1",
  status: "queued",
  ...fields,
});

test("records are kept on disk: updates, order of first sight, deletes and a restart", () => {
  const dir = tempDir();
  let r = new Registry(dir);
  r.recordInstance(rec("a"));
  r.recordInstance(rec("b"));
  r.recordInstance(rec("c", { workflow: "other" }));
  r.setStatus("wf", "a", "complete");
  r.noteInstance("wf", "a", { ended_on: "2026-12-07T00:00:01.000Z", retention: undefined });
  r.recordInstance(rec("b", { status: "running" })); // a replaced record keeps its place
  const copy = r.instanceRecord("wf", "a");
  copy.status = "errored"; // a copy: the index changes only through the registry
  assert.equal(r.instanceRecord("wf", "a").status, "complete");
  assert.deepEqual(
    [...r.instances.records("wf")].map((x) => [x.id, x.status]),
    [
      ["a", "complete"],
      ["b", "running"],
    ],
  );
  assert.deepEqual(r.unfinishedOf("wf"), ["b"]);
  r.forgetInstance("wf", "b");
  assert.equal(r.instanceRecord("wf", "b"), undefined);
  r.close();

  r = new Registry(dir);
  assert.deepEqual(r.instanceRecord("wf", "a"), {
    ...rec("a", { status: "complete" }),
    ended_on: "2026-12-07T00:00:01.000Z",
  });
  assert.deepEqual(r.instances.workflows().sort(), ["other", "wf"]);
  r.forgetWorkflowInstances("other");
  assert.deepEqual(r.instances.workflows(), ["wf"]);
  assert.equal(r.instances.count(), 1);
  r.close();
});

test("the sweeps' selections: archivable, held shard, per shard in the engine, retention", () => {
  const r = new Registry(tempDir());
  r.recordInstance(rec("done0", { status: "complete" }));
  r.recordInstance(rec("done1", { status: "errored", shard: 1 }));
  r.recordInstance(rec("streamed", { status: "complete", streamed: true, shard: 1 }));
  r.recordInstance(rec("purged", { status: "terminated", purged: true, archived: true, shard: 2 }));
  r.recordInstance(rec("running", { status: "running", shard: 1 }));
  assert.deepEqual(r.instances.archivable("wf"), ["done0", "done1"]);
  assert.deepEqual(r.instances.archivable("wf", 1), ["done1"]);
  assert.equal(r.instances.heldShard("wf"), 1, "a purged instance holds no shard");
  assert.equal(r.instances.heldShard("none"), -1);
  assert.deepEqual(
    r.instances.inEngine("wf"),
    new Map([
      [0, 1],
      [1, 3],
    ]),
  );
  assert.equal(r.instances.hasRetention("wf"), false);
  r.noteInstance("wf", "done0", { retention: { success_ms: 86400000, error_ms: 86400000 } });
  assert.equal(r.instances.hasRetention("wf"), true);
  r.noteInstance("wf", "done1", { purged: true });
  assert.deepEqual(r.instances.archivable("wf"), ["done0"]);
  r.setStatus("wf", "running", "complete");
  assert.deepEqual(r.unfinishedOf("wf"), []);
  r.close();
});

test("an older edge's instances.jsonl is moved into the index on the first start, torn last line and all", () => {
  const dir = tempDir();
  const lines = [
    rec("a"),
    rec("b"),
    { workflow: "wf", id: "a", status: "complete" },
    { workflow: "wf", id: "a", status: "complete", ended_on: "2026-12-07T00:00:02.000Z" },
    { workflow: "wf", id: "b", deleted: true },
    rec("c", { status: "running" }),
  ].map((l) => JSON.stringify(l));
  fs.writeFileSync(path.join(dir, "instances.jsonl"), `${lines.join("\n")}\n{"workflow":"wf","id":"c","sta`);
  const r = new Registry(dir);
  assert.equal(fs.existsSync(path.join(dir, "instances.jsonl")), false, "the file is gone once moved");
  assert.deepEqual(
    [...r.instances.records("wf")].map((x) => [x.id, x.status, x.ended_on ?? null]),
    [
      ["a", "complete", "2026-12-07T00:00:02.000Z"],
      ["c", "running", null],
    ],
  );
  assert.deepEqual(r.unfinishedOf("wf"), ["c"]);
  r.close();
});

test("lists page in SQL: statuses, dates, direction, cursor, offset, and retention that ran out", () => {
  const r = new Registry(tempDir());
  const at = (s) => new Date(Date.UTC(2026, 11, 7, 0, 0, s)).toISOString();
  r.recordInstance(rec("a", { created_on: at(1), status: "complete", ended_on: at(2) }));
  r.recordInstance(rec("b", { created_on: at(2), status: "errored", ended_on: at(3) }));
  r.recordInstance(rec("c", { created_on: at(2), status: "running" }));
  r.recordInstance(
    rec("d", {
      created_on: at(3),
      status: "complete",
      ended_on: at(4),
      retention: { success_ms: 1000, error_ms: 5000 },
    }),
  );
  r.recordInstance(rec("e", { created_on: undefined, status: "queued" }));
  const now = Date.parse(at(10));
  const ids = (q) => r.instances.page("wf", { now, keep: null, limit: 10, ...q }).map((x) => x.id);
  // d finished at 4 s with 1 s to keep after a success: gone at 10 s
  assert.deepEqual(ids({ desc: true }), ["c", "b", "a", "e"]);
  assert.deepEqual(ids({ desc: false }), ["e", "a", "b", "c"]);
  assert.equal(r.instances.total("wf", { now, keep: null }), 4);
  assert.deepEqual(ids({ desc: true, now: Date.parse(at(4)) }), ["d", "c", "b", "a", "e"], "not yet expired");
  // the workflow's default retention for rows without their own: 2 s after a success, 20 s after an error
  assert.deepEqual(ids({ desc: true, keep: { success: 2000, error: 20000 } }), ["c", "b", "e"]);
  assert.deepEqual(r.instances.expired("wf", now, { success: 2000, error: 20000 }), ["a", "d"]);
  assert.deepEqual(r.instances.expired("wf", now, null), ["d"]);
  assert.deepEqual(ids({ desc: true, statuses: ["complete", "errored"] }), ["b", "a"]);
  assert.deepEqual(ids({ desc: true, dateStart: at(2), dateEnd: at(2) }), ["c", "b"]);
  assert.deepEqual(ids({ desc: true, after: { created_on: at(2), id: "c" } }), ["b", "a", "e"]);
  assert.deepEqual(ids({ desc: false, after: { created_on: null, id: "e" } }), ["a", "b", "c"]);
  assert.deepEqual(ids({ desc: true, offset: 1, limit: 2 }), ["b", "a"]);
  assert.equal(r.instances.total("wf", { now, keep: null, statuses: ["complete"] }), 1);
  assert.deepEqual(
    r.instances.statusCounts("wf", now, null),
    new Map([
      ["complete", 1],
      ["errored", 1],
      ["running", 1],
      ["queued", 1],
    ]),
  );
  assert.deepEqual(
    r.instances.summaries("wf", ["running", "queued"]).map((x) => [x.id, x.status, x.created_on]),
    [
      ["c", "running", at(2)],
      ["e", "queued", ""],
    ],
  );
  r.close();
});

test("the writes of one turn of the event loop are one transaction: read at once here, by others once committed", async () => {
  const dir = tempDir();
  const r = new Registry(dir);
  const { DatabaseSync } = await import("node:sqlite");
  const other = new DatabaseSync(path.join(dir, "archive.sqlite"), { readOnly: true });
  const count = () => Number(other.prepare("SELECT count(*) AS n FROM instances").get().n);
  try {
    r.recordInstance(rec("t1"));
    r.setStatus("wf", "t1", "running");
    r.recordInstance(rec("t2"));
    // this connection reads them at once; another (a backup's) once the turn is over
    assert.equal(r.instanceRecord("wf", "t1").status, "running");
    assert.equal(count(), 0);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(count(), 2);
    // save (a backup writes the registry out first) commits what this turn wrote so far
    r.recordInstance(rec("t3"));
    r.save();
    assert.equal(count(), 3);
  } finally {
    other.close();
    r.close();
  }
});
