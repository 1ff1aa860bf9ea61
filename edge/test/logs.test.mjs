// Worker log capture (logs.mjs) and tail sessions (tail.mjs): console lines and exceptions kept per worker with
// the instance id of workflow runs, ring limits, and the trace items a tail websocket carries.

import assert from "node:assert/strict";
import crypto from "node:crypto";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import { WorkerLogs, RING_LINES, LINE_BYTES, TRACED_FRESH_MS, formatMessage } from "../src/logs.mjs";
import { passes } from "../src/tail.mjs";
import { asAccount, provision, startEdge, upload, waitFor, waitStatus } from "./helpers.mjs";

const SOURCE = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class LogFlow extends WorkflowEntrypoint {
  async run(event, step) {
    console.log("run begins", event.payload.tag);
    await step.do("work", async () => { console.warn("working on", event.payload.tag); return 1; });
    await step.sleep("pause", event.payload.sleepMs ?? 10);
    console.info("run ends", event.payload.tag);
    if (event.payload.fail) throw new RangeError("failed " + event.payload.tag);
    return event.payload.tag;
  }
}
export default {
  async fetch(req, env) {
    const url = new URL(req.url);
    console.log("fetch", url.pathname, { q: url.search });
    if (url.pathname === "/throw") throw new TypeError("no such thing");
    return new Response("ok");
  },
};
`;

let edge;
before(async () => {
  edge = await startEdge();
  const up = await upload(edge, "logger", {
    source: SOURCE,
    bindings: [{ type: "workflow", name: "WF", workflow_name: "logflow", class_name: "LogFlow" }],
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  assert.equal(
    (await edge.call("PUT", "/workflows/logflow", { script_name: "logger", class_name: "LogFlow" })).status,
    200,
  );
  assert.equal((await edge.call("POST", "/workers/scripts/logger/subdomain", { enabled: true })).status, 200);
  const quiet = await upload(edge, "quiet", { source: "export default { fetch() { return new Response('shh'); } };" });
  assert.equal(quiet.status, 200, JSON.stringify(quiet.body));
  assert.equal((await edge.call("POST", "/workers/scripts/quiet/subdomain", { enabled: true })).status, 200);
});

const edgeStats = () => edge.stats();
after(async () => {
  await edge?.stop();
});

// openTail opens a tail websocket as wrangler does (subprotocol trace-v1) with node:http and collects the text
// messages; Node 20 has no WebSocket client without a flag.
function openTail(url, protocol = "trace-v1") {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = http.request({
      host: u.hostname,
      port: u.port,
      path: u.pathname,
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": crypto.randomBytes(16).toString("base64"),
        "sec-websocket-protocol": protocol,
      },
    });
    req.on("response", (res) => resolve({ refused: res.statusCode }));
    req.on("error", reject);
    req.on("upgrade", (res, socket, head) => {
      const got = [];
      let buf = Buffer.from(head);
      socket.on("data", (d) => {
        buf = Buffer.concat([buf, d]);
        while (buf.length >= 2) {
          let len = buf[1] & 0x7f;
          let off = 2;
          if (len === 126) {
            len = buf.readUInt16BE(2);
            off = 4;
          } else if (len === 127) {
            len = Number(buf.readBigUInt64BE(2));
            off = 10;
          }
          if (buf.length < off + len) break;
          if ((buf[0] & 0x0f) === 1) got.push(JSON.parse(buf.subarray(off, off + len).toString()));
          buf = buf.subarray(off + len);
        }
      });
      const send = (text) => {
        const p = Buffer.from(text);
        const mask = crypto.randomBytes(4);
        const masked = Buffer.from(p.map((b, i) => b ^ mask[i % 4]));
        socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | p.length]), mask, masked]));
      };
      resolve({ protocol: res.headers["sec-websocket-protocol"], got, send, close: () => socket.destroy() });
    });
    req.end();
  });
}

async function logs(query = "") {
  const r = await edge.call("GET", `/workers/scripts/logger/logs${query}`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.result.lines;
}

describe("worker logs", () => {
  test("overlapping workflow instances: each line carries its instance, the escaping error is an error line", async () => {
    await edge.call("POST", "/workflows/logflow/instances", {
      instance_id: "inst-a",
      params: { tag: "A", sleepMs: 400 },
    });
    await edge.call("POST", "/workflows/logflow/instances", {
      instance_id: "inst-b",
      params: { tag: "B", sleepMs: 50, fail: true },
    });
    await waitStatus(edge, "logflow", "inst-a", "complete");
    await waitStatus(edge, "logflow", "inst-b", "errored");
    const a = await waitFor(
      async () => {
        const l = await logs("?instance=inst-a");
        return l.length >= 3 && l;
      },
      { what: "lines of inst-a" },
    );
    assert.deepEqual(
      a.map((l) => [l.level, l.message]),
      [
        ["log", "run begins A"],
        ["warn", "working on A"],
        ["info", "run ends A"],
      ],
    );
    const b = await waitFor(
      async () => {
        const l = await logs("?instance=inst-b");
        return l.some((x) => x.level === "error") && l;
      },
      { what: "error line of inst-b" },
    );
    assert.ok(
      b.every((l) => l.instanceId === "inst-b" && !l.message.includes("A")),
      JSON.stringify(b),
    );
    assert.deepEqual(b.at(-1).message, "RangeError: failed B");
    assert.equal(b.at(-1).kind, "exception");
    // no marker line ever shows
    assert.ok((await logs()).every((l) => !l.message.includes("edgeflow:")));
    // an instance's answer says how many lines the edge holds of it (edgeflow reads them only when some)
    for (const [id, lines] of [
      ["inst-a", a],
      ["inst-b", await logs("?instance=inst-b")],
    ]) {
      const got = await edge.call("GET", `/workflows/logflow/instances/${id}`);
      assert.equal(got.body.result.log_lines, lines.length, `${id}: ${JSON.stringify(got.body.result)}`);
    }
    const none = await edge.call("POST", "/workflows/logflow/instances", {
      instance_id: "inst-c",
      params: { tag: "C" },
    });
    assert.equal(none.status, 200, JSON.stringify(none.body));
    await waitStatus(edge, "logflow", "inst-c", "complete");
    await waitFor(async () => (await logs("?instance=inst-c")).length >= 3, { what: "lines of inst-c" });
    assert.equal((await edge.call("GET", "/workflows/logflow/instances/inst-c")).body.result.log_lines, 3);
  });

  test("request logs and uncaught exceptions of fetch", async () => {
    const since = Date.now() - 1;
    const r = await fetch(`${edge.ready.workers}/logger/throw`);
    assert.equal(r.status, 500);
    const l = await waitFor(
      async () => {
        const x = await logs(`?since=${since}`);
        return x.some((y) => y.level === "error") && x;
      },
      { what: "exception line" },
    );
    assert.deepEqual(
      l.map((x) => [x.level, x.message, x.instanceId]),
      [
        ["log", 'fetch /throw {"q":""}', null],
        ["error", "TypeError: no such thing", null],
      ],
    );
  });

  test("bad queries are refused; unknown workers are 10007", async () => {
    assert.equal((await edge.call("GET", "/workers/scripts/logger/logs?since=yesterday")).status, 400);
    assert.equal((await edge.call("GET", "/workers/scripts/logger/logs?limit=0")).status, 400);
    const missing = await edge.call("GET", "/workers/scripts/nobody/logs");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.errors[0].code, 10007);
  });
});

describe("what user code prints (decision 804)", () => {
  // Lines shaped like workerd's own errors, which the edge's health reads (health.mjs): printed by a worker, thrown
  // by its fetch handler and by a Workflow run, they must reach only the worker's log store.
  const FAKES = [
    "SQLITE_CANTOPEN: unable to open database file",
    "*** Fatal uncaught kj::Exception: workerd/io/worker.c++:1: failed",
    "accept(): Too many open files (os error 24)",
    "workerd/util/sqlite.c++:1: out of memory: SQLITE_NOMEM",
  ];
  const SOURCE_MIMIC = `export default {
  async fetch(req) {
    const fakes = ${JSON.stringify(FAKES)};
    console.log(fakes[0]);
    console.error(fakes[1]);
    console.warn(fakes[3]);
    console.debug("\\u0000edgeflow:instance", "not-a-run");
    if (new URL(req.url).pathname === "/throw") throw new Error(fakes[2]);
    return new Response("printed");
  },
};
`;
  before(async () => {
    const up = await upload(edge, "mimic", { source: SOURCE_MIMIC });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal((await edge.call("POST", "/workers/scripts/mimic/subdomain", { enabled: true })).status, 200);
  });

  test("attack: a worker's console lines and uncaught exceptions that read like workerd's errors neither mark its group failing nor reach the edge's log", async () => {
    const before = edge.stderr().length;
    assert.equal(await (await fetch(`${edge.ready.workers}/mimic/`)).text(), "printed");
    assert.equal((await fetch(`${edge.ready.workers}/mimic/throw`)).status, 500);
    // a Workflow run that fails with such a message
    await edge.call("POST", "/workflows/logflow/instances", {
      instance_id: "mimic-run",
      params: { tag: FAKES[2], sleepMs: 1, fail: true },
    });
    await waitStatus(edge, "logflow", "mimic-run", "errored");
    // twin: the worker's own log store has every line, the exception among them
    const mine = await waitFor(
      async () => {
        const r = await edge.call("GET", "/workers/scripts/mimic/logs");
        const lines = r.body.result?.lines ?? [];
        return lines.some((l) => l.kind === "exception") && lines;
      },
      { what: "the mimic worker's exception line" },
    );
    for (const fake of FAKES)
      assert.ok(
        mine.some((l) => l.message.includes(fake)),
        `${fake}: ${JSON.stringify(mine)}`,
      );
    await waitFor(async () => (await logs("?instance=mimic-run")).some((l) => l.kind === "exception"), {
      what: "the failed run's exception line",
    });
    const base = edge.ready.api.replace("/client/v4", "");
    const ready = await fetch(`${base}/readyz`);
    const body = await ready.json();
    assert.equal(ready.status, 200, JSON.stringify(body));
    assert.deepEqual(body.failing, []);
    const said = edge.stderr().slice(before);
    assert.doesNotMatch(said, /edge-error/, said);
    for (const fake of [...FAKES, "not-a-run", "printed"])
      assert.ok(!said.includes(fake), `${fake} in the edge's log:\n${said}`);
  });
});

