// Finished instances wait in the engine while their Workflow is busy (api/archive.mjs, decision 795): beyond
// ARCHIVE_KEEP per Workflow, up to ARCHIVE_BUSY_KEEP of an account's finished instances are archived later, once
// instances stop ending, and at once when a workerd that runs the Workflow is past half its bounds or the count is
// reached. The archive's queue is looked at directly (the account context is a plain object here, with every archive
// slot taken, so that nothing is archived while the test counts).

import assert from "node:assert/strict";
import { test } from "node:test";

process.env.EDGEFLOW_EDGE_ARCHIVE_KEEP = "1";
process.env.EDGEFLOW_EDGE_ARCHIVE_BUSY_KEEP = "3";
process.env.EDGEFLOW_EDGE_ARCHIVE_BUSY_MS = "60000";
const { archiveSoon, trimEnded } = await import("../src/api/archive.mjs");

// context is an account context whose workerds have room (or not), with its archive queue held.
function context(room = true) {
  const ctx = {
    recentlyEnded: new Map(),
    endedAt: new Map(),
    archiving: new Map(),
    archiveQueue: [],
    archiveActive: 8, // every slot taken: what is queued stays queued
    archiveWaiters: [],
    registry: { instanceRecord: () => null },
    runtime: { hasRoom: () => ctx.room },
    room,
  };
  return ctx;
}
const queued = (ctx) => ctx.archiveQueue.map(([rt, id]) => `${rt}/${id}`);
const end = (ctx, rt, ...ids) => ids.forEach((id) => archiveSoon(ctx, rt, id));

test("while a Workflow is busy its finished instances wait, up to the account's count, the oldest archived first", () => {
  const ctx = context();
  end(ctx, "a", "a0", "a1", "a2", "a3", "a4", "a5");
  // 1 kept + 3 waiting: the two that ended first are archived
  assert.deepEqual(queued(ctx), ["a/a0", "a/a1"]);
  // the count is the account's: another Workflow's finished instances share it (the one whose end passes the count
  // has its own oldest archived)
  end(ctx, "b", "b0", "b1");
  assert.deepEqual(queued(ctx), ["a/a0", "a/a1", "b/b0"]);
  // an instance found ended twice counts once
  end(ctx, "b", "b1");
  assert.deepEqual(queued(ctx), ["a/a0", "a/a1", "b/b0"]);
});

test("a workerd past half its bounds, or a quiet Workflow, has them archived at once, down to ARCHIVE_KEEP", () => {
  const ctx = context();
  end(ctx, "a", "a0", "a1", "a2");
  assert.deepEqual(queued(ctx), []);
  ctx.room = false;
  end(ctx, "a", "a3");
  assert.deepEqual(queued(ctx), ["a/a0", "a/a1", "a/a2"]);
  // room again: they wait again; once no instance of the Workflow ended for the busy time, the sweep archives them
  ctx.room = true;
  end(ctx, "a", "a4", "a5");
  assert.deepEqual(queued(ctx), ["a/a0", "a/a1", "a/a2"]);
  trimEnded(ctx, "a");
  assert.deepEqual(queued(ctx), ["a/a0", "a/a1", "a/a2"]);
  ctx.endedAt.set("a", Date.now() - 60000);
  trimEnded(ctx, "a");
  assert.deepEqual(queued(ctx), ["a/a0", "a/a1", "a/a2", "a/a3", "a/a4"]);
});
