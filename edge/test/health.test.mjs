// The edge's /readyz rule (src/health.mjs; docs/edge.md, "Errors of workerd"; decision 479), without starting
// anything: a group that met a blocking error fails until an instance of it ends after the error, or it restarted and
// its revive sweep found nothing to run; a restart alone, an instance that ended before the error, or an error that
// does not block leave the answer as it was. The running edge's path (edgeflow's log, metric and /readyz under a low
// file limit, a group restart) is TestEdgeFaultInstanceOpens in internal/e2e.

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import path from "node:path";
import { Health, classify, thrownByJavaScript } from "../src/health.mjs";
import { shardOf } from "../src/plan.mjs";
import { Registry } from "../src/registry.mjs";
import { Runtime } from "../src/runtime.mjs";
import { tempDir } from "./helpers.mjs";

// health answers a Health whose edge-error lines are collected in lines.
function health() {
  const lines = [];
  return { h: new Health((line) => lines.push(line)), lines };
}

describe("a group's readiness", () => {
  test("fails from a blocking error until an instance ends after it", () => {
    const { h, lines } = health();
    assert.deepEqual(h.report(), []);
    const before = Date.now() - 1;
    h.error("g1", "sqlite_cantopen", "SQLITE_CANTOPEN: unable to open database file", ["acct"]);
    assert.deepEqual(JSON.parse(lines[0].slice("edge-error ".length)), {
      kind: "sqlite_cantopen",
      group: "g1",
      accounts: ["acct"],
      message: "SQLITE_CANTOPEN: unable to open database file",
    });
    const [f] = h.report();
    assert.equal(f.group, "g1");
    assert.equal(f.kind, "sqlite_cantopen");
    assert.equal(f.restarted, false);
    assert.deepEqual(f.accounts, ["acct"]);
    // an instance that ended before the error shows nothing; another group's instance neither
    h.ran("g1", before - 1000);
    h.ran("g2", Date.now() + 1000);
    assert.equal(h.report().length, 1);
    // one that ended after it does
    h.ran("g1", Date.now() + 1);
    assert.deepEqual(h.report(), []);
  });

  test("a restart alone does not clear it; a revive sweep with nothing to run after the restart does", () => {
    const { h } = health();
    h.error("g1", "fd_limit", "Too many open files", []);
    // a sweep that found nothing before any restart says nothing: the failing workerd still runs
    h.idle("g1");
    assert.equal(h.report().length, 1);
    h.restarted("g1");
    assert.equal(h.report()[0].restarted, true);
    h.idle("g1");
    assert.deepEqual(h.report(), []);
  });

  test("a new blocking error after a restart fails the group again", () => {
    const { h } = health();
    h.error("g1", "sqlite_nomem", "out of memory: SQLITE_NOMEM", []);
    h.restarted("g1");
    h.error("g1", "sqlite_cantopen", "SQLITE_CANTOPEN", []);
    const [f] = h.report();
    assert.equal(f.kind, "sqlite_cantopen");
    assert.equal(f.restarted, false);
    h.idle("g1");
    assert.equal(h.report().length, 1);
  });

  test("errors that do not block are written and counted, and the group stays ready", () => {
    const { h, lines } = health();
    h.error("g1", "runtime", "workerd/io/worker.c++:1: error: something", []);
    h.error("g1", "miniflare", "a miniflare error", []);
    assert.deepEqual(h.report(), []);
    assert.equal(lines.length, 2);
    assert.equal(h.counts.get("runtime"), 1);
    assert.equal(h.counts.get("miniflare"), 1);
  });

  test("a long message is cut in its line and its report", () => {
    const { h, lines } = health();
    h.error("g1", "fatal", "*** Fatal " + "x".repeat(5000), []);
    const msg = JSON.parse(lines[0].slice("edge-error ".length)).message;
    assert.ok(msg.length <= 2001, `message of ${msg.length} characters`);
    assert.equal(h.report()[0].message, msg);
  });
});

describe("classify", () => {
  test("kinds of workerd's lines; a worker's console output is none", () => {
    assert.equal(classify("error", "workerd/util/sqlite.c++:1: out of memory: SQLITE_NOMEM"), "sqlite_nomem");
    assert.equal(classify("error", "SQLITE_CANTOPEN: unable to open database file"), "sqlite_cantopen");
    assert.equal(classify("error", "accept(): Too many open files"), "fd_limit");
    assert.equal(classify("error", "*** Fatal uncaught kj::Exception: boom"), "fatal");
    assert.equal(classify("info", "workerd/server/server.c++:12: error: bad"), "runtime");
    assert.equal(classify("info", "console.log from a step: error: not ours"), null);
    assert.equal(classify("error", "Error: a step threw"), null);
  });

  test("attack: an uncaught exception of a worker is none, whatever its message says (decision 804)", () => {
    for (const message of [
      "Too many open files thrown",
      "SQLITE_CANTOPEN: unable to open database file",
      "*** Fatal uncaught kj::Exception",
      "workerd/util/sqlite.c++:1: out of memory: SQLITE_NOMEM",
    ]) {
      const line = `Uncaught exception: workerd/jsg/value.h:1456: failed: remote.jsg.Error: ${message}`;
      assert.equal(thrownByJavaScript(line), true, line);
      assert.equal(classify("error", line), null, line);
    }
    assert.equal(classify("error", "Uncaught exception: workerd/jsg/value.h:1: failed: jsg.TypeError: EMFILE"), null);
    // twin: the runtime's own records of the same faults keep their kinds
    assert.equal(
      classify("error", "e = workerd/util/sqlite.c++:663: failed: unable to open database file: SQLITE_CANTOPEN"),
      "sqlite_cantopen",
    );
    assert.equal(
      classify(
        "error",
        "*** Uncaught exception ***\nworkerd/server/server/entry.rs:143: overloaded: accept(): Too many open files (os error 24)",
      ),
      "fd_limit",
    );
  });
});

describe("a shard's readiness", () => {
  test("clears when an instance of that shard ends after its error, not one of another shard", () => {
    const dir = tempDir();
    const runtime = new Runtime({
      registry: new Registry(dir),
      persistDir: path.join(dir, "miniflare"),
      logger: () => {},
      shards: null,
    });
    // the groups as a plan of Workflow "wf" in two shards leaves them (groups.mjs, realize)
    runtime.groups.owner.wf.set("wf", "g1");
    runtime.groups.shards = new Map([["wf", ["g1", "g1~1"]]]);
    // an instance id of shard k, noted there as a create through a worker notes it
    const inShard = (k) => {
      for (let i = 0; ; i++) {
        if (shardOf(`id-${i}`, 2) !== k) continue;
        runtime.noteShard("wf", `id-${i}`, k);
        return `id-${i}`;
      }
    };
    const h = runtime.groups.health;
    h.error("g1~1", "fd_limit", "Too many open files", []);
    const at = h.failing.get("g1~1").at;
    // an instance of shard 0 that ends proves nothing of shard 1
    runtime.instanceEnded("wf", at + 1, inShard(0));
    assert.deepEqual(
      h.report().map((f) => f.group),
      ["g1~1"],
    );
    runtime.instanceEnded("wf", at + 1, inShard(1));
    assert.deepEqual(h.report(), []);
  });
});
