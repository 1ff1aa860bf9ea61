// The edge's internals are out of reach: worker code cannot fetch loopback, link-local or private addresses (in
// any spelling) unless the operator allows the host, cannot open raw sockets to them, and a plain HTTP client of
// the edge's own user that finds workerd's entry socket (a Unix socket, entry.test.mjs) cannot drive the control
// worker through it.

import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startEdge, upload, waitFor } from "./helpers.mjs";

// The probe worker fetches ?url= (with ?route= as MF-Route-Override) or opens a socket to ?connect=host:port and
// answers what happened.
const PROBE = `
import { connect } from "cloudflare:sockets";
export default {
  async fetch(request) {
    const q = new URL(request.url).searchParams;
    try {
      if (q.has("connect")) {
        const [hostname, port] = q.get("connect").split(":");
        const s = connect({ hostname, port: Number(port) });
        const w = s.writable.getWriter();
        await w.write(new TextEncoder().encode("GET / HTTP/1.0\\r\\n\\r\\n"));
        const { value } = await s.readable.getReader().read();
        return Response.json({ ok: true, body: new TextDecoder().decode(value) });
      }
      const headers = q.has("route") ? { "MF-Route-Override": q.get("route") } : {};
      const res = await fetch(q.get("url"), { method: q.get("method") ?? "GET", headers });
      return Response.json({ ok: true, status: res.status, body: await res.text() });
    } catch (err) {
      return Response.json({ ok: false, error: String(err?.message ?? err) });
    }
  },
};
`;

let edge;
let allowed; // a server on 127.0.0.42, which the edge's allow list opens
let edgePorts; // every TCP port the edge's processes listen on (workerd has none)
let entrySockets; // workerd's entry sockets

function listen(server, host) {
  return new Promise((resolve) => server.listen(0, host, () => resolve(server.address().port)));
}

// listeningPorts finds the TCP ports a process listens on, as any process of the same user can: its socket
// inodes in /proc/PID/fd, looked up in /proc/net/tcp.
function listeningPorts(pid) {
  const inodes = new Set();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  const ports = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of fs.readFileSync(file, "utf8").split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === "0A" && inodes.has(f[9])) ports.push(parseInt(f[1].split(":")[1], 16));
    }
  }
  return ports;
}

// post sends POST {} to path on a Unix socket and answers {status, text}.
function post(socketPath, p, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, path: p, method: "POST", headers, agent: false }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, text }));
    });
    req.on("error", reject);
    req.end("{}");
  });
}

async function probe(query) {
  const r = await fetch(`${edge.ready.workers}/probe?${new URLSearchParams(query)}`);
  assert.equal(r.status, 200);
  return r.json();
}

before(async () => {
  allowed = http.createServer((req, res) => res.end(`allowed host answered ${req.method} ${req.url}`));
  const allowedPort = await listen(allowed, "127.0.0.42");
  allowed.port = allowedPort;
  edge = await startEdge({ args: ["--allow-hosts", "127.0.0.42,allowed.example.test"] });
  const up = await upload(edge, "probe", { source: PROBE });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  assert.equal((await edge.call("POST", "/workers/scripts/probe/subdomain", { enabled: true })).status, 200);
  // every group's workerd (runtime.mjs): the home group's and the probe's
  const workerds = fs.readFileSync(`${edge.dataDir}/workerd.pid`, "utf8").trim().split("\n").map(Number);
  edgePorts = [edge.proc.pid, ...workerds].flatMap((pid) => listeningPorts(pid));
  const run = path.join(edge.dataDir, "run");
  entrySockets = fs
    .readdirSync(run)
    .filter((n) => n.endsWith(".sock"))
    .map((n) => path.join(run, n));
  assert.equal(entrySockets.length, workerds.length);
});

after(async () => {
  await edge?.stop();
  allowed?.close();
});

