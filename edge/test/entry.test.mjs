// workerd's entry socket is a Unix socket in a 0700 directory of the edge (src/entry.mjs): no process on this
// machine finds workerd's router on a TCP port (its explorer, MF-Route-Override, the trigger route), another user
// cannot connect to the socket, and the client's MF-* headers never reach workerd through the gateway. Beside each
// attack, its twin: control calls, the gateway, the client's address, cron and a group restart still work.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { RunDir, SOCKET_PATH_MAX, parseReport, wrapperText } from "../src/entry.mjs";
import { tcpListeners } from "../src/gate.mjs";
import { startEdge, tempDir, upload, waitFor } from "./helpers.mjs";

const MARKER = "entry-probe-answered";
const SECRET = "params-only-the-owner-may-read";

// The probe answers what it was sent (its request.cf and headers), records its cron runs in KV, and runs a
// Workflow whose instance holds SECRET in its params and a step's output while it waits.
const PROBE = (version) => `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class Keep extends WorkflowEntrypoint {
  async run(event, step) {
    const held = await step.do("hold", async () => ({ secret: event.payload.secret }));
    await step.waitForEvent("go", { type: "go", timeout: "1 hour" });
    return held;
  }
}
export default {
  async fetch(request) {
    const headers = {};
    for (const [k, v] of request.headers) headers[k] = v;
    return Response.json({ marker: "${MARKER}", version: "${version}", cf: request.cf ?? null, headers });
  },
  async scheduled(event, env) {
    await env.KV.put("cron", JSON.stringify({ cron: event.cron, time: event.scheduledTime }));
  },
};
`;

function isLinux() {
  return fs.existsSync("/proc/self/fd");
}

// descendants lists pid and every process below it (the edge's workerds, and anything they start).
function descendants(pid) {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    for (const task of fs.readdirSync(`/proc/${out[i]}/task`)) {
      try {
        for (const k of fs.readFileSync(`/proc/${out[i]}/task/${task}/children`, "utf8").trim().split(/\s+/))
          if (k) out.push(Number(k));
      } catch {
        // gone meanwhile
      }
    }
  }
  return out;
}

function workerdsOf(pid) {
  return descendants(pid).filter((p) => {
    try {
      return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes("workerd");
    } catch {
      return false;
    }
  });
}

// send makes one HTTP request to 127.0.0.1:port (or a Unix socket) and answers {status, body} or {error}.
function send({ port, socketPath, method = "GET", path: p, headers = {}, body }) {
  return new Promise((resolve) => {
    const s = socketPath ? net.connect(socketPath) : net.connect(port, "127.0.0.1");
    let data = "";
    s.setTimeout(5000, () => s.destroy(new Error("timeout")));
    s.on("connect", () => {
      const h = {
        host: "localhost",
        connection: "close",
        ...headers,
        ...(body !== undefined ? { "content-length": Buffer.byteLength(body) } : {}),
      };
      s.write(
        `${method} ${p} HTTP/1.1\r\n${Object.entries(h)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join("")}\r\n${body ?? ""}`,
      );
    });
    s.on("data", (d) => (data += d));
    s.on("error", (err) => resolve({ error: err.code ?? err.message }));
    s.on("close", () => {
      if (data === "") return resolve({ error: "closed without an answer" });
      const status = Number(/^HTTP\/1\.[01] (\d+)/.exec(data)?.[1]);
      resolve({ status, body: data.slice(data.indexOf("\r\n\r\n") + 4) });
    });
  });
}

// asOtherUser runs a connect to socketPath as user nobody (65534) and answers what happened ("connected" or the
// error code).
function asOtherUser(socketPath) {
  const code = `const s = require("net").connect(process.argv[1]);
s.on("connect", () => { console.log("connected"); process.exit(0); });
s.on("error", (e) => { console.log(e.code); process.exit(0); });`;
  const r = spawnSync(
    "setpriv",
    ["--reuid=65534", "--regid=65534", "--clear-groups", process.execPath, "-e", code, socketPath],
    { encoding: "utf8", cwd: "/" },
  );
  if (r.error) throw r.error;
  return (r.stdout + r.stderr).trim();
}

