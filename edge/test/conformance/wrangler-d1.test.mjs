// D1 import, export and Time Travel with the real wrangler 3 CLI against one edge (issue 20 item 3; decisions
// 256-258). wrangler is installed as wrangler.test.mjs installs it; EDGE_SKIP_WRANGLER=1 skips the file (for
// machines without the npm registry), and CI=1 refuses to skip silently.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { asAccount, provision, startEdge, tempDir } from "../helpers.mjs";
import { installWrangler, runWrangler, skip } from "./wrangler-cli.mjs";

let root;
let edge;
let project;
let home;
let dbId;
let copyId;

before(async () => {
  if (skip) return;
  installWrangler();
  root = await startEdge();
  const mine = await provision(root, { name: "d1io", ref: "d1io" });
  assert.equal(mine.status, 201, JSON.stringify(mine.body));
  edge = asAccount(root, mine.body);
  dbId = (await edge.call("POST", "/d1/database", { name: "io-db" })).body.result.uuid;
  copyId = (await edge.call("POST", "/d1/database", { name: "io-copy" })).body.result.uuid;
  project = tempDir("edge-wrangler-d1-");
  home = tempDir("edge-wrangler-d1-home-");
  fs.writeFileSync(
    path.join(project, "wrangler.toml"),
    `name = "d1-io"
compatibility_date = "2025-01-01"

[[d1_databases]]
binding = "DB"
database_name = "io-db"
database_id = "${dbId}"

[[d1_databases]]
binding = "COPY"
database_name = "io-copy"
database_id = "${copyId}"
`,
  );
});

after(async () => {
  await root?.stop();
});

// wrangler runs the CLI in the project and resolves with its output, or rejects with it (unless `fail` is set, then
// it resolves with {code, out}).
const wrangler = (args, { fail = false } = {}) => runWrangler(args, { project, home, edge, fail });

async function rows(db, sql) {
  const r = await edge.call("POST", `/d1/database/${db}/query`, { sql });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body.result[0].results;
}

function write(name, text) {
  const p = path.join(project, name);
  fs.writeFileSync(p, text);
  return p;
}

const SEED = `-- a schema with quoting, a trigger body with semicolons, an index and a view
CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT, data BLOB);
CREATE TABLE log (item INTEGER, what TEXT);
CREATE TRIGGER items_log AFTER INSERT ON items BEGIN
  INSERT INTO log VALUES (new.id, 'added; ' || new.name);
END;
CREATE INDEX items_name ON items(name);
CREATE VIEW named AS SELECT name FROM items;
INSERT INTO items VALUES (1, 'it''s one', NULL, X'00ff');
INSERT INTO items VALUES (2, 'two; with semicolon', 'line
break', NULL);
/* a block comment; with a semicolon */
INSERT INTO items (id, name) VALUES (3, "three");
`;

