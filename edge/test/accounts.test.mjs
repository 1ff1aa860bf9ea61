// Accounts: provisioning through the root-only admin route, per-account tokens, and isolation of one account's
// workers, Workflows, KV, D1 and R2 from another's (attacks beside the legitimate use).

import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { asAccount, deployDemo, provision, startEdge, upload, waitStatus } from "./helpers.mjs";

let edge;
let a;
let b;
before(async () => {
  edge = await startEdge();
  const pa = await provision(edge, { name: "Org A", ref: "org-a" });
  assert.equal(pa.status, 201, JSON.stringify(pa.body));
  const pb = await provision(edge, { name: "Org B", ref: "org-b" });
  assert.equal(pb.status, 201, JSON.stringify(pb.body));
  a = asAccount(edge, pa.body);
  b = asAccount(edge, pb.body);
});
after(async () => {
  await edge?.stop();
});

const base = () => edge.ready.api.replace("/client/v4", "");

// getWithHost sends GET path to the edge with a Host header of our choice (fetch does not let a caller set Host).
function getWithHost(host, p) {
  const u = new URL(base());
  return new Promise((resolve, reject) => {
    const req = http.get({ hostname: u.hostname, port: u.port, path: p, headers: { host } }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode, text }));
    });
    req.on("error", reject);
  });
}

describe("provisioning", () => {
  test("only the root token provisions; an account token gets 10000 on every /__edge route", async () => {
    const r = await provision(edge, { name: "X" }, a.token);
    assert.equal(r.status, 401);
    assert.equal(r.body.errors[0].code, 10000);
    for (const [method, p] of [
      ["GET", "/__edge/stats"],
      ["POST", "/__edge/cron"],
      ["GET", "/__edge/accounts"],
    ]) {
      const res = await fetch(`${base()}${p}`, { method, headers: { authorization: `Bearer ${a.token}` } });
      assert.equal(res.status, 401, p);
    }
    const bad = await provision(edge, { ref: "no spaces allowed" });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.errors[0].code, 10001);
  });

  test("the answer holds the token once; the edge keeps only its hash; the same ref gets a new token", async () => {
    const p = await provision(edge, { name: "Rotating", ref: "org-rotate" });
    assert.equal(p.status, 201);
    assert.match(p.body.id, /^[0-9a-f]{32}$/);
    assert.match(p.body.subdomain, /^edge-[0-9a-f]{12}$/);
    const disk = fs.readFileSync(path.join(edge.dataDir, "registry.json"), "utf8");
    assert.ok(!disk.includes(p.body.token), "the token itself is not on disk");
    const list = await fetch(`${base()}/__edge/accounts`, { headers: { authorization: `Bearer ${edge.token}` } }).then(
      (r) => r.json(),
    );
    assert.ok(list.accounts.some((x) => x.id === p.body.id && x.token === undefined));
    const again = await provision(edge, { ref: "org-rotate" });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, p.body.id);
    assert.notEqual(again.body.token, p.body.token);
    const old = await asAccount(edge, p.body).call("GET", "/user/tokens/verify");
    assert.equal(old.status, 401);
    const fresh = await asAccount(edge, again.body).call("GET", "/user/tokens/verify");
    assert.equal(fresh.status, 200);
  });
});