function sockets(dir) {
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(".sock"))
    .map((n) => path.join(dir, n));
}

describe("the wrapper that starts workerd", () => {
  // A stand-in for workerd that prints the arguments it got, one a line.
  let dir;
  let wrapper;
  before(() => {
    dir = tempDir("entry-wrapper-");
    fs.mkdirSync(path.join(dir, "run"), { mode: 0o700 });
    const fake = path.join(dir, "fake-workerd");
    fs.writeFileSync(fake, '#!/bin/sh\nfor a in "$@"; do echo "arg $a"; done\n', { mode: 0o755 });
    wrapper = path.join(dir, "workerd.sh");
    fs.writeFileSync(wrapper, wrapperText({ runDir: path.join(dir, "run"), workerd: fake, setpriv: null }), {
      mode: 0o700,
    });
  });
  const run = (args) => spawnSync(wrapper, args, { encoding: "utf8" });

  test("legit: the entry address becomes a Unix socket in the run directory, reported with workerd's pid; other arguments pass as they were", () => {
    const args = [
      "serve",
      "--binary",
      "--experimental",
      "--socket-addr=entry=127.0.0.1:0",
      "--external-addr=loopback=127.0.0.1:4567",
      "--control-fd=3",
      "-",
    ];
    const r = run(args);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    const report = parseReport(lines[0]);
    assert.ok(report && report.pid > 0, lines[0]);
    assert.equal(report.path, path.join(dir, "run", `w${report.pid}.sock`));
    assert.deepEqual(
      lines.slice(1),
      args.map((a) => `arg ${a.replace("entry=127.0.0.1:0", `entry=unix:${report.path}`)}`),
    );
  });

  test("attack: workerd's records of JavaScript's console are left out of what miniflare reads; its own records pass", () => {
    const printer = path.join(dir, "printing-workerd");
    const records = [
      '{"timestamp":1796681141557,"level":"log","message":"SQLITE_CANTOPEN: unable to open database file"}',
      '{"timestamp":1796681141560,"level":"error","message":"*** Fatal uncaught kj::Exception"}',
      '{"timestamp":"1796681170770","level":"error","source":"workerd/util/sqlite.c++:663","message":"failed: unable to open database file: SQLITE_CANTOPEN"}',
      "a line that is no record",
    ];
    fs.writeFileSync(printer, `#!/bin/sh\ncat <<'EOF'\n${records.join("\n")}\nEOF\n`, { mode: 0o755 });
    const printing = path.join(dir, "printing.sh");
    fs.writeFileSync(printing, wrapperText({ runDir: path.join(dir, "run"), workerd: printer, setpriv: null }), {
      mode: 0o700,
    });
    const r = spawnSync(printing, ["serve", "--socket-addr=entry=127.0.0.1:0", "-"], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    assert.ok(parseReport(lines[0]), lines[0]);
    assert.deepEqual(lines.slice(1), records.slice(2));
    // the FIFO is gone once both ends opened it
    assert.deepEqual(
      fs.readdirSync(path.join(dir, "run")).filter((n) => n.endsWith(".out")),
      [],
    );
  });

  test("attack: workerd started without the entry address, or with another listening address, is refused", () => {
    for (const [args, msg] of [
      [["serve", "--binary", "-"], /without --socket-addr=entry/],
      [
        ["serve", "--socket-addr=entry=127.0.0.1:0", "--inspector-addr=127.0.0.1:0", "-"],
        /listening address the edge does not place \(--inspector-addr/,
      ],
      [
        ["serve", "--socket-addr=entry=127.0.0.1:0", "--socket-addr=other=127.0.0.1:0", "-"],
        /listening address the edge does not place \(--socket-addr=other/,
      ],
      [["serve", "--socket-addr=entry=127.0.0.1:0", "--socket-addr=entry=0.0.0.0:80", "-"], /two entry addresses/],
      [["serve", "--socket-addr=entry=127.0.0.1:0", "--debug-port=127.0.0.1:0", "-"], /listening address/],
    ]) {
      const r = run(args);
      assert.equal(r.status, 2, `${args.join(" ")}: ${r.stdout}`);
      assert.match(r.stderr, msg);
      assert.doesNotMatch(r.stdout, /^arg /m, "workerd must not run");
    }
  });
});

describe("the run directory", () => {
  test("legit: DATA/run, 0700, when its socket paths fit; stale sockets are removed", () => {
    const data = tempDir("entry-rd-");
    fs.mkdirSync(path.join(data, "run"));
    fs.writeFileSync(path.join(data, "run", "w123.sock"), "");
    const d = RunDir.open(data);
    assert.equal(d.dir, path.join(data, "run"));
    assert.equal(fs.statSync(d.dir).mode & 0o777, 0o700);
    assert.deepEqual(fs.readdirSync(d.dir), []);
  });

  test("legit: a data dir too deep for socket paths gets a fresh 0700 directory in the temporary directory, removed by the next edge when one was killed", () => {
    const data = path.join(tempDir("entry-rd-"), "d".repeat(100));
    fs.mkdirSync(data);
    const d = RunDir.open(data);
    assert.equal(d.temporary, true);
    assert.equal(path.dirname(d.dir), path.resolve(os.tmpdir()));
    assert.equal(fs.statSync(d.dir).mode & 0o777, 0o700);
    assert.equal(fs.readFileSync(path.join(data, "run-dir"), "utf8").trim(), d.dir);
    // a killed edge did not close it: the next one removes it and makes its own
    const next = RunDir.open(data);
    assert.ok(!fs.existsSync(d.dir));
    assert.notEqual(next.dir, d.dir);
    next.close(data);
    assert.ok(!fs.existsSync(next.dir) && !fs.existsSync(path.join(data, "run-dir")));
  });

  test("a directory whose socket paths would pass the limit is refused with what to do", () => {
    const data = path.join(tempDir("entry-rd-"), "d".repeat(100));
    const tmp = path.join(tempDir("entry-rd-"), "t".repeat(100));
    fs.mkdirSync(data);
    fs.mkdirSync(tmp);
    assert.throws(
      () => RunDir.open(data, { tmpdir: tmp }),
      (err) => {
        assert.match(
          err.message,
          new RegExp(
            `longer than the ${SOCKET_PATH_MAX} bytes a Unix socket path may have; use a shorter --data-dir or TMPDIR`,
          ),
        );
        return true;
      },
    );
    assert.deepEqual(fs.readdirSync(tmp), [], "the attempt leaves nothing behind");
  });
});

describe("a local process and the edge's workerds", { skip: !isLinux() && "needs /proc (Linux)" }, () => {
  let edge;
  let kv;
  let runDir;
  const base = () => edge.ready.api.replace("/client/v4", "");
  const admin = (method, p) => fetch(`${base()}${p}`, { method, headers: { authorization: `Bearer ${edge.token}` } });

  before(async () => {
    edge = await startEdge();
    runDir = path.join(edge.dataDir, "run");
    kv = (await edge.call("POST", "/storage/kv/namespaces", { title: "entry" })).body.result.id;
    const bindings = [
      { type: "workflow", name: "WF", workflow_name: "keep", class_name: "Keep" },
      { type: "kv_namespace", name: "KV", namespace_id: kv },
    ];
    assert.equal((await upload(edge, "probe", { source: PROBE("v1"), bindings })).status, 200);
    assert.equal((await edge.call("PUT", "/workflows/keep", { script_name: "probe", class_name: "Keep" })).status, 200);
    assert.equal((await edge.call("POST", "/workers/scripts/probe/subdomain", { enabled: true })).status, 200);
    assert.equal(
      (
        await edge.call("PUT", `/storage/kv/namespaces/${kv}/values/k`, "kv-value", {
          headers: { "content-type": "text/plain" },
        })
      ).status,
      200,
    );
    const created = await edge.call("POST", "/workflows/keep/instances", {
      instance_id: "held",
      params: { secret: SECRET },
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await waitFor(
      async () => (await edge.call("GET", "/workflows/keep/instances/held")).body.result?.status === "waiting",
      { what: "the instance to wait" },
    );
  });

  after(async () => {
    await edge?.stop();
  });

  test("attack: every listening TCP port of the edge's process tree refuses the explorer, MF-Route-Override and the trigger route", async () => {
    const tree = descendants(edge.proc.pid);
    assert.ok(workerdsOf(edge.proc.pid).length >= 2, "the home group's workerd and the probe's");
    const ports = [...new Set(tree.flatMap((p) => tcpListeners(p) ?? []))];
    assert.ok(ports.length > 0, "the edge's own ports (its API, miniflare's loopback servers)");
    for (const port of ports) {
      // miniflare 5's paths (/cdn-cgi/local/…) and miniflare 4's, which 5 no longer serves
      const tries = [
        { path: "/cdn-cgi/local/explorer/api/workflows" },
        { path: "/cdn-cgi/local/explorer/api/workflows/keep/instances/held" },
        { path: `/cdn-cgi/local/explorer/api/storage/kv/namespaces/${kv}/values/k` },
        { method: "DELETE", path: "/cdn-cgi/local/explorer/api/workflows/keep/instances/held" },
        { path: "/cdn-cgi/explorer/api/workflows" },
        { path: "/cdn-cgi/explorer/api/workflows/keep/instances/held" },
        { path: `/cdn-cgi/explorer/api/storage/kv/namespaces/${kv}/values/k` },
        { method: "POST", path: "/probe", headers: { "MF-Route-Override": "probe" } },
        {
          method: "POST",
          path: "/kv/keys",
          headers: { "MF-Route-Override": "__edgeflow_control", "content-type": "application/json" },
          body: "{}",
        },
        { path: "/cdn-cgi/local/scheduled?cron=*+*+*+*+*", headers: { "MF-Route-Override": "probe" } },
        { path: "/cdn-cgi/handler/scheduled?cron=*+*+*+*+*", headers: { "MF-Route-Override": "probe" } },
        { path: "/cdn-cgi/local/r2/s3/" },
      ];
      for (const t of tries) {
        const r = await send({ port, ...t });
        const what = `port ${port} ${t.method ?? "GET"} ${t.path} ${JSON.stringify(t.headers ?? {})}`;
        if (r.error) continue; // closed (miniflare's loopback server admits workerd only)
        assert.notEqual(r.status, 200, `${what}: ${r.body.slice(0, 300)}`);
        for (const leak of [SECRET, MARKER, "kv-value", `"name":"keep"`])
          assert.ok(!r.body.includes(leak), `${what} answered ${r.status} ${r.body.slice(0, 300)}`);
      }
    }
    // the trigger route never ran the probe's scheduled handler
    assert.equal((await edge.call("GET", `/storage/kv/namespaces/${kv}/values/cron`)).status, 404);
  });

  test("attack: workerd listens on no TCP port at all; its entry sockets are in a 0700 directory of the edge", () => {
    for (const pid of workerdsOf(edge.proc.pid)) assert.deepEqual(tcpListeners(pid), [], `workerd ${pid}`);
    const st = fs.statSync(runDir);
    assert.equal(st.mode & 0o777, 0o700);
    assert.equal(st.uid, process.getuid());
    const socks = sockets(runDir);
    assert.equal(socks.length, workerdsOf(edge.proc.pid).length, `one socket a workerd: ${socks}`);
    for (const s of socks) assert.ok(fs.statSync(s).isSocket(), s);
  });

  test(
    "attack: another user cannot connect to an entry socket",
    { skip: process.getuid?.() !== 0 && "switching to another user needs root" },
    () => {
      for (const s of sockets(runDir)) assert.equal(asOtherUser(s), "EACCES", s);
    },
  );

  test("legit: the edge's user reaches the socket (as the edge does)", async () => {
    const [s] = sockets(runDir);
    const r = await send({ socketPath: s, path: "/" });
    assert.equal(r.status, 404, "the default route refuses, as before");
  });

  test("legit: only a group that runs a Workflow starts with the local explorer (half of a workerd's start)", async () => {
    const groups = (await edge.stats()).workerd_groups;
    const home = groups.find((g) => g.group === "home");
    const probe = groups.find((g) => g.group !== "home" && g.workflows === 1);
    assert.ok(home && probe, JSON.stringify(groups));
    assert.equal(home.workflows, 0);
    const at = (g) => path.join(runDir, `w${g.pid}.sock`);
    const listed = await send({ socketPath: at(probe), path: "/cdn-cgi/local/explorer/api/workflows" });
    assert.equal(listed.status, 200, listed.body);
    assert.match(listed.body, /"success":\s*true/);
    assert.match(listed.body, /keep/, "the Workflow the group runs is listed");
    const none = await send({ socketPath: at(home), path: "/cdn-cgi/local/explorer/api/workflows" });
    assert.equal(none.status, 404, "the home group's default route refuses: it has no explorer");
  });

  test("legit: control calls, the explorer's instance details and the gateway work over the sockets", async () => {
    const got = await edge.call("GET", `/storage/kv/namespaces/${kv}/values/k`, undefined, { raw: true });
    assert.equal(await got.text(), "kv-value");
    const inst = await edge.call("GET", "/workflows/keep/instances/held");
    assert.equal(inst.status, 200);
    assert.deepEqual(inst.body.result.params, { secret: SECRET });
    const r = await fetch(`${edge.ready.workers}/probe/hello`);
    assert.equal(r.status, 200);
    assert.equal((await r.json()).marker, MARKER);
  });

  test("attack: /cdn-cgi/ routes through the gateway answer nothing of the explorer nor run the scheduled handler", async () => {
    for (const p of [
      "/cdn-cgi/local/explorer/api/workflows",
      "/cdn-cgi/local/explorer/api/workflows/keep/instances/held",
      "/cdn-cgi/local/scheduled?cron=*+*+*+*+*",
      "/cdn-cgi/explorer/api/workflows",
      "/cdn-cgi/handler/scheduled?cron=*+*+*+*+*",
    ]) {
      const r = await fetch(`${edge.ready.workers}/probe${p}`);
      const body = await r.text();
      assert.notEqual(r.status, 200, `${p}: ${body}`);
      assert.ok(!body.includes("keep"), body);
    }
    assert.equal((await edge.call("GET", `/storage/kv/namespaces/${kv}/values/cron`)).status, 404);
  });

  test("attack: MF-* headers from outside are stripped at the gateway, so request.cf cannot be forged", async () => {
    const plain = await (await fetch(`${edge.ready.workers}/probe/cf`, { headers: { "X-Trace": "t-1" } })).json();
    const forged = await (
      await fetch(`${edge.ready.workers}/probe/cf`, {
        headers: {
          "X-Trace": "t-1",
          "MF-CF-Blob": JSON.stringify({ country: "ZZ", asn: 1 }),
          "mf-route-override": "__edgeflow_control",
          "Mf-Original-Url": "http://evil.example/",
          "MF-Disable-Pretty-Error": "1",
          "MF-Anything": "x",
          "CF-Connecting-IP": "203.0.113.9",
        },
      })
    ).json();
    assert.equal(forged.marker, MARKER, "the request reached the probe, not the route the client named");
    assert.notEqual(forged.cf?.country, "ZZ");
    assert.deepEqual(forged.cf, plain.cf, "request.cf is the platform's");
    assert.deepEqual(
      Object.keys(forged.headers).filter((k) => k.startsWith("mf-")),
      [],
    );
    // the twin: ordinary headers pass, and the client's address is the one the edge saw
    assert.equal(forged.headers["x-trace"], "t-1");
    assert.equal(plain.headers["cf-connecting-ip"], "127.0.0.1");
    assert.equal(forged.headers["cf-connecting-ip"], "127.0.0.1");
    assert.equal(plain.cf?.country !== undefined, true, JSON.stringify(plain.cf));
  });

  test("legit: a script's cron trigger runs its scheduled handler over the socket", async () => {
    assert.equal((await edge.call("PUT", "/workers/scripts/probe/schedules", [{ cron: "*/5 * * * *" }])).status, 200);
    const r = await admin("POST", "/__edge/cron?time=2026-01-01T10:05:00Z");
    assert.equal(r.status, 200);
    assert.deepEqual((await r.json()).started, [{ script: "probe", cron: "*/5 * * * *" }]);
    const got = await edge.call("GET", `/storage/kv/namespaces/${kv}/values/cron`, undefined, { raw: true });
    assert.equal(got.status, 200);
    assert.deepEqual(await got.json(), { cron: "*/5 * * * *", time: Date.parse("2026-01-01T10:05:00Z") });
  });

  test("legit: a group restart gives its workerd a new socket and removes the old one; everything answers after it", async () => {
    const before = new Set(sockets(runDir));
    const bindings = [
      { type: "workflow", name: "WF", workflow_name: "keep", class_name: "Keep" },
      { type: "kv_namespace", name: "KV", namespace_id: kv },
    ];
    assert.equal((await upload(edge, "probe", { source: PROBE("v2"), bindings })).status, 200);
    const now = new Set(sockets(runDir));
    const gone = [...before].filter((s) => !now.has(s));
    const added = [...now].filter((s) => !before.has(s));
    assert.equal(gone.length, 1, `the probe's old socket is removed: before ${[...before]}, now ${[...now]}`);
    assert.equal(added.length, 1, "its new workerd has a socket of its own");
    assert.equal(now.size, workerdsOf(edge.proc.pid).length);
    for (const pid of workerdsOf(edge.proc.pid)) assert.deepEqual(tcpListeners(pid), [], `workerd ${pid}`);
    assert.equal((await (await fetch(`${edge.ready.workers}/probe/`)).json()).version, "v2");
    const got = await edge.call("GET", `/storage/kv/namespaces/${kv}/values/k`, undefined, { raw: true });
    assert.equal(await got.text(), "kv-value");
    // the revive sweep found the waiting instance over the new socket; an event lets it finish
    assert.equal((await edge.call("POST", "/workflows/keep/instances/held/events/go", {})).status, 200);
    await waitFor(
      async () => (await edge.call("GET", "/workflows/keep/instances/held")).body.result?.status === "complete",
      { what: "the instance to complete" },
    );
  });

  // last in this block: a D1 database's workerd stops a minute after its last query, which would race the counts
  // of the tests above
  test("legit: a D1 database's own workerd also answers over a Unix socket only", async () => {
    const db = (await edge.call("POST", "/d1/database", { name: "entry-db" })).body.result.uuid;
    const r = await edge.call("POST", `/d1/database/${db}/query`, {
      sql: "CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (7); SELECT x FROM t",
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const d1Pids = fs.readFileSync(path.join(edge.dataDir, "d1-workerd.pid"), "utf8").trim().split("\n").map(Number);
    assert.equal(d1Pids.length, 1);
    assert.deepEqual(tcpListeners(d1Pids[0]), []);
    assert.ok(fs.statSync(path.join(runDir, `w${d1Pids[0]}.sock`)).isSocket());
    if (process.getuid?.() === 0) assert.equal(asOtherUser(path.join(runDir, `w${d1Pids[0]}.sock`)), "EACCES");
  });
});

describe("an edge whose data dir is too deep for socket paths", { skip: !isLinux() && "needs /proc (Linux)" }, () => {
  test("legit: it runs with its sockets in a 0700 directory under the temporary directory, removed when it stops", async () => {
    const data = path.join(tempDir(), "d".repeat(100));
    const edge = await startEdge({ dataDir: data });
    try {
      const dir = fs.readFileSync(path.join(data, "run-dir"), "utf8").trim();
      assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
      const socks = sockets(dir);
      assert.equal(socks.length, 1, "the home group's");
      if (process.getuid?.() === 0) assert.equal(asOtherUser(socks[0]), "EACCES");
      assert.equal((await edge.call("POST", "/storage/kv/namespaces", { title: "deep" })).status, 200);
      await edge.stop();
      assert.ok(!fs.existsSync(dir), "the directory goes with the edge");
    } finally {
      await edge.stop();
    }
  });
});

// pathWith makes a directory holding links to only the given tools (as found on this PATH), for an edge's PATH.
function pathWith(tools) {
  const bin = tempDir("entry-bin-");
  for (const tool of tools) {
    const found = spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).stdout.trim();
    fs.symlinkSync(found, path.join(bin, tool));
  }
  return bin;
}

describe("an edge on a system without setpriv", { skip: !isLinux() && "needs /proc (Linux)" }, () => {
  test("legit: the wrapper still places workerd's entry socket (only the parent-death signal is missing)", async () => {
    // a PATH with the wrapper's tools (sh, rm, and mkfifo and grep for its console filter) but no setpriv
    const bin = pathWith(["sh", "rm", "mkfifo", "grep"]);
    const edge = await startEdge({ env: { PATH: bin } });
    try {
      assert.match(edge.stderr(), /setpriv is not available/);
      const wrapper = fs.readFileSync(path.join(edge.dataDir, "workerd.sh"), "utf8");
      assert.doesNotMatch(wrapper, /setpriv/);
      assert.match(wrapper, /--socket-addr=entry=unix:/);
      const [workerd] = workerdsOf(edge.proc.pid);
      assert.deepEqual(tcpListeners(workerd), []);
      assert.deepEqual(sockets(path.join(edge.dataDir, "run")), [path.join(edge.dataDir, "run", `w${workerd}.sock`)]);
      const ns = await edge.call("POST", "/storage/kv/namespaces", { title: "no-setpriv" });
      assert.equal(ns.status, 200, JSON.stringify(ns.body));
    } finally {
      await edge.stop();
    }
  });
});

describe(
  "an edge on a system without the console filter's tools",
  { skip: !isLinux() && "needs /proc (Linux)" },
  () => {
    test("attack: without mkfifo and grep the edge does not start workerd (a tenant's console lines would reach its health)", async () => {
      const bin = pathWith(["sh", "rm"]);
      await assert.rejects(startEdge({ env: { PATH: bin }, timeoutMs: 60000 }), (err) => {
        assert.match(err.message, /mkfifo is not on PATH: the edge needs mkfifo and grep to start workerd/);
        return true;
      });
    });
  },
);

describe("a workerd that listens on TCP", { skip: !isLinux() && "needs /proc (Linux)" }, () => {
  test("attack: the edge refuses to start when workerd comes up with a TCP listener", async () => {
    // MINIFLARE_WORKERD_PATH names the binary the edge's wrapper runs: this one adds an inspector on TCP
    const dir = tempDir();
    const sneaky = path.join(dir, "sneaky-workerd");
    const { createRequire } = await import("node:module");
    const require = createRequire(createRequire(import.meta.url).resolve("miniflare"));
    fs.writeFileSync(sneaky, `#!/bin/sh\nexec '${require("workerd").default}' "$@" --inspector-addr=127.0.0.1:0\n`, {
      mode: 0o755,
    });
    await assert.rejects(
      startEdge({ dataDir: path.join(dir, "data"), env: { MINIFLARE_WORKERD_PATH: sneaky }, timeoutMs: 60000 }),
      (err) => {
        assert.match(err.message, /edge exited with 1/);
        assert.match(err.message, /listens on TCP port \d+; the edge runs workerd with its Unix entry socket only/);
        return true;
      },
    );
  });
});
