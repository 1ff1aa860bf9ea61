// Behaviours of Cloudflare the local edge matches (issue 20, items 1, 2, 5 and 6): secrets kept across uploads,
// bindings kept by a settings PATCH, the limits and codes of Cloudflare, and the data its answers carry. The same
// behaviours are exercised with the real wrangler 3 in conformance/wrangler-fidelity.test.mjs where wrangler can.

import assert from "node:assert/strict";
import http from "node:http";
import { after, before, describe, test } from "node:test";
import { integerParams } from "../src/control.worker.js";
import { deployDemo, instance, startEdge, upload, waitFor, waitStatus } from "./helpers.mjs";

let edge;
before(async () => {
  edge = await startEdge();
});
after(async () => {
  await edge?.stop();
});

const ENV_WORKER = `export default { async fetch(req, env) {
  const out = {};
  for (const [k, v] of Object.entries(env)) out[k] = typeof v === "string" ? v : typeof v;
  return Response.json(out);
} };`;

async function envOf(name) {
  return (await fetch(`${edge.ready.workers}/${name}`)).json();
}

describe("secrets and bindings", () => {
  // Cloudflare keeps a worker's secrets across an upload that does not name them (wrangler deploy sends no
  // keep_bindings), and keeps what the upload marks as inherit.
  test("a plain upload keeps the worker's secrets; inherit keeps a binding; naming a secret replaces it", async () => {
    let r = await upload(edge, "keeper", {
      source: ENV_WORKER,
      bindings: [{ type: "plain_text", name: "VAR", text: "one" }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await edge.call("POST", "/workers/scripts/keeper/subdomain", { enabled: true });
    r = await edge.call("PUT", "/workers/scripts/keeper/secrets", {
      name: "TOKEN",
      text: "s3cr3t",
      type: "secret_text",
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    r = await upload(edge, "keeper", {
      source: ENV_WORKER,
      bindings: [{ type: "plain_text", name: "VAR", text: "two" }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(await envOf("keeper"), { VAR: "two", TOKEN: "s3cr3t" });
    // the versions path (wrangler deploy of an existing worker) keeps them too
    r = await upload(edge, "keeper", {
      source: ENV_WORKER,
      bindings: [{ type: "inherit", name: "VAR" }],
      path: { method: "POST", url: "/workers/scripts/keeper/versions" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const vid = r.body.result.id;
    r = await edge.call("POST", "/workers/scripts/keeper/deployments", {
      strategy: "percentage",
      versions: [{ version_id: vid, percentage: 100 }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(await envOf("keeper"), { VAR: "two", TOKEN: "s3cr3t" });
    r = await upload(edge, "keeper", {
      source: ENV_WORKER,
      bindings: [{ type: "secret_text", name: "TOKEN", text: "new" }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(await envOf("keeper"), { TOKEN: "new" });
    r = await edge.call("GET", "/workers/scripts/keeper/secrets");
    assert.deepEqual(r.body.result, [{ name: "TOKEN", type: "secret_text" }]);
  });

  // Cloudflare error 10053: a secret and a var may not share a name, in either order.
  test("a secret may not shadow a var, nor an upload's var an existing secret (10053)", async () => {
    let r = await upload(edge, "shadow", {
      source: ENV_WORKER,
      bindings: [{ type: "plain_text", name: "NAME", text: "var" }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    r = await edge.call("PUT", "/workers/scripts/shadow/secrets", {
      name: "NAME",
      text: "secret",
      type: "secret_text",
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.errors[0].code, 10053);
    assert.match(r.body.errors[0].message, /Binding name 'NAME' already in use/);
    r = await edge.call("PUT", "/workers/scripts/shadow/secrets", {
      name: "OTHER",
      text: "secret",
      type: "secret_text",
    });
    assert.equal(r.status, 200);
    r = await upload(edge, "shadow", {
      source: ENV_WORKER,
      bindings: [{ type: "plain_text", name: "OTHER", text: "var" }],
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.errors[0].code, 10053);
    r = await upload(edge, "shadow", { source: ENV_WORKER, bindings: [{ type: "json", name: "OTHER", json: 1 }] });
    assert.equal(r.body.errors[0].code, 10053);
    // nothing changed: the worker still has its var and its secret
    r = await edge.call("GET", "/workers/scripts/shadow/settings");
    assert.deepEqual(r.body.result.bindings, [
      { type: "plain_text", name: "NAME", text: "var" },
      { name: "OTHER", type: "secret_text" },
    ]);
    // a settings PATCH that lists a secret and a var of one name is refused the same way
    r = await edge.call("PATCH", "/workers/scripts/shadow/settings", {
      bindings: [
        { type: "plain_text", name: "NAME" },
        { type: "secret_text", name: "NAME", text: "x" },
      ],
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.errors[0].code, 10053);
  });

  // wrangler secret bulk sends every existing binding as {type, name} and the new secrets with their text.
  test("settings PATCH keeps every binding given only as {type, name}", async () => {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "bulk-kv" })).body.result.id;
    const db = (await edge.call("POST", "/d1/database", { name: "bulk-db" })).body.result.uuid;
    await edge.call("POST", "/r2/buckets", { name: "bulk-bucket" });
    const bindings = [
      { type: "plain_text", name: "VAR", text: "v" },
      { type: "json", name: "CONF", json: { a: 1 } },
      { type: "kv_namespace", name: "KV", namespace_id: ns },
      { type: "d1", name: "DB", id: db },
      { type: "r2_bucket", name: "BUCKET", bucket_name: "bulk-bucket" },
      { type: "secret_text", name: "OLD", text: "old-secret" },
    ];
    let r = await upload(edge, "bulk", { source: ENV_WORKER, bindings });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await edge.call("POST", "/workers/scripts/bulk/subdomain", { enabled: true });
    const fd = new FormData();
    fd.set(
      "settings",
      JSON.stringify({
        bindings: [
          ...bindings.map((b) => ({ type: b.type, name: b.name })),
          { type: "secret_text", name: "NEW", text: "new-secret" },
        ],
      }),
    );
    r = await edge.call("PATCH", "/workers/scripts/bulk/settings", fd);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(await envOf("bulk"), {
      VAR: "v",
      CONF: "object",
      KV: "object",
      DB: "object",
      BUCKET: "object",
      OLD: "old-secret",
      NEW: "new-secret",
    });
    // a {type, name} whose type is not the existing binding's is refused with the binding's path
    r = await edge.call("PATCH", "/workers/scripts/bulk/settings", { bindings: [{ type: "plain_text", name: "KV" }] });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /bindings\[0\]: 'KV' is given as plain_text/);
    // and one with no existing binding must carry its value
    r = await edge.call("PATCH", "/workers/scripts/bulk/settings", {
      bindings: [{ type: "plain_text", name: "NOPE" }],
    });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /text/);
  });
});

describe("deleted resources", () => {
  // Cloudflare: a worker bound to a KV namespace, D1 database or R2 bucket that was deleted keeps its binding, and
  // every operation through it fails.
  test("KV, D1 and R2 bindings fail once their resource is deleted; a new one of the same bucket name works", async () => {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "doomed-kv" })).body.result.id;
    const db = (await edge.call("POST", "/d1/database", { name: "doomed-db" })).body.result.uuid;
    await edge.call("POST", "/r2/buckets", { name: "doomed-bucket" });
    const source = `export default { async fetch(req, env) {
      const out = {};
      const attempt = async (k, f) => { try { out[k] = await f(); } catch (e) { out[k] = "error: " + e.message; } };
      await attempt("kv", () => env.KV.get("k"));
      await attempt("d1", async () => (await env.DB.prepare("SELECT 1 AS one").first()).one);
      await attempt("r2", async () => (await env.BUCKET.head("k")) === null ? "none" : "some");
      return Response.json(out);
    } };`;
    let r = await upload(edge, "bound", {
      source,
      bindings: [
        { type: "kv_namespace", name: "KV", namespace_id: ns },
        { type: "d1", name: "DB", id: db },
        { type: "r2_bucket", name: "BUCKET", bucket_name: "doomed-bucket" },
      ],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await edge.call("POST", "/workers/scripts/bound/subdomain", { enabled: true });
    assert.deepEqual(await envOf("bound"), { kv: null, d1: 1, r2: "none" });
    assert.equal((await edge.call("DELETE", `/storage/kv/namespaces/${ns}`)).status, 200);
    assert.equal((await edge.call("DELETE", `/d1/database/${db}`)).status, 200);
    assert.equal((await edge.call("DELETE", "/r2/buckets/doomed-bucket")).status, 200);
    const gone = await envOf("bound");
    assert.match(gone.kv, /^error: KV GET failed: 404 Not Found/);
    assert.match(gone.d1, /^error: D1_ERROR: The database .* could not be found/);
    assert.match(gone.r2, /^error: head: The specified bucket does not exist\. \(10006\)/);
    // a secret put still works on the worker (its kept bindings are not checked again)
    r = await edge.call("PUT", "/workers/scripts/bound/secrets", { name: "S", text: "x", type: "secret_text" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // a bucket created again under the same name is the binding's again
    await edge.call("POST", "/r2/buckets", { name: "doomed-bucket" });
    assert.equal((await envOf("bound")).r2, "none");
  });
});

describe("KV", () => {
  function rawGet(p) {
    return new Promise((resolve, reject) => {
      const u = new URL(edge.account); // the path is sent as written: a URL would resolve %2E%2E
      const req = http.request(
        {
          host: u.hostname,
          port: u.port,
          path: `${u.pathname}${p}`,
          headers: { authorization: `Bearer ${edge.token}` },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode, body: JSON.parse(body) }));
        },
      );
      req.on("error", reject);
      req.end();
    });
  }

  // Cloudflare answers an invalid key with its error envelope (KV keys may not be "." or "..").
  test("a GET of an invalid key answers the error envelope", async () => {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "keys" })).body.result.id;
    for (const k of ["%2E%2E", "%2e", ".."]) {
      const r = await rawGet(`/storage/kv/namespaces/${ns}/values/${k}`);
      assert.equal(r.status, 400, `${k}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.success, false);
      assert.equal(r.body.errors[0].code, 10019);
    }
    const r = await rawGet(`/storage/kv/namespaces/${ns}/metadata/%2E%2E`);
    assert.equal(r.status, 400);
  });

  test("metadata beyond ASCII comes back whole with the value", async () => {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "unicode-md" })).body.result.id;
    const fd = new FormData();
    fd.set("value", "v");
    fd.set("metadata", JSON.stringify({ city: "Zürich", word: "日本" }));
    let r = await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/k`, fd);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const got = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/k`, undefined, { raw: true });
    assert.equal(got.status, 200);
    assert.deepEqual(JSON.parse(got.headers.get("cf-kv-metadata")), { city: "Zürich", word: "日本" });
    r = await edge.call("GET", `/storage/kv/namespaces/${ns}/metadata/k`);
    assert.deepEqual(r.body.result, { city: "Zürich", word: "日本" });
  });

  // Cloudflare's KV value limit is 25 MiB of value; the multipart envelope around it does not count.
  test("the value size limit counts the value, not the multipart body", async () => {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "sizes" })).body.result.id;
    const limit = 25 << 20;
    const fd = new FormData();
    fd.set("value", new Blob([Buffer.alloc(limit, 97)]));
    fd.set("metadata", JSON.stringify({ m: "x".repeat(900) }));
    let r = await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/big`, fd);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const got = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/big`, undefined, { raw: true });
    assert.equal((await got.arrayBuffer()).byteLength, limit);
    const over = new FormData();
    over.set("value", new Blob([Buffer.alloc(limit + 1, 97)]));
    r = await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/bigger`, over);
    assert.equal(r.status, 413);
    assert.match(r.body.errors[0].message, /Value length of 26214401 exceeds limit of 26214400/);
  });
});

describe("R2", () => {
  // Cloudflare keeps an object's HTTP metadata (content-type, content-disposition, content-encoding,
  // content-language, cache-control, expires) and serves it through the API and the binding.
  test("objects keep their HTTP metadata through the API and the binding", async () => {
    await edge.call("POST", "/r2/buckets", { name: "meta-bucket" });
    const headers = {
      "content-type": "text/csv",
      "content-disposition": 'attachment; filename="report.csv"',
      "content-encoding": "identity",
      "content-language": "de-CH",
      "cache-control": "public, max-age=3600",
      expires: "Wed, 21 Oct 2037 07:28:00 GMT",
    };
    let r = await edge.call("PUT", "/r2/buckets/meta-bucket/objects/report.csv", "a,b\n1,2\n", { headers });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const got = await edge.call("GET", "/r2/buckets/meta-bucket/objects/report.csv", undefined, { raw: true });
    for (const [k, v] of Object.entries(headers)) assert.equal(got.headers.get(k), v, k);
    assert.equal(await got.text(), "a,b\n1,2\n");
    r = await edge.call("GET", "/r2/buckets/meta-bucket/objects");
    assert.equal(r.body.result[0].http_metadata.cacheControl, "public, max-age=3600");
    assert.equal(r.body.result[0].http_metadata.contentDisposition, 'attachment; filename="report.csv"');
    r = await edge.call("PUT", "/r2/buckets/meta-bucket/objects/x", "x", { headers: { expires: "not a date" } });
    assert.equal(r.status, 400);
    const source = `export default { async fetch(req, env) {
      if (req.method === "PUT") {
        await env.B.put("from-worker.txt", "hi", { httpMetadata: { contentType: "text/plain", cacheControl: "no-store", contentDisposition: "inline" } });
        return new Response("ok");
      }
      const o = await env.B.get("report.csv");
      const h = new Headers();
      o.writeHttpMetadata(h);
      return Response.json(Object.fromEntries(h));
    } };`;
    r = await upload(edge, "r2meta", {
      source,
      bindings: [{ type: "r2_bucket", name: "B", bucket_name: "meta-bucket" }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await edge.call("POST", "/workers/scripts/r2meta/subdomain", { enabled: true });
    const seen = await (await fetch(`${edge.ready.workers}/r2meta`)).json();
    assert.equal(seen["cache-control"], "public, max-age=3600");
    assert.equal(seen["content-disposition"], 'attachment; filename="report.csv"');
    assert.equal(seen["content-language"], "de-CH");
    assert.equal(seen.expires, "Wed, 21 Oct 2037 07:28:00 GMT");
    await fetch(`${edge.ready.workers}/r2meta`, { method: "PUT" });
    const back = await edge.call("GET", "/r2/buckets/meta-bucket/objects/from-worker.txt", undefined, { raw: true });
    assert.equal(back.headers.get("cache-control"), "no-store");
    assert.equal(back.headers.get("content-disposition"), "inline");
    assert.equal(back.headers.get("content-type"), "text/plain");
    // values beyond ASCII go as their UTF-8 bytes, both ways
    const name = 'attachment; filename="Übersicht-日本.csv"';
    const asBytes = Buffer.from(name, "utf8").toString("latin1");
    r = await edge.call("PUT", "/r2/buckets/meta-bucket/objects/unicode.csv", "x", {
      headers: { "content-disposition": asBytes },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const u = await edge.call("GET", "/r2/buckets/meta-bucket/objects/unicode.csv", undefined, { raw: true });
    assert.equal(u.status, 200, await u.clone().text());
    assert.equal(Buffer.from(u.headers.get("content-disposition"), "latin1").toString("utf8"), name);
    r = await edge.call("GET", "/r2/buckets/meta-bucket/objects?prefix=unicode");
    assert.equal(r.body.result[0].http_metadata.contentDisposition, name);
  });
});

describe("D1", () => {
  // Cloudflare's D1 binds whole numbers as INTEGER and booleans as 1/0; only other numbers are REAL.
  test("whole numbers and booleans bound in queries are integers, through the API and the binding", async () => {
    const db = (await edge.call("POST", "/d1/database", { name: "types-db" })).body.result.uuid;
    const sql =
      "SELECT typeof(?1) AS t1, ?1 || '' AS s1, typeof(?2) AS t2, ?2 || '' AS s2, typeof(?3) AS t3, ?3 AS v3, ? AS v4, typeof(?4) AS t4, '?1' AS q";
    let r = await edge.call("POST", `/d1/database/${db}/query`, { sql, params: [5, true, 2.5, "7"] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.result[0].results, [
      { t1: "integer", s1: "5", t2: "integer", s2: "1", t3: "real", v3: 2.5, v4: "7", t4: "text", q: "?1" },
    ]);
    await edge.call("POST", `/d1/database/${db}/query`, { sql: "CREATE TABLE t (a, b)" });
    r = await edge.call("POST", `/d1/database/${db}/query`, {
      sql: "INSERT INTO t VALUES (?, ?)",
      params: [42, false],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const source = `export default { async fetch(req, env) {
      await env.DB.prepare("INSERT INTO t VALUES (?, ?)").bind(7, true).run();
      const rows = await env.DB.prepare("SELECT a, b, typeof(a) AS ta, typeof(b) AS tb FROM t ORDER BY rowid").all();
      return Response.json(rows.results);
    } };`;
    r = await upload(edge, "d1types", { source, bindings: [{ type: "d1", name: "DB", id: db }] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await edge.call("POST", "/workers/scripts/d1types/subdomain", { enabled: true });
    assert.deepEqual(await (await fetch(`${edge.ready.workers}/d1types`)).json(), [
      { a: 42, b: 0, ta: "integer", tb: "integer" },
      { a: 7, b: 1, ta: "integer", tb: "integer" },
    ]);
  });

  test("integerParams rewrites only the placeholders of whole numbers", () => {
    assert.equal(
      integerParams("SELECT ?, ?2, ?", [1, "a", true]),
      "SELECT CAST(?1 AS INTEGER), ?2, CAST(?3 AS INTEGER)",
    );
    assert.equal(
      integerParams("SELECT ? WHERE b = '?' -- ?\n LIMIT ?", [2.5, 3]),
      "SELECT ? WHERE b = '?' -- ?\n LIMIT CAST(?2 AS INTEGER)",
    );
    assert.equal(integerParams("SELECT :a, ?", [1, 2]), "SELECT :a, ?");
    assert.equal(integerParams("PRAGMA miniflare_d1_export(?,?,?);", [0, 0]), "PRAGMA miniflare_d1_export(?,?,?);");
    assert.equal(integerParams('SELECT "a?b", [c?], ?', [1]), 'SELECT "a?b", [c?], CAST(?1 AS INTEGER)');
  });

  // Cloudflare's database details carry num_tables and file_size (wrangler d1 info).
  test("database details have the table count and the file size", async () => {
    const db = (await edge.call("POST", "/d1/database", { name: "info-db" })).body.result.uuid;
    await edge.call("POST", `/d1/database/${db}/query`, {
      sql: "CREATE TABLE a (x); CREATE TABLE b (y); CREATE INDEX bi ON b (y)",
    });
    const r = await edge.call("GET", `/d1/database/${db}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.result.num_tables, 2);
    assert.ok(r.body.result.file_size >= 8192, JSON.stringify(r.body.result));
  });
});

describe("workflows", () => {
  // Cloudflare: instance params and event payloads are at most 1 MiB.
  test("params and event payloads over 1 MiB are refused", async () => {
    await deployDemo(edge, "bigparams");
    const big = { s: "x".repeat(1 << 20) };
    let r = await edge.call("POST", "/workflows/bigparams/instances", { instance_id: "big", params: big });
    assert.equal(r.status, 413, JSON.stringify(r.body).slice(0, 300));
    assert.match(r.body.errors[0].message, /over the Workflows limit of 1 MiB/);
    r = await edge.call("POST", "/workflows/bigparams/instances/batch", [{ params: {} }, { params: big }]);
    assert.equal(r.status, 413);
    assert.match(r.body.errors[0].message, /^\[1\]\.params/);
    r = await edge.call("GET", "/workflows/bigparams/instances");
    assert.deepEqual(r.body.result, []);
    r = await edge.call("POST", "/workflows/bigparams/instances", {
      instance_id: "fits",
      params: { s: "x".repeat((1 << 20) - 100), waitFor: "go" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
    await waitStatus(edge, "bigparams", "fits", "waiting");
    r = await edge.call("POST", "/workflows/bigparams/instances/fits/events/go", big);
    assert.equal(r.status, 413);
  });

  // Cloudflare gives a workflow a new version with every deploy of its script; an instance shows the version it
  // started on, and a finished instance has its end time.
  test("workflow versions follow deploys; instances keep theirs; finished ones have an end time", async () => {
    await deployDemo(edge, "versioned");
    let r = await edge.call("POST", "/workflows/versioned/instances", { instance_id: "v1", params: {} });
    const v1 = r.body.result.version_id;
    await waitStatus(edge, "versioned", "v1", "complete");
    await deployDemo(edge, "versioned"); // upload + PUT workflow, as wrangler deploy does
    r = await edge.call("GET", "/workflows/versioned/versions");
    assert.equal(r.body.result.length, 2);
    const v2 = r.body.result[0].id;
    assert.notEqual(v2, v1);
    assert.equal(r.body.result[1].id, v1);
    r = await edge.call("POST", "/workflows/versioned/instances", { instance_id: "v2", params: { waitFor: "go" } });
    assert.equal(r.body.result.version_id, v2);
    assert.equal((await instance(edge, "versioned", "v1")).versionId, v1);
    assert.equal((await instance(edge, "versioned", "v2")).versionId, v2);
    assert.equal((await edge.call("GET", "/workflows/versioned")).body.result.version_id, v2);
    // a secret put is a deploy too
    await edge.call("PUT", "/workers/scripts/versioned/secrets", { name: "S", text: "x", type: "secret_text" });
    assert.equal((await edge.call("GET", "/workflows/versioned/versions")).body.result.length, 3);
    await waitStatus(edge, "versioned", "v2", "waiting");
    await edge.call("PATCH", "/workflows/versioned/instances/v2/status", { status: "terminate" });
    await waitStatus(edge, "versioned", "v2", "terminated");
    r = await waitFor(
      async () => {
        const l = await edge.call("GET", "/workflows/versioned/instances");
        return l.body.result.every((it) => it.ended_on) ? l : false;
      },
      { what: "end times in the list" },
    );
    const byId = Object.fromEntries(r.body.result.map((it) => [it.id, it]));
    assert.equal(byId.v1.version_id, v1);
    assert.equal(byId.v2.version_id, v2);
    for (const it of r.body.result) assert.ok(Date.parse(it.ended_on) >= Date.parse(it.created_on), JSON.stringify(it));
    const one = await instance(edge, "versioned", "v1");
    assert.ok(one.end);
  });
});