describe("identity answers for the token's own account", () => {
  test("GET /accounts, /memberships, /user/tokens/verify", async () => {
    const accts = await a.call("GET", "/accounts");
    assert.deepEqual(
      accts.body.result.map((x) => x.id),
      [a.accountId],
    );
    const m = await a.call("GET", "/memberships");
    assert.deepEqual(
      m.body.result.map((x) => x.account.id),
      [a.accountId],
    );
    const va = await a.call("GET", "/user/tokens/verify");
    const vb = await b.call("GET", "/user/tokens/verify");
    assert.equal(va.status, 200);
    assert.notEqual(va.body.result.id, vb.body.result.id);
    const root = await edge.call("GET", "/accounts");
    assert.deepEqual(
      root.body.result.map((x) => x.id),
      [edge.ready.accountId],
    );
  });

  test("attack: a token on another account's path is 9109, the legacy account's included; the root token administers any", async () => {
    for (const p of ["/workers/scripts", "/storage/kv/namespaces", "/d1/database", "/r2/buckets", "/workflows", ""]) {
      const r = await b.call("GET", `${a.account}${p}`);
      assert.equal(r.status, 403, p);
      assert.equal(r.body.errors[0].code, 9109);
      const l = await b.call("GET", `${edge.account}${p}`);
      assert.equal(l.status, 403, p);
    }
    const root = await edge.call("GET", `${a.account}/workers/scripts`);
    assert.equal(root.status, 200);
    const unknown = await edge.call("GET", `${edge.ready.api}/accounts/${"f".repeat(32)}/workers/scripts`);
    assert.equal(unknown.status, 403);
    assert.equal(unknown.body.errors[0].code, 9109);
  });
});

