// The outbound guard's decisions, without workerd: address classes in every spelling, the allow list, names
// resolved before the decision, and connections pinned to the checked addresses (DNS rebinding).

import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import { after, before, test } from "node:test";
import { Request } from "miniflare";
import { AllowList, OutboundGuard, REFUSED_HEADER, classify } from "../src/outbound.mjs";

test("classify: the table both outbound checks share (every spelling refused, public addresses pass)", () => {
  // internal/netguard/testdata/addresses.json: edgeflow's own check (Go) is tested against the same table
  const table = JSON.parse(
    fs.readFileSync(new URL("../../internal/netguard/testdata/addresses.json", import.meta.url), "utf8"),
  );
  assert.ok(Object.keys(table.refused).length > 0 && table.public.length > 0);
  for (const [ip, word] of Object.entries(table.refused))
    assert.ok((classify(ip) ?? "").includes(word), `${ip}: ${classify(ip)}, want ${word}`);
  for (const ip of table.public) assert.equal(classify(ip), null, ip);
});

test("AllowList: names, addresses, ranges; bad entries are errors", () => {
  const a = AllowList.parse("127.0.0.42, Internal.Example ,10.0.0.0/8 [fd00::1]");
  assert.ok(a.allowsAddress("127.0.0.42") && a.allowsAddress("::ffff:127.0.0.42") && a.allowsAddress("10.9.8.7"));
  assert.ok(a.allowsAddress("fd00::1") && !a.allowsAddress("fd00::2") && !a.allowsAddress("127.0.0.1"));
  assert.ok(a.allowsName("internal.example") && !a.allowsName("example"));
  for (const bad of ["10.0.0.0/40", "http://x/", "a b/c"]) assert.throws(() => AllowList.parse(bad), /allow list/);
});

let server;
let hits;
before(async () => {
  hits = [];
  server = http.createServer((req, res) => {
    hits.push(req.socket.localAddress);
    res.end("pinned");
  });
  await new Promise((r) => server.listen(0, "127.0.0.42", r));
});
after(() => server.close());

async function ask(guard, url) {
  const res = await guard.fetch(new Request(url));
  return { refused: res.headers.get(REFUSED_HEADER) === "1", status: res.status, text: await res.text() };
}

test("attack: a name that resolves to a private address is refused, naming both", async () => {
  const guard = new OutboundGuard({ lookup: async () => [{ address: "10.0.0.5", family: 4 }] });
  const got = await ask(guard, "http://internal.test/");
  assert.equal(got.refused, true);
  assert.match(got.text, /internal\.test resolves to 10\.0\.0\.5, a private address/);
  await guard.close();
});

test("attack: DNS rebinding cannot move a checked connection to loopback", async () => {
  // first answer: the allowed 127.0.0.42; every later answer: 127.0.0.1 (edgeflow's API, the edge's ports)
  let calls = 0;
  const lookup = async () =>
    calls++ === 0 ? [{ address: "127.0.0.42", family: 4 }] : [{ address: "127.0.0.1", family: 4 }];
  const guard = new OutboundGuard({ allow: AllowList.parse("127.0.0.42"), lookup });
  const got = await ask(guard, `http://rebind.test:${server.address().port}/`);
  assert.equal(got.text, "pinned");
  assert.deepEqual(hits, ["127.0.0.42"]);
  await guard.close();
});

test("legit: a host name on the allow list is reached at what it resolves to", async () => {
  const guard = new OutboundGuard({
    allow: AllowList.parse("svc.internal"),
    lookup: async () => [{ address: "127.0.0.42", family: 4 }],
  });
  const got = await ask(guard, `http://svc.internal:${server.address().port}/`);
  assert.deepEqual(got, { refused: false, status: 200, text: "pinned" });
  await guard.close();
});

test("attack: other schemes are refused", async () => {
  const guard = new OutboundGuard();
  const got = await ask(guard, "ftp://example.com/");
  assert.equal(got.refused, true);
  assert.match(got.text, /only http and https/);
  await guard.close();
});

test("legit: worker URLs of the edge's own gateway are reached; attack: nothing else of its port is", async (t) => {
  // gw stands in for the edge's port: the guard opens its /workers/ paths at 127.0.0.1 and nothing else.
  const paths = [];
  const gw = http.createServer((req, res) => {
    paths.push(req.url);
    res.end(`gateway ${req.url}`);
  });
  await new Promise((r) => gw.listen(0, "127.0.0.1", r));
  const port = gw.address().port;
  const guard = new OutboundGuard({ lookup: async () => [{ address: "127.0.0.1", family: 4 }] });
  t.after(async () => {
    await guard.close();
    gw.closeAllConnections();
    gw.close();
  });
  const before = await ask(guard, `http://127.0.0.1:${port}/workers/edge-1/ef-a/`);
  assert.equal(before.refused, true, "closed until allowGateway");
  guard.allowGateway(port);
  const got = await ask(guard, `http://127.0.0.1:${port}/workers/edge-1/ef-a/x?y=1`);
  assert.deepEqual(got, { refused: false, status: 200, text: "gateway /workers/edge-1/ef-a/x?y=1" });
  for (const url of [
    `http://127.0.0.1:${port}/client/v4/accounts`,
    `http://127.0.0.1:${port}/__edge/accounts`,
    `http://127.0.0.1:${port}/healthz`,
    `http://127.0.0.1:${port}/workers`,
    `http://127.0.0.1:${port}/workers/../client/v4/accounts`,
    `http://127.0.0.1:${port}/workers/%2e%2e/client/v4/accounts`,
    `http://127.0.0.1:${port}/WORKERS/x/`,
    `http://localhost:${port}/workers/edge-1/ef-a/`,
    `http://[::ffff:127.0.0.1]:${port}/workers/edge-1/ef-a/`,
    `https://127.0.0.1:${port}/workers/edge-1/ef-a/`,
    `http://127.0.0.1:${port + 1}/workers/edge-1/ef-a/`,
  ]) {
    const r = await ask(guard, url);
    assert.equal(r.refused, true, url);
    assert.match(r.text, /loopback/, url);
  }
  assert.deepEqual(paths, ["/workers/edge-1/ef-a/x?y=1"]);
});