describe("tail sessions", () => {
  test("a tail websocket carries each request's logs, exceptions and outcome in Cloudflare's format", async () => {
    const created = await edge.call("POST", "/workers/scripts/logger/tails", { filters: [] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const { id, url, expires_at } = created.body.result;
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.ok(Date.parse(expires_at) > Date.now());
    const listed = await edge.call("GET", "/workers/scripts/logger/tails");
    assert.deepEqual(
      listed.body.result.map((t) => t.id),
      [id],
    );
    const ws = await openTail(url);
    assert.equal(ws.protocol, "trace-v1");
    const got = ws.got;
    ws.send(JSON.stringify({ debug: false }));
    await fetch(`${edge.ready.workers}/logger/hello?x=1`);
    await fetch(`${edge.ready.workers}/logger/throw`);
    await waitFor(() => got.length >= 2, { what: "two trace items" });
    const [ok, bad] = got;
    assert.equal(ok.scriptName, "logger");
    assert.equal(ok.outcome, "ok");
    assert.equal(ok.event.request.method, "GET");
    assert.match(ok.event.request.url, /\/hello\?x=1$/);
    assert.equal(ok.event.response.status, 200);
    assert.deepEqual(
      ok.logs.map((l) => [l.level, l.message]),
      [["log", ["fetch", "/hello", { q: "?x=1" }]]],
    );
    assert.equal(typeof ok.eventTimestamp, "number");
    assert.equal(bad.outcome, "exception");
    assert.deepEqual(
      bad.exceptions.map((e) => [e.name, e.message]),
      [["TypeError", "no such thing"]],
    );
    ws.close();
    const del = await edge.call("DELETE", `/workers/scripts/logger/tails/${id}`);
    assert.equal(del.status, 200);
    assert.equal((await edge.call("GET", "/workers/scripts/logger/tails")).body.result.length, 0);
    // the deleted session's websocket is refused
    assert.equal((await openTail(url)).refused, 404);
  });

  test("an invocation without logs is sent only for a tail session: nobody tailing, a burst costs no delivery per request", async () => {
    // The tail worker sends a quiet invocation when what it last heard of tail sessions is older than
    // TRACED_FRESH_MS: the first request refreshes it; the next ones, while it is fresh, are not sent.
    // This wait stays: it is a clock of the edge itself (the tail worker's word about sessions goes stale after
    // TRACED_FRESH_MS), and nothing outside the worker shows when it did. The fixed waits below say why they stay.
    await new Promise((r) => setTimeout(r, TRACED_FRESH_MS + 100)); // what earlier tests' deliveries told it is stale
    const first = (await edgeStats()).log_deliveries;
    assert.equal(await (await fetch(`${edge.ready.workers}/quiet/`)).text(), "shh");
    await waitFor(async () => (await edgeStats()).log_deliveries > first, { what: "the refreshing delivery" });
    const before = (await edgeStats()).log_deliveries;
    const t0 = Date.now();
    for (let i = 0; i < 20; i++) assert.equal((await fetch(`${edge.ready.workers}/quiet/`)).status, 200);
    const elapsed = Date.now() - t0;
    await new Promise((r) => setTimeout(r, 200)); // stays: it lets deliveries still in flight land, an absence no state shows
    const stats = await edgeStats();
    const grown = stats.log_deliveries - before;
    assert.ok(
      grown <= Math.ceil(elapsed / TRACED_FRESH_MS) + 1,
      `${grown} deliveries for 20 quiet requests in ${elapsed} ms`,
    );
    assert.ok(grown < 20, `${grown} deliveries for 20 quiet requests`);
    assert.ok(stats.loopback_checks >= 1 && stats.loopback_refused === 0, JSON.stringify(stats));

    // With a session, the quiet worker's invocations reach it (once the tail worker's answer is stale at most).
    const created = await edge.call("POST", "/workers/scripts/quiet/tails", { filters: [] });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const ws = await openTail(created.body.result.url);
    ws.send(JSON.stringify({ debug: false }));
    await new Promise((r) => setTimeout(r, TRACED_FRESH_MS + 100)); // stays: the tail worker's word goes stale by the clock
    const path = (t) => new URL(t.event.request.url).pathname;
    // the first one after a second is sent, and its answer names the session's worker ...
    await fetch(`${edge.ready.workers}/quiet/one`);
    await waitFor(() => ws.got.some((t) => path(t) === "/one"), { what: "the trace item of /one" });
    // ... after which every one is (an invocation that ends before the answer is back may still be left out)
    await waitFor(
      async () => {
        await fetch(`${edge.ready.workers}/quiet/two`);
        await new Promise((r) => setTimeout(r, 200)); // the poll's interval: each round sends a request, then looks
        return ws.got.some((t) => path(t) === "/two");
      },
      { what: "the trace item of /two" },
    );
    await fetch(`${edge.ready.workers}/quiet/three`);
    await waitFor(() => ws.got.some((t) => path(t) === "/three"), { what: "the trace item of /three" });
    assert.ok(
      ws.got.every((t) => t.scriptName === "quiet" && t.outcome === "ok" && t.logs.length === 0),
      JSON.stringify(ws.got),
    );
    ws.close();
    assert.equal((await edge.call("DELETE", `/workers/scripts/quiet/tails/${created.body.result.id}`)).status, 200);
  });

  test("filters: bad ones are 400; outcome and method narrow what is sent", async () => {
    assert.equal(
      (await edge.call("POST", "/workers/scripts/logger/tails", { filters: [{ sampling_rate: 2 }] })).status,
      400,
    );
    assert.equal((await edge.call("POST", "/workers/scripts/logger/tails", { filters: "all" })).status, 400);
    assert.equal((await edge.call("POST", "/workers/scripts/nobody/tails", {})).status, 404);
    const item = {
      outcome: "ok",
      logs: [],
      exceptions: [],
      event: { request: { method: "GET", url: "http://x/", headers: { "x-a": "1" } } },
    };
    assert.equal(passes(item, [{ outcome: ["exception"] }]), false);
    assert.equal(passes(item, [{ outcome: ["ok"] }, { method: ["get"] }]), true);
    assert.equal(passes(item, [{ method: ["POST"] }]), false);
    assert.equal(passes(item, [{ header: { key: "X-A", query: "1" } }]), true);
    assert.equal(passes(item, [{ query: "nothing-like-this" }]), false);
  });
});

describe("accounts", () => {
  test("attack: another account reads no logs and reaches no tail session of this account's worker", async () => {
    const theirs = await provision(edge, { name: "nosy", ref: "nosy" });
    assert.equal(theirs.status, 201, JSON.stringify(theirs.body));
    const nosy = asAccount(edge, theirs.body);
    const mine = await edge.call("POST", "/workers/scripts/logger/tails", {});
    const id = mine.body.result.id;
    const logsThere = await nosy.call("GET", "/workers/scripts/logger/logs");
    assert.equal(logsThere.status, 404);
    assert.equal(logsThere.body.errors[0].code, 10007);
    assert.equal((await nosy.call("POST", "/workers/scripts/logger/tails", {})).status, 404);
    assert.equal((await nosy.call("DELETE", `/workers/scripts/logger/tails/${id}`)).status, 404);
    // its own worker of the same name has its own (empty) logs
    const up = await upload(nosy, "logger", {
      source: "export default { fetch() { console.log('theirs'); return new Response('x'); } }",
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    const own = await nosy.call("GET", "/workers/scripts/logger/logs");
    assert.equal(own.status, 200);
    assert.deepEqual(own.body.result.lines, []);
    assert.equal((await nosy.call("GET", "/workers/scripts/logger/tails")).body.result.length, 0);
    assert.equal((await edge.call("DELETE", `/workers/scripts/logger/tails/${id}`)).status, 200);
  });
});

// A run's lines around its subrequests (decision 321): a D1 query, KV and R2 calls, a fetch to another worker of
// the edge, a fetch the outbound guard refuses, a Workflow binding's create, a sleep and a wait for an event. Each
// run logs in step a, then in step b before and after the call, and b throws with no retries.
const SUB_SOURCE = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Child extends WorkflowEntrypoint {
  async run(event) { console.log("child runs"); return 1; }
}
export class Calls extends WorkflowEntrypoint {
  async run(event, step) {
    const p = event.payload;
    await step.do("a", async () => { if (!p.quiet) console.log("a", p.use); return 1; });
    if (p.use === "sleep") await step.sleep("nap", 10);
    if (p.use === "event") await step.waitForEvent("go", { type: "go", timeout: "5 minutes" });
    await step.do("b", { retries: { limit: 0, delay: 1 } }, async () => {
      if (!p.quiet) console.log("b before");
      const env = this.env;
      switch (p.use) {
        case "d1": console.log("d1", (await env.DB.prepare("SELECT 41 + 1 AS n").first()).n); break;
        case "kv": await env.KV.put("k", "v"); console.log("kv", await env.KV.get("k")); break;
        case "r2": await env.BUCKET.put("o", "body"); console.log("r2", await (await env.BUCKET.get("o")).text()); break;
        case "worker": { const r = await fetch(p.url); console.log("worker", r.status, await r.text()); break; }
        case "outside": try { await fetch("http://10.255.255.1/"); } catch { console.warn("refused"); } break;
        case "child": await env.CHILD.create({ id: p.child }); console.log("child created"); break;
        default: break;
      }
      if (!p.quiet) console.log("b after");
      throw new Error("b failed " + p.use);
    });
  }
}
export default { async fetch() { return new Response("calls"); } };
`;

describe("lines after subrequests", () => {
  before(async () => {
    const db = await edge.call("POST", "/d1/database", { name: "calls-db" });
    const kv = await edge.call("POST", "/storage/kv/namespaces", { title: "calls-kv" });
    assert.equal((await edge.call("POST", "/r2/buckets", { name: "calls-bucket" })).status, 200);
    const up = await upload(edge, "calls", {
      source: SUB_SOURCE,
      bindings: [
        { type: "workflow", name: "WF", workflow_name: "calls", class_name: "Calls" },
        { type: "workflow", name: "CHILD", workflow_name: "calls-child", class_name: "Child" },
        { type: "d1", name: "DB", id: db.body.result.uuid },
        { type: "kv_namespace", name: "KV", namespace_id: kv.body.result.id },
        { type: "r2_bucket", name: "BUCKET", bucket_name: "calls-bucket" },
      ],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal(
      (await edge.call("PUT", "/workflows/calls", { script_name: "calls", class_name: "Calls" })).status,
      200,
    );
    assert.equal(
      (await edge.call("PUT", "/workflows/calls-child", { script_name: "calls", class_name: "Child" })).status,
      200,
    );
    const target = await upload(edge, "target", {
      source: `export default { async fetch(req) { console.log("target hit", new URL(req.url).pathname); return new Response("hello"); } };`,
    });
    assert.equal(target.status, 200, JSON.stringify(target.body));
    assert.equal((await edge.call("POST", "/workers/scripts/target/subdomain", { enabled: true })).status, 200);
  });

  async function runLines(id, params, n) {
    const r = await edge.call("POST", "/workflows/calls/instances", { instance_id: id, params });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    if (params.use === "event") {
      await waitStatus(edge, "calls", id, "waiting");
      assert.equal((await edge.call("POST", `/workflows/calls/instances/${id}/events/go`, { ok: true })).status, 200);
    }
    await waitStatus(edge, "calls", id, "errored");
    const got = await waitFor(
      async () => {
        const r = await edge.call("GET", `/workers/scripts/calls/logs?instance=${id}`);
        return r.body.result.lines.length >= n && r.body.result.lines;
      },
      { what: `${n} lines of ${id}` },
    );
    return got.map((l) => `${l.level} ${l.message}`);
  }

  const cases = [
    ["d1", ["log d1 42"]],
    ["kv", ["log kv v"]],
    ["r2", ["log r2 body"]],
    ["worker", ["log worker 200 hello"]],
    ["outside", ["warn refused"]],
    ["child", ["log child created"]],
    ["sleep", []],
    ["event", []],
  ];
  for (const [use, middle] of cases) {
    test(`${use}: every line of the run and its error are kept`, async () => {
      const id = `calls-${use}`;
      const want = [`log a ${use}`, "log b before", ...middle, "log b after", `error Error: b failed ${use}`];
      const got = await runLines(
        id,
        { use, url: `${edge.ready.workers}/target/from-${use}`, child: `${id}-child` },
        want.length,
      );
      assert.deepEqual(got, want);
    });
  }

  test("a run that logs nothing before a D1 query keeps its error (the instance marker is not lost with the query)", async () => {
    assert.deepEqual(await runLines("calls-quiet", { use: "d1", quiet: true }, 2), [
      "log d1 42",
      "error Error: b failed d1",
    ]);
  });

  test("the worker a run fetched keeps its own line, and the child Workflow its run's", async () => {
    const target = await waitFor(
      async () => {
        const r = await edge.call("GET", "/workers/scripts/target/logs");
        return r.body.result.lines.some((l) => l.message === "target hit /from-worker") && r.body.result.lines;
      },
      { what: "the target's line" },
    );
    assert.ok(target.every((l) => l.instanceId === null));
    await waitStatus(edge, "calls-child", "calls-child-child", "complete");
    const child = await waitFor(
      async () => {
        const r = await edge.call("GET", "/workers/scripts/calls/logs?instance=calls-child-child");
        return r.body.result.lines.length > 0 && r.body.result.lines;
      },
      { what: "the child's line" },
    );
    assert.deepEqual(
      child.map((l) => l.message),
      ["child runs"],
    );
  });
});

describe("ring limits", () => {
  test("a worker keeps at most RING_LINES lines, cuts long messages, and counts what it dropped", () => {
    const logs = new WorkerLogs();
    const ev = (i, type, extra) => ({
      invocationId: `i${i}`,
      timestamp: new Date(1_700_000_000_000 + i).toISOString(),
      event: { type, ...extra },
    });
    for (let i = 0; i < RING_LINES + 50; i++) {
      logs.ingest("w", ev(i, "onset", { info: { type: "fetch", method: "GET", url: "http://x/", headers: [] } }));
      logs.ingest("w", ev(i, "log", { level: "log", message: [`line ${i}`] }));
      logs.ingest("w", ev(i, "outcome", { outcome: "ok" }));
    }
    const { lines, dropped } = logs.read("w");
    assert.equal(lines.length, RING_LINES);
    assert.equal(dropped, 50);
    assert.equal(lines[0].message, "line 50");
    logs.ingest("w", ev(9999, "log", { level: "log", message: ["x".repeat(LINE_BYTES * 2)] }));
    const last = logs.read("w", { limit: 1 }).lines[0];
    assert.ok(Buffer.byteLength(last.message) <= LINE_BYTES + 16);
    assert.ok(last.message.endsWith("… [cut]"));
    assert.equal(formatMessage(["a", 1, { b: true }, null]), 'a 1 {"b":true} null');
  });

  test("a line is tagged with the run the tail worker names, also when the edge no longer holds its invocation", () => {
    const logs = new WorkerLogs();
    const ev = (inv, type, extra) => ({
      invocationId: inv,
      timestamp: new Date().toISOString(),
      event: { type, ...extra },
    });
    logs.ingest("w", ev("run", "log", { level: "log", message: ["\u0000edgeflow:instance", "inst-1"] }));
    // more invocations open than the edge holds: the run's is let go
    for (let i = 0; i < 1100; i++) logs.ingest("w", ev(`other-${i}`, "onset", { info: { type: "fetch" } }));
    logs.ingest("w", ev("run", "log", { level: "warn", message: ["later"] }), "inst-1");
    logs.ingest(
      "w",
      ev("run", "log", { level: "log", message: ["\u0000edgeflow:exception", "Error", "boom", ""] }),
      "inst-1",
    );
    assert.deepEqual(
      logs.read("w", { instanceId: "inst-1" }).lines.map((l) => [l.level, l.message]),
      [
        ["warn", "later"],
        ["error", "Error: boom"],
      ],
    );
  });
});