describe("worker code cannot reach this machine", () => {
  const port = () => new URL(edge.ready.api).port;
  const targets = [
    ["the edge's API", () => `http://127.0.0.1:${port()}/healthz`, "127.0.0.1", "loopback"],
    ["127.1", () => `http://127.1:${port()}/healthz`, "127.0.0.1", "loopback"],
    ["0x7f000001", () => `http://0x7f000001:${port()}/healthz`, "127.0.0.1", "loopback"],
    ["2130706433", () => `http://2130706433:${port()}/healthz`, "127.0.0.1", "loopback"],
    ["[::1]", () => `http://[::1]:${port()}/healthz`, "::1", "loopback"],
    ["[::ffff:127.0.0.1]", () => `http://[::ffff:127.0.0.1]:${port()}/healthz`, "::ffff:7f00:1", "loopback"],
    [
      "[::ffff:0:7f00:1] (IPv4-translated)",
      () => `http://[::ffff:0:7f00:1]:${port()}/healthz`,
      "::ffff:0:7f00:1",
      "loopback",
    ],
    ["[::127.0.0.1] (IPv4-compatible)", () => `http://[::127.0.0.1]:${port()}/healthz`, "::7f00:1", "loopback"],
    ["[64:ff9b::7f00:1] (NAT64)", () => `http://[64:ff9b::7f00:1]:${port()}/healthz`, "64:ff9b::7f00:1", "loopback"],
    ["[2002:7f00:1::] (6to4)", () => `http://[2002:7f00:1::]:${port()}/healthz`, "2002:7f00:1::", "loopback"],
    ["[2001:0:7f00:1::] (Teredo)", () => `http://[2001:0:7f00:1::]:${port()}/healthz`, "2001:0:7f00:1::", "loopback"],
    ["localhost", () => `http://localhost:${port()}/healthz`, "localhost resolves to", "loopback"],
    ["the metadata service", () => "http://169.254.169.254/latest/meta-data/", "169.254.169.254", "link-local"],
    ["a private address", () => "http://10.1.2.3/", "10.1.2.3", "private"],
    ["0.0.0.0", () => `http://0.0.0.0:${port()}/healthz`, "0.0.0.0", "unspecified"],
  ];
  for (const [what, url, address, reason] of targets) {
    test(`attack: fetch to ${what} is refused with the address and the reason`, async () => {
      const got = await probe({ url: url() });
      assert.equal(got.ok, false, JSON.stringify(got));
      assert.match(got.error, /edgeflow refused the request/);
      assert.ok(got.error.includes(address), got.error);
      assert.ok(got.error.includes(reason), got.error);
      assert.doesNotMatch(got.error, /\/work\/|node_modules|\.mjs/);
    });
  }

  test("attack: fetch to the edge's ports naming the control worker is refused", async () => {
    assert.ok(edgePorts.length > 0);
    for (const p of edgePorts) {
      const got = await probe({ url: `http://127.0.0.1:${p}/ping`, route: "__edgeflow_control", method: "POST" });
      assert.equal(got.ok, false, JSON.stringify(got));
      assert.match(got.error, /loopback/);
    }
  });

  test("attack: a raw socket to loopback is refused", async () => {
    const got = await probe({ connect: `127.0.0.1:${port()}` });
    assert.equal(got.ok, false, JSON.stringify(got));
  });

  test("legit: a worker URL of the edge's own gateway is reachable without the allow list", async () => {
    // the probe calls itself at its worker URL; the inner call reports its own refusal of a private address
    const inner = `${edge.ready.workers}/probe?${new URLSearchParams({ url: "http://10.1.2.3/" })}`;
    const got = await probe({ url: inner });
    assert.equal(got.ok, true, JSON.stringify(got));
    assert.equal(got.status, 200);
    assert.match(got.body, /10\.1\.2\.3 is a private address/);
  });

  test("attack: the rest of the gateway's port is refused: its API, admin routes, paths out of /workers/", async () => {
    for (const url of [
      `${edge.ready.api}/accounts`,
      `http://127.0.0.1:${port()}/__edge/accounts`,
      `${edge.ready.workers}/../client/v4/accounts`,
      `${edge.ready.workers}/%2e%2e/__edge/accounts`,
      `http://localhost:${port()}/workers/probe`,
    ]) {
      const got = await probe({ url });
      assert.equal(got.ok, false, `${url}: ${JSON.stringify(got)}`);
      assert.match(got.error, /loopback/, url);
    }
  });

  test("legit: a host on the allow list is reachable", async () => {
    const got = await probe({ url: `http://127.0.0.42:${allowed.port}/hello?x=1` });
    assert.deepEqual(got, { ok: true, status: 200, body: "allowed host answered GET /hello?x=1" });
  });
});