describe("isolation of resources and workers", () => {
  test("the same names in two accounts do not collide, and each reads its own data", async () => {
    const ids = {};
    for (const [who, acct] of [
      ["a", a],
      ["b", b],
    ]) {
      const kv = await acct.call("POST", "/storage/kv/namespaces", { title: "same-title" });
      assert.equal(kv.status, 200, JSON.stringify(kv.body));
      const d1 = await acct.call("POST", "/d1/database", { name: "same-db" });
      assert.equal(d1.status, 200, JSON.stringify(d1.body));
      const r2 = await acct.call("POST", "/r2/buckets", { name: "same-bucket" });
      assert.equal(r2.status, 200, JSON.stringify(r2.body));
      ids[who] = { kv: kv.body.result.id, d1: d1.body.result.uuid };
      let r = await acct.call("PUT", `/storage/kv/namespaces/${ids[who].kv}/values/k`, `kv-${who}`, {
        headers: { "content-type": "text/plain" },
      });
      assert.equal(r.status, 200);
      r = await acct.call("POST", `/d1/database/${ids[who].d1}/query`, {
        sql: `CREATE TABLE t (v TEXT); INSERT INTO t VALUES ('d1-${who}')`,
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      r = await acct.call("PUT", "/r2/buckets/same-bucket/objects/o", `r2-${who}`, {
        headers: { "content-type": "text/plain" },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    for (const [who, acct] of [
      ["a", a],
      ["b", b],
    ]) {
      const kv = await acct.call("GET", `/storage/kv/namespaces/${ids[who].kv}/values/k`, undefined, { raw: true });
      assert.equal(await kv.text(), `kv-${who}`);
      const d1 = await acct.call("POST", `/d1/database/${ids[who].d1}/query`, { sql: "SELECT v FROM t" });
      assert.deepEqual(d1.body.result[0].results, [{ v: `d1-${who}` }]);
      const r2 = await acct.call("GET", "/r2/buckets/same-bucket/objects/o", undefined, { raw: true });
      assert.equal(await r2.text(), `r2-${who}`);
      const list = await acct.call("GET", "/storage/kv/namespaces");
      assert.deepEqual(
        list.body.result.map((n) => n.id),
        [ids[who].kv],
      );
    }
    // attack: B names A's KV namespace and D1 database by id on its own account: not found, as a missing one
    const kv = await b.call("GET", `/storage/kv/namespaces/${ids.a.kv}/keys`);
    assert.equal(kv.status, 404);
    assert.equal(kv.body.errors[0].code, 10013);
    const d1 = await b.call("POST", `/d1/database/${ids.a.d1}/query`, { sql: "SELECT v FROM t" });
    assert.equal(d1.status, 404);
    assert.equal(d1.body.errors[0].code, 7404);
    // attack: a worker of B binding A's KV / D1 ids is refused exactly as a binding to a missing one
    const missingKV = await upload(b, "binder", {
      bindings: [{ type: "kv_namespace", name: "K", namespace_id: "0".repeat(32) }],
    });
    const foreignKV = await upload(b, "binder", {
      bindings: [{ type: "kv_namespace", name: "K", namespace_id: ids.a.kv }],
    });
    assert.equal(foreignKV.status, 400);
    assert.equal(foreignKV.body.errors[0].code, missingKV.body.errors[0].code);
    assert.equal(foreignKV.body.errors[0].code, 10042);
    const foreignD1 = await upload(b, "binder", { bindings: [{ type: "d1", name: "D", id: ids.a.d1 }] });
    assert.equal(foreignD1.status, 400);
    assert.equal(foreignD1.body.errors[0].code, 10181);
    const foreignR2 = await upload(b, "binder", {
      bindings: [{ type: "r2_bucket", name: "R", bucket_name: "only-in-a" }],
    });
    assert.equal(foreignR2.body.errors[0].code, 10085);
  });

  test("a worker reads its own account's bucket, never the other's of the same name", async () => {
    const src = `export default { async fetch(req, env) { const o = await env.R.get("o"); return new Response(o ? await o.text() : "none"); } };`;
    for (const acct of [a, b]) {
      const up = await upload(acct, "reader", {
        source: src,
        bindings: [{ type: "r2_bucket", name: "R", bucket_name: "same-bucket" }],
      });
      assert.equal(up.status, 200, JSON.stringify(up.body));
      await acct.call("POST", "/workers/scripts/reader/subdomain", { enabled: true });
    }
    const ra = await fetch(`${edge.ready.workers}/${a.subdomain}/reader/`);
    assert.equal(await ra.text(), "r2-a");
    const rb = await getWithHost(`reader.${b.subdomain}.workers.dev`, "/");
    assert.equal(rb.text, "r2-b");
    const rbl = await getWithHost(`reader.${b.subdomain}.localhost`, "/");
    assert.equal(rbl.text, "r2-b");
    // the legacy forms do not reach an account's worker
    const legacy = await getWithHost("reader.localhost", "/");
    assert.equal(legacy.status, 404);
  });

  test("same script and Workflow names run in both accounts; URLs carry the account's subdomain", async () => {
    await deployDemo(a, "twin");
    await deployDemo(b, "twin");
    const sub = await a.call("GET", "/workers/subdomain");
    assert.equal(sub.body.result.subdomain, a.subdomain);
    const res = await fetch(`${edge.ready.workers}/${a.subdomain}/twin/hello?x=1`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.path, "/hello");
    assert.equal(body.host.split(":")[0], `twin.${a.subdomain}.localhost`);
    // not in the legacy account, nor under the other subdomain before B's own deploy
    const legacy = await fetch(`${edge.ready.workers}/twin/`);
    assert.equal(legacy.status, 404);
    const ia = await a.call("POST", "/workflows/twin/instances", { instance_id: "same-id", params: { n: 1 } });
    assert.equal(ia.status, 200, JSON.stringify(ia.body));
    const ib = await b.call("POST", "/workflows/twin/instances", { instance_id: "same-id", params: { n: 5 } });
    assert.equal(ib.status, 200, JSON.stringify(ib.body));
    const da = await waitStatus(a, "twin", "same-id", "complete");
    const db = await waitStatus(b, "twin", "same-id", "complete");
    assert.equal(da.output.a.n, 2);
    assert.equal(db.output.a.n, 10);
    const la = await a.call("GET", "/workflows/twin/instances");
    assert.deepEqual(
      la.body.result.map((i) => i.id),
      ["same-id"],
    );
    // attack: a read of several instances (the edge's POST …/instances/read) resolves within the account: B's read
    // of the same id answers B's instance, and on A's path B's token is 9109; twin: A reads its own
    const ra = await a.call("POST", "/workflows/twin/instances/read", { ids: ["same-id"] });
    assert.equal(ra.body.result[0].result.output.a.n, 2);
    const rb = await b.call("POST", "/workflows/twin/instances/read", { ids: ["same-id"] });
    assert.equal(rb.body.result[0].result.output.a.n, 10);
    const crossRead = await b.call("POST", `${a.account}/workflows/twin/instances/read`, { ids: ["same-id"] });
    assert.equal(crossRead.status, 403);
    assert.equal(crossRead.body.errors[0].code, 9109);
    // attack: B cannot see A's scripts in its list, nor read A's script by name (its own twin answers)
    const lb = await b.call("GET", "/workers/scripts");
    assert.deepEqual(lb.body.result.map((s) => s.id).sort(), ["reader", "twin"]);
    const legacyList = await edge.call("GET", "/workers/scripts");
    assert.ok(!legacyList.body.result.some((s) => s.id === "twin"));
  });

  test("attack: service bindings and workflow script_name resolve within the account", async () => {
    const only = `export default { async fetch() { return new Response("secret of a"); } };`;
    let r = await upload(a, "only-a", { source: only });
    assert.equal(r.status, 200);
    await a.call("POST", "/workers/scripts/only-a/subdomain", { enabled: true });
    const caller = `export default { async fetch(req, env) { if (!env.S) return new Response("unbound"); return env.S.fetch("http://x/"); } };`;
    r = await upload(b, "caller", { source: caller, bindings: [{ type: "service", name: "S", service: "only-a" }] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await b.call("POST", "/workers/scripts/caller/subdomain", { enabled: true });
    const res = await fetch(`${edge.ready.workers}/${b.subdomain}/caller/`);
    assert.equal(await res.text(), "unbound");
    // a Workflow of B naming A's script is refused as a script B does not have
    const wf = await b.call("PUT", "/workflows/stolen", { script_name: "only-a", class_name: "DemoWorkflow" });
    assert.equal(wf.status, 404);
    assert.equal(wf.body.errors[0].code, 10007);
    // A's worker is not served under B's subdomain
    const cross = await fetch(`${edge.ready.workers}/${b.subdomain}/only-a/`);
    assert.equal(cross.status, 404);
    // twin: within A, a service binding to its own script works
    r = await upload(a, "caller", { source: caller, bindings: [{ type: "service", name: "S", service: "only-a" }] });
    assert.equal(r.status, 200);
    await a.call("POST", "/workers/scripts/caller/subdomain", { enabled: true });
    const ok = await fetch(`${edge.ready.workers}/${a.subdomain}/caller/`);
    assert.equal(await ok.text(), "secret of a");
  });

  test("an account cannot take another's subdomain or a legacy script's name", async () => {
    const r = await b.call("PUT", "/workers/subdomain", { subdomain: a.subdomain });
    assert.equal(r.status, 409);
    const up = await upload(edge, "legacy-name");
    assert.equal(up.status, 200);
    const r2 = await b.call("PUT", "/workers/subdomain", { subdomain: "legacy-name" });
    assert.equal(r2.status, 409);
  });
});

describe("accounts survive a restart", () => {
  test("tokens, subdomains, workers and instances are kept; the legacy account is unchanged", async () => {
    const legacyId = edge.ready.accountId;
    const dataDir = edge.dataDir;
    await edge.stop();
    edge = await startEdge({ dataDir });
    assert.equal(edge.ready.accountId, legacyId);
    const again = asAccount(edge, { id: a.accountId, token: a.token, subdomain: a.subdomain });
    const v = await again.call("GET", "/user/tokens/verify");
    assert.equal(v.status, 200);
    const res = await fetch(`${edge.ready.workers}/${a.subdomain}/twin/`);
    assert.equal(res.status, 200);
    const inst = await again.call("GET", "/workflows/twin/instances");
    assert.deepEqual(
      inst.body.result.map((i) => i.id),
      ["same-id"],
    );
    const legacy = await edge.call("GET", "/workers/scripts");
    assert.deepEqual(
      legacy.body.result.map((x) => x.id),
      ["legacy-name"],
    );
  });
});
