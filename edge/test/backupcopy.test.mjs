// The edge backup's online copy of a KV or R2 store (src/backup.mjs, snapshot): the copied index and the blobs it
// names match even when the store is written between the index's copy and the blobs' links, by copying the index
// again, and with every workerd stopped when it keeps changing. Real SQLite files in the layout miniflare keeps.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { test } from "node:test";
import { snapshot } from "../src/backup.mjs";

const INDEX = "miniflare/kv/miniflare-KVNamespaceObject/ns.sqlite";
const BLOBS = "miniflare/kv/ns1/blobs";

// store makes a data dir with one KV namespace whose index names key → blob; put overwrites a key the way miniflare
// does (a new blob, the entry, then the old blob deleted).
function store() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "backupcopy-"));
  fs.mkdirSync(path.join(dir, path.dirname(INDEX)), { recursive: true });
  fs.mkdirSync(path.join(dir, BLOBS), { recursive: true });
  const db = new DatabaseSync(path.join(dir, INDEX));
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("CREATE TABLE _mf_entries (key TEXT PRIMARY KEY, blob_id TEXT NOT NULL, expiration INTEGER, metadata TEXT)");
  const put = (key, value) => {
    const id = randomBytes(40).toString("hex");
    fs.writeFileSync(path.join(dir, BLOBS, id), value);
    const old = db.prepare("SELECT blob_id FROM _mf_entries WHERE key = ?").get(key)?.blob_id;
    db.prepare("INSERT OR REPLACE INTO _mf_entries (key, blob_id) VALUES (?, ?)").run(key, id);
    if (old) fs.rmSync(path.join(dir, BLOBS, old));
  };
  return { dir, db, put, close: () => db.close() };
}

// staged answers the values of the staged index's keys, read through the staged blobs (null for a missing blob).
function staged(staging) {
  const db = new DatabaseSync(path.join(staging, INDEX), { readOnly: true });
  try {
    const out = {};
    for (const { key, blob_id } of db.prepare("SELECT key, blob_id FROM _mf_entries ORDER BY key").all()) {
      const f = path.join(staging, BLOBS, blob_id);
      out[key] = fs.existsSync(f) ? fs.readFileSync(f, "utf8") : null;
    }
    return out;
  } finally {
    db.close();
  }
}

test("a key overwritten between the index's copy and the blobs' links: the index is copied again", async () => {
  const s = store();
  try {
    s.put("a", "one");
    s.put("b", "bee");
    const staging = path.join(s.dir, ".backup-t1");
    let stoppedCalls = 0;
    const c = await snapshot(s.dir, staging, {
      stopped: async (fn) => {
        stoppedCalls++;
        await fn();
      },
      afterIndexCopy: (rel, attempt) => {
        if (attempt === 0) s.put("a", "two"); // the copy names a's first blob, which is deleted now
      },
    });
    assert.deepEqual(staged(staging), { a: "two", b: "bee" });
    assert.equal(c.index_copies_again, 1);
    assert.equal(c.paused_ms, 0);
    assert.equal(stoppedCalls, 0);
    // only the blobs the copy names are in it
    assert.equal(fs.readdirSync(path.join(staging, BLOBS)).length, 2);
  } finally {
    s.close();
    fs.rmSync(s.dir, { recursive: true, force: true });
  }
});

test("a key that keeps changing through every online copy: its store is copied with the workerds stopped", async () => {
  const s = store();
  try {
    s.put("a", "v0");
    const staging = path.join(s.dir, ".backup-t2");
    let stopped = false;
    let n = 0;
    const c = await snapshot(s.dir, staging, {
      stopped: async (fn) => {
        stopped = true; // nothing writes the store now
        await fn();
      },
      afterIndexCopy: () => {
        if (!stopped) s.put("a", `v${++n}`);
      },
    });
    assert.ok(stopped, "the store was copied with the workerds stopped");
    assert.equal(n, 5, "five online copies were tried first");
    assert.deepEqual(staged(staging), { a: `v${n}` });
    assert.equal(c.index_copies_again, 5);
  } finally {
    s.close();
    fs.rmSync(s.dir, { recursive: true, force: true });
  }
});