test("wrangler@3 d1 import, export and time travel against the local edge", { skip, timeout: 300000 }, async (t) => {
  await t.test("d1 execute --remote --file: init, upload, ingest, poll", async () => {
    // Cloudflare: `d1 execute --remote --file` asks POST …/import {action:"init", etag} for an upload URL, PUTs
    // the file there (the answer's ETag must be the file's md5), then {action:"ingest"} and {action:"poll"} until
    // status "complete", whose result has num_queries, final_bookmark and meta (rows read and written).
    write("seed.sql", SEED);
    const out = await wrangler(["d1", "execute", "io-db", "--remote", "--file", "seed.sql"]);
    assert.match(out, /Executed 8 queries/);
    assert.match(out, /Database is currently at bookmark [0-9a-f-]+/);
    assert.deepEqual(await rows(dbId, "SELECT id, name, note, hex(data) AS data FROM items ORDER BY id"), [
      { id: 1, name: "it's one", note: null, data: "00FF" },
      { id: 2, name: "two; with semicolon", note: "line\nbreak", data: "" },
      { id: 3, name: "three", note: null, data: "" },
    ]);
    assert.deepEqual(
      (await rows(dbId, "SELECT what FROM log ORDER BY item")).map((r) => r.what),
      ["added; it's one", "added; two; with semicolon", "added; three"],
    );
  });

  await t.test('a long import answers "active" and wrangler polls it to the end', async () => {
    // Cloudflare: ingest and poll answer status "active" while the import runs, with at_bookmark to poll again.
    const lines = ["CREATE TABLE bulk (i INTEGER PRIMARY KEY, pad TEXT);"];
    for (let i = 0; i < 40000; i++) lines.push(`INSERT INTO bulk VALUES (${i}, '${"x".repeat(40)}');`);
    write("bulk.sql", lines.join("\n"));
    const out = await wrangler(["d1", "execute", "io-db", "--remote", "--file", "bulk.sql"]);
    assert.match(out, /Executed 40001 queries/);
    assert.deepEqual(await rows(dbId, "SELECT count(*) AS n FROM bulk"), [{ n: 40000 }]);
    await edge.call("POST", `/d1/database/${dbId}/query`, { sql: "DROP TABLE bulk" });
  });

  await t.test("a failing import leaves the database as it was", async () => {
    // Cloudflare: "if the execution fails to complete, your DB will return to its original state" (wrangler's
    // note); the import runs as one unit, so the statements before the failing one are rolled back.
    write("bad.sql", "INSERT INTO items (id, name) VALUES (10, 'ten');\nINSERT INTO nowhere VALUES (1);\n");
    const bad = await wrangler(["d1", "execute", "io-db", "--remote", "--file", "bad.sql"], { fail: true });
    assert.notEqual(bad.code, 0);
    assert.match(bad.out, /no such table: nowhere/);
    assert.deepEqual(await rows(dbId, "SELECT count(*) AS n FROM items"), [{ n: 3 }]);
    // D1 documents that an imported file must not manage transactions itself (BEGIN TRANSACTION / COMMIT).
    write("tx.sql", "BEGIN TRANSACTION;\nINSERT INTO items (id, name) VALUES (11, 'eleven');\nCOMMIT;\n");
    const tx = await wrangler(["d1", "execute", "io-db", "--remote", "--file", "tx.sql"], { fail: true });
    assert.notEqual(tx.code, 0);
    assert.match(tx.out, /must not contain transaction statements/);
    assert.deepEqual(await rows(dbId, "SELECT count(*) AS n FROM items"), [{ n: 3 }]);
  });

  await t.test("the same file again is not uploaded again", async () => {
    // Cloudflare: an init whose etag names a file already uploaded answers without upload_url and starts it
    // (wrangler prints "File already uploaded. Processing.").
    write("more.sql", "INSERT INTO items (id, name) VALUES (20, 'twenty');\n");
    await wrangler(["d1", "execute", "io-db", "--remote", "--file", "more.sql"]);
    await edge.call("POST", `/d1/database/${dbId}/query`, { sql: "DELETE FROM items WHERE id = 20" });
    const again = await wrangler(["d1", "execute", "io-db", "--remote", "--file", "more.sql"]);
    assert.match(again, /File already uploaded/);
    assert.deepEqual(await rows(dbId, "SELECT name FROM items WHERE id = 20"), [{ name: "twenty" }]);
    await edge.call("POST", `/d1/database/${dbId}/query`, { sql: "DELETE FROM items WHERE id = 20" });
  });

  await t.test(
    "d1 export --remote: schema and rows, --no-data, --no-schema, --table; the dump imports back",
    async () => {
      // Cloudflare: `d1 export --remote` polls POST …/export {output_format:"polling", dump_options} until status
      // "complete" and downloads result.signed_url: an SQL file of the schema (CREATE TABLE, index, trigger, view)
      // and every row as INSERT statements.
      await wrangler(["d1", "export", "io-db", "--remote", "--output", "all.sql"]);
      const all = fs.readFileSync(path.join(project, "all.sql"), "utf8");
      assert.match(all, /CREATE TABLE IF NOT EXISTS items|CREATE TABLE items/);
      assert.match(all, /CREATE TRIGGER items_log/);
      assert.match(all, /CREATE INDEX items_name/);
      assert.match(all, /CREATE VIEW named/);
      // (miniflare 5's dump names the columns: INSERT INTO "items" ("id",…) VALUES(…))
      assert.match(all, /INSERT INTO "?items"? (\("id","name","note","data"\) )?VALUES\(1,'it''s one',NULL,X'00ff'\);/);
      await wrangler(["d1", "export", "io-db", "--remote", "--output", "schema.sql", "--no-data"]);
      const schema = fs.readFileSync(path.join(project, "schema.sql"), "utf8");
      assert.match(schema, /CREATE TRIGGER/);
      assert.doesNotMatch(schema, /^INSERT INTO/m);
      await wrangler(["d1", "export", "io-db", "--remote", "--output", "data.sql", "--no-schema", "--table", "log"]);
      const data = fs.readFileSync(path.join(project, "data.sql"), "utf8");
      assert.doesNotMatch(data, /^CREATE/m);
      assert.match(data, /INSERT INTO "?log"?/);
      assert.doesNotMatch(data, /^INSERT INTO "?items"?/m);
      // The full dump is a valid import: into the empty copy, it gives the same rows.
      await wrangler(["d1", "execute", "io-copy", "--remote", "--file", "all.sql"]);
      const q = "SELECT id, name, note, hex(data) AS data FROM items ORDER BY id";
      assert.deepEqual(await rows(copyId, q), await rows(dbId, q));
      // The dump creates triggers after the rows, so the copy's log is the original's, not doubled.
      const l = "SELECT item, what FROM log ORDER BY rowid";
      assert.deepEqual(await rows(copyId, l), await rows(dbId, l));
    },
  );

  await t.test("d1 time-travel info and restore answer a clear error", async () => {
    // Cloudflare: GET …/time_travel/bookmark and POST …/time_travel/restore. The local edge keeps no history of
    // a database (decision 258), so both answer D1's error envelope naming the way to keep a copy instead.
    const info = await wrangler(["d1", "time-travel", "info", "io-db"], { fail: true });
    assert.notEqual(info.code, 0);
    assert.match(info.out, /Time Travel is not available on the local edge/);
    const restore = await wrangler(
      ["d1", "time-travel", "restore", "io-db", "--bookmark", "00000001-00000000-00000000-00", "--json"],
      { fail: true },
    );
    assert.notEqual(restore.code, 0);
    assert.match(restore.out, /Time Travel is not available on the local edge/);
  });

  await t.test("the import and export routes refuse bad input with D1's envelope", async () => {
    const imp = (body) => edge.call("POST", `/d1/database/${dbId}/import`, body);
    let r = await imp({ action: "upload" });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /action must be one of init, ingest and poll/);
    r = await imp({ action: "init", etag: "not-an-md5" });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /etag must be the md5/);
    r = await imp({ action: "poll", current_bookmark: "00000099-00000000-00000000-00" });
    assert.equal(r.status, 404);
    // An upload whose content is not the etag's file is refused at ingest.
    const etag = createHash("md5").update("SELECT 1;").digest("hex");
    r = await imp({ action: "init", etag });
    assert.equal(r.status, 200);
    const put = await fetch(r.body.result.upload_url, { method: "PUT", body: "SELECT 2;" });
    assert.equal(put.status, 200);
    assert.equal(put.headers.get("etag"), `"${createHash("md5").update("SELECT 2;").digest("hex")}"`);
    r = await imp({ action: "ingest", etag, filename: r.body.result.filename });
    assert.equal(r.status, 400);
    assert.match(r.body.errors[0].message, /upload the file again/);
    // A URL that was never made answers 404; the upload URL takes PUT only.
    assert.equal((await fetch(`${new URL(edge.ready.api).origin}/d1-transfer/${"0".repeat(48)}`)).status, 404);
    const ex = (body) => edge.call("POST", `/d1/database/${dbId}/export`, body);
    r = await ex({ output_format: "file" });
    assert.equal(r.status, 400);
    r = await ex({ output_format: "polling", dump_options: { no_data: true, no_schema: true } });
    assert.equal(r.status, 400);
    r = await ex({ output_format: "polling", dump_options: { tables: [1] } });
    assert.equal(r.status, 400);
    r = await edge.call("POST", "/d1/database/00000000-0000-0000-0000-000000000000/export", {
      output_format: "polling",
    });
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 7404);
  });
});
