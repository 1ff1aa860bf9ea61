// EngineUse's hold for a backup (src/engineuse.mjs, freeze/thaw): the edge copies its instance index before the
// Workflow engines, so a delete must neither be under way nor start between the two (decision 640).
import assert from "node:assert/strict";
import { test } from "node:test";
import { EngineUse } from "../src/engineuse.mjs";

// turn lets every pending callback run (one turn of the event loop).
const turn = () => new Promise((resolve) => setImmediate(resolve));

test("freeze waits for the delete calls under way and holds new ones, the archive's too, until thaw", async () => {
  const u = new EngineUse();
  let endFirst;
  const first = u.deleteCall(() => new Promise((resolve) => (endFirst = resolve)));
  await turn();
  let frozen = false;
  const freezing = u.freeze().then(() => (frozen = true));
  await turn();
  assert.equal(frozen, false, "a delete is under way");

  const ran = [];
  const second = u.deleteCall(async () => ran.push("api delete"));
  endFirst("first");
  assert.equal(await first, "first");
  await freezing;
  assert.equal(frozen, true);

  const third = u.deleting("wf", "i1", async () => ran.push("archive delete"));
  await turn();
  assert.deepEqual(ran, [], "no delete starts while frozen");
  // other engine calls are not held
  assert.deepEqual(u.keep("wf", ["i2"]), ["i2"]);
  u.release("wf", ["i2"]);

  u.thaw();
  await Promise.all([second, third]);
  assert.deepEqual(ran.sort(), ["api delete", "archive delete"]);
});