describe("a plain client on this machine cannot drive the edge's internals", () => {
  test("attack: the entry socket's default route and the control worker refuse requests without the gate", async () => {
    assert.ok(entrySockets.length > 0);
    for (const socketPath of entrySockets) {
      const plain = await post(socketPath, "/ping", {});
      assert.equal(plain.status, 404, `${socketPath}: ${plain.text}`);
      for (const p of ["/ping", "/kv/keys", "/wf/statuses"]) {
        const r = await post(socketPath, p, {
          "MF-Route-Override": "__edgeflow_control",
          "content-type": "application/json",
        });
        assert.equal(r.status, 404, `${socketPath}${p}: ${r.text}`);
      }
    }
  });

  test("legit: the edge itself still drives KV through the control worker", async () => {
    const ns = await edge.call("POST", "/storage/kv/namespaces", { title: "gate-twin" });
    assert.equal(ns.status, 200, JSON.stringify(ns.body));
    const id = ns.body.result.id;
    const put = await edge.call("PUT", `/storage/kv/namespaces/${id}/values/k`, "v", {
      headers: { "content-type": "text/plain" },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const got = await edge.call("GET", `/storage/kv/namespaces/${id}/values/k`, undefined, { raw: true });
    assert.equal(await got.text(), "v");
  });
});

describe("miniflare's loopback server answers only workerd", () => {
  test("attack: a plain client on the edge's other ports cannot list, delete or log", async () => {
    const apiPort = Number(new URL(edge.ready.api).port);
    const ports = listeningPorts(edge.proc.pid).filter((p) => p !== apiPort);
    assert.ok(ports.length > 0, "found the loopback server's port");
    for (const p of ports) {
      for (const [method, path, headers] of [
        ["GET", "/core/workflow-storage/any", {}],
        ["DELETE", "/core/workflow-storage/any/0000", {}],
        ["POST", "/core/log", { "MF-Log-Level": "2" }],
      ]) {
        const r = await fetch(`http://127.0.0.1:${p}${path}`, {
          method,
          headers,
          body: method === "POST" ? "injected" : undefined,
        }).catch((e) => e);
        assert.ok(r instanceof Error, `port ${p} ${method} ${path} answered ${r.status}`);
      }
    }
    assert.ok(!edge.stderr().includes("injected"));
  });

  test("legit: workerd still reaches it (outbound fetches, which go through it, work)", async () => {
    const got = await probe({ url: `http://127.0.0.42:${allowed.port}/again` });
    assert.equal(got.ok, true, JSON.stringify(got));
  });
});

// Last: its uploads restart the probe's group, whose entry socket the tests above found at the start.
describe("the edge's worker for user workers' fetches and logs (decision 806)", () => {
  const CALLER = `export default {
  async fetch(req, env) {
    console.log("caller says hello");
    if (!env.S) return new Response("unbound");
    return env.S.fetch("http://x/");
  },
};`;

  test("attack: a tenant can neither take the name of the edge's io worker nor bind a service to it", async () => {
    for (const name of ["__edgeflow_io", "__edgeflow_control"]) {
      const taken = await upload(edge, name, { source: CALLER });
      assert.equal(taken.status, 400, `${name}: ${JSON.stringify(taken.body)}`);
    }
    const up = await upload(edge, "io-caller", {
      source: CALLER,
      bindings: [{ type: "service", name: "S", service: "__edgeflow_io" }],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal((await edge.call("POST", "/workers/scripts/io-caller/subdomain", { enabled: true })).status, 200);
    const r = await fetch(`${edge.ready.workers}/io-caller/`);
    assert.equal(await r.text(), "unbound");
  });

  test("legit: through that one worker, a worker's fetch passes the guard and its console lines reach its log", async () => {
    const got = await probe({ url: `http://127.0.0.42:${allowed.port}/io` });
    assert.deepEqual(got, { ok: true, status: 200, body: "allowed host answered GET /io" });
    const refused = await probe({ url: "http://10.9.8.7/" });
    assert.match(refused.error, /edgeflow refused the request/);
    await fetch(`${edge.ready.workers}/io-caller/`);
    await waitFor(
      async () => {
        const r = await edge.call("GET", "/workers/scripts/io-caller/logs");
        return r.body.result?.lines?.some((l) => JSON.stringify(l).includes("caller says hello"));
      },
      { what: "the caller's console line in its log" },
    );
  });
});
