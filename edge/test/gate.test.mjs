// The loopback gate (src/gate.mjs) in this process, with real sockets: an HTTP server that starts listening after
// the gate was attached — as a new group's or D1 host's Miniflare opens its loopback server before the edge learns
// that its workerd started — refuses a connection from a process that is not a workerd from its first connection
// on; the twins: the edge's own server is never gated, and a client the gate traces to an admitted process gets
// its answer.
import assert from "node:assert/strict";
import http from "node:http";
import { after, describe, test } from "node:test";
import { LoopbackGate } from "../src/gate.mjs";

function serve(handler = (req, res) => res.end("served")) {
  const s = http.createServer(handler);
  return new Promise((resolve) => s.listen(0, "127.0.0.1", () => resolve(s)));
}

function get(server) {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port: server.address().port, path: "/core/log", agent: false }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode, body }));
    });
    req.on("error", (err) => resolve({ error: err.code }));
  });
}

describe("loopback gate", { skip: process.platform !== "linux" && "the gate traces connections through /proc" }, () => {
  const servers = [];
  let admitted = []; // the pids the gate admits (the edge's workerds in the edge)
  const gate = new LoopbackGate({ workerdPids: () => admitted, logger: () => {} });
  let own;
  after(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

  test("attack: a server that starts listening after attach refuses a local process from its first connection", async () => {
    own = await serve((req, res) => res.end("own"));
    servers.push(own);
    gate.attach(own);
    const late = await serve();
    servers.push(late);
    const refusedBefore = gate.refused;
    const r = await get(late);
    assert.ok(r.error, `the late server answered ${JSON.stringify(r)}`);
    assert.equal(gate.refused, refusedBefore + 1);
  });

  test("legit: the edge's own server is not gated, and a traced, admitted client gets its answer", async () => {
    assert.deepEqual(await get(own), { status: 200, body: "own" });
    admitted = [process.pid]; // this process holds the client end of the connection
    const late = await serve();
    servers.push(late);
    assert.deepEqual(await get(late), { status: 200, body: "served" });
  });
});
