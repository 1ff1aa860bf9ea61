import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { startEdge, upload } from "./helpers.mjs";
import { splitStatements } from "../src/control.worker.js";

let edge;
before(async () => {
  edge = await startEdge();
});
after(async () => {
  await edge?.stop();
});

describe("KV", () => {
  test("namespaces, keys with '/' and spaces, values, metadata, paging", async () => {
    const c = await edge.call("POST", "/storage/kv/namespaces", { title: "my-kv" });
    assert.equal(c.status, 200, JSON.stringify(c.body));
    const ns = c.body.result.id;
    const dup = await edge.call("POST", "/storage/kv/namespaces", { title: "my-kv" });
    assert.equal(dup.body.errors[0].code, 10014);
    const list = await edge.call("GET", "/storage/kv/namespaces?per_page=100&order=title&direction=asc&page=1");
    assert.deepEqual(list.body.result, [{ id: ns, title: "my-kv", supports_url_encoding: true }]);
    // wrangler escapes '/', cloudflare-go does not: both reach the same key
    let r = await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/k%201%2Fx`, "value one", {
      headers: { "content-type": "text/plain" },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const got = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/k%201/x`, undefined, { raw: true });
    assert.equal(got.status, 200);
    assert.equal(await got.text(), "value one");
    const fd = new FormData();
    fd.set("value", "with metadata");
    fd.set("metadata", JSON.stringify({ owner: "bob" }));
    r = await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/meta%2Fkey`, fd);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    r = await edge.call("GET", `/storage/kv/namespaces/${ns}/metadata/meta%2Fkey`);
    assert.deepEqual(r.body.result, { owner: "bob" });
    r = await edge.call(
      "PUT",
      `/storage/kv/namespaces/${ns}/bulk`,
      Array.from({ length: 15 }, (_, i) => ({ key: `p/${String(i).padStart(2, "0")}`, value: `v${i}` })),
    );
    assert.equal(r.body.result.successful_key_count, 15);
    r = await edge.call("GET", `/storage/kv/namespaces/${ns}/keys?prefix=p/&limit=10`);
    assert.equal(r.body.result.length, 10);
    assert.ok(r.body.result_info.cursor);
    const r2 = await edge.call(
      "GET",
      `/storage/kv/namespaces/${ns}/keys?prefix=p/&limit=10&cursor=${encodeURIComponent(r.body.result_info.cursor)}`,
    );
    assert.equal(r2.body.result.length, 5);
    assert.equal(r2.body.result_info.cursor, "");
    r = await edge.call("GET", `/storage/kv/namespaces/${ns}/keys`);
    assert.ok(r.body.result.some((k) => k.name === "k 1/x"));
    assert.deepEqual(r.body.result.find((k) => k.name === "meta/key").metadata, { owner: "bob" });
    r = await edge.call("GET", `/storage/kv/namespaces/${ns}/keys?limit=5`);
    assert.equal(r.status, 400);
    r = await edge.call("DELETE", `/storage/kv/namespaces/${ns}/values/k%201%2Fx`);
    assert.equal(r.status, 200);
    r = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/k%201%2Fx`);
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 10009);
    r = await edge.call("GET", "/storage/kv/namespaces/nope/keys");
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 10013);
  });

  test("a worker reads what the API wrote", async () => {
    const c = await edge.call("POST", "/storage/kv/namespaces", { title: "shared" });
    const ns = c.body.result.id;
    await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/greeting`, "from api");
    const up = await upload(edge, "kvreader", {
      source: `export default { async fetch(req, env) { await env.KV.put("from-worker", "yes"); return new Response(await env.KV.get("greeting")); } };`,
      bindings: [{ type: "kv_namespace", name: "KV", namespace_id: ns }],
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    await edge.call("POST", "/workers/scripts/kvreader/subdomain", { enabled: true });
    assert.equal(await (await fetch(`${edge.ready.workers}/kvreader`)).text(), "from api");
    const v = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/from-worker`, undefined, { raw: true });
    assert.equal(await v.text(), "yes");
  });
});

describe("D1", () => {
  test("create, list, query with params of any JSON type, raw, batch, errors", async () => {
    const c = await edge.call("POST", "/d1/database", { name: "my-db" });
    assert.equal(c.status, 200, JSON.stringify(c.body));
    const id = c.body.result.uuid;
    const list = await edge.call("GET", "/d1/database?per_page=10&page=1");
    assert.ok(list.body.result.some((d) => d.uuid === id && d.name === "my-db"));
    let r = await edge.call("POST", `/d1/database/${id}/query`, {
      sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL, flag INTEGER, blob TEXT); INSERT INTO t (name) VALUES ('seed');",
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.result.length, 2);
    r = await edge.call("POST", `/d1/database/${id}/query`, {
      sql: "INSERT INTO t (name, score, flag, blob) VALUES (?, ?, ?, ?)",
      params: ["widget; with semicolon", 2.5, true, { a: [1, 2] }],
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.result[0].meta.changes, 1);
    r = await edge.call("POST", `/d1/database/${id}/query`, {
      sql: "SELECT name, score, flag, blob, typeof(score) AS ts FROM t WHERE score > ? AND name IS NOT ?",
      params: [1, null],
    });
    assert.deepEqual(r.body.result[0].results, [
      { name: "widget; with semicolon", score: 2.5, flag: 1, blob: '{"a":[1,2]}', ts: "real" },
    ]);
    r = await edge.call("POST", `/d1/database/${id}/raw`, { sql: "SELECT id, name FROM t ORDER BY id" });
    assert.deepEqual(r.body.result[0].results, {
      columns: ["id", "name"],
      rows: [
        [1, "seed"],
        [2, "widget; with semicolon"],
      ],
    });
    r = await edge.call("POST", `/d1/database/${id}/query`, {
      batch: [{ sql: "SELECT 1 AS one" }, { sql: "SELECT ? AS two", params: [2] }],
    });
    assert.deepEqual(
      r.body.result.map((x) => x.results),
      [[{ one: 1 }], [{ two: 2 }]],
    );
    r = await edge.call("POST", `/d1/database/${id}/query`, { sql: "SELECT * FROM missing_table" });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /no such table/);
    r = await edge.call("POST", `/d1/database/${id}/query`, { sql: "" });
    assert.equal(r.status, 400);
    r = await edge.call("POST", "/d1/database/00000000-0000-0000-0000-000000000000/query", { sql: "SELECT 1" });
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 7404);
    r = await edge.call("POST", "/d1/database", { name: "my-db" });
    assert.equal(r.status, 400);
  });

  test("edgeflow_read_only=true: reads answer, every change is rolled back by the database (403, 7403)", async () => {
    const c = await edge.call("POST", "/d1/database", { name: "read-only-db" });
    const id = c.body.result.uuid;
    await edge.call("POST", `/d1/database/${id}/query`, {
      sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2)",
    });
    const ro = (body, raw = false) =>
      edge.call("POST", `/d1/database/${id}/${raw ? "raw" : "query"}?edgeflow_read_only=true`, body);
    let r = await ro({ sql: "SELECT count(*) AS n FROM t; SELECT max(a) AS m FROM t" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.result.map((x) => x.results),
      [[{ n: 2 }], [{ m: 2 }]],
    );
    r = await ro({ sql: "SELECT a FROM t WHERE a = ?", params: [2] }, true);
    assert.deepEqual(r.body.result[0].results, { columns: ["a"], rows: [[2]] });
    for (const sql of [
      "INSERT INTO t VALUES (3)",
      "DROP TABLE t; CREATE TABLE t (a INTEGER)",
      "SELECT 1; DELETE FROM t",
      "CREATE TABLE u (b)",
      "DROP TABLE t; CREATE TABLE t AS SELECT 7 AS a UNION ALL SELECT 8",
      "DROP TABLE t",
      "drop table if exists t",
      "ALTER TABLE t RENAME TO u",
      "ALTER TABLE t RENAME COLUMN a TO b",
      "ALTER TABLE t ADD COLUMN c TEXT",
    ]) {
      r = await ro({ sql });
      assert.equal(r.status, 403, `${sql}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.errors[0].code, 7403);
    }
    r = await ro({ batch: [{ sql: "SELECT 1" }, { sql: "UPDATE t SET a = 0" }] });
    assert.equal(r.status, 403);
    r = await ro({ sql: "SELECT * FROM missing_table" });
    assert.equal(r.status, 400);
    r = await edge.call("POST", `/d1/database/${id}/query?edgeflow_read_only=yes`, { sql: "SELECT 1" });
    assert.equal(r.status, 400);
    r = await edge.call("POST", `/d1/database/${id}/query`, { sql: "SELECT group_concat(a) AS v FROM t" });
    assert.deepEqual(r.body.result[0].results, [{ v: "1,2" }]);
  });

  test("statement splitting keeps strings, comments and trigger bodies", () => {
    assert.deepEqual(splitStatements("SELECT 'a;b'; -- c;\nSELECT \"x;\"; /* ; */ SELECT 3"), [
      "SELECT 'a;b'",
      '-- c;\nSELECT "x;"',
      "/* ; */ SELECT 3",
    ]);
    const trig = "CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET a = 1; UPDATE t SET b = 2; END; SELECT 1";
    assert.deepEqual(splitStatements(trig), [
      "CREATE TRIGGER tr AFTER INSERT ON t BEGIN UPDATE t SET a = 1; UPDATE t SET b = 2; END",
      "SELECT 1",
    ]);
    assert.deepEqual(splitStatements("BEGIN; SELECT 1; COMMIT;"), ["BEGIN", "SELECT 1", "COMMIT"]);
  });
});

describe("R2", () => {
  test("buckets, objects, listing with prefix and cursor", async () => {
    let r = await edge.call("POST", "/r2/buckets", { name: "my-bucket" });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    r = await edge.call("POST", "/r2/buckets", { name: "Bad_Name" });
    assert.equal(r.status, 400);
    r = await edge.call("GET", "/r2/buckets");
    assert.deepEqual(
      r.body.result.buckets.map((b) => b.name),
      ["my-bucket"],
    );
    for (const k of ["reports/a.json", "reports/b.json", "reports/c d.json", "other.txt"]) {
      r = await edge.call("PUT", `/r2/buckets/my-bucket/objects/${encodeURIComponent(k)}`, `{"k":"${k}"}`, {
        headers: { "content-type": "application/json" },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
    r = await edge.call("GET", "/r2/buckets/my-bucket/objects?prefix=reports/&per_page=2");
    assert.deepEqual(
      r.body.result.map((o) => o.key),
      ["reports/a.json", "reports/b.json"],
    );
    assert.ok(r.body.result_info.cursor);
    assert.equal(r.body.result_info.is_truncated, "true");
    const r2 = await edge.call(
      "GET",
      `/r2/buckets/my-bucket/objects?prefix=reports/&per_page=2&cursor=${encodeURIComponent(r.body.result_info.cursor)}`,
    );
    assert.deepEqual(
      r2.body.result.map((o) => o.key),
      ["reports/c d.json"],
    );
    assert.equal(r2.body.result_info.cursor, "");
    r = await edge.call("GET", "/r2/buckets/my-bucket/objects?delimiter=/");
    assert.deepEqual(r.body.result_info.delimited, ["reports/"]);
    const obj = await edge.call("GET", "/r2/buckets/my-bucket/objects/reports/c%20d.json", undefined, { raw: true });
    assert.equal(obj.headers.get("content-type"), "application/json");
    assert.deepEqual(await obj.json(), { k: "reports/c d.json" });
    r = await edge.call("GET", "/r2/buckets/my-bucket/objects/none");
    assert.equal(r.status, 404);
    r = await edge.call("DELETE", "/r2/buckets/my-bucket");
    assert.equal(r.status, 409);
    r = await edge.call("GET", "/r2/buckets/nope/objects");
    assert.equal(r.body.errors[0].code, 10006);
  });
});
