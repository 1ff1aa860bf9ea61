// The edge's part of `edgeflow admin backup` (docs/operations.md, "Backups"): POST /__edge/backup (root token) takes
// a consistent copy of the data dir while the edge runs and streams it as a tar.
//
// The workerds keep serving during the copy; each store is held only by the SQLite read snapshot of its own copy
// (decision 640). In turn with configuration changes and with deletes of Workflow instances held (Runtime.hold):
//  1. the edge process's own files at one moment, synchronously: the registry (written out first), the instance
//     index and the archive of finished instances (one database, VACUUM INTO) and the registry's content-addressed module blobs;
//  2. every SQLite file of miniflare's stores (KV and R2 indexes, D1 databases, Workflow engines, Durable Objects)
//     through SQLite's online backup, one file after the other, while workerd writes it under SQLite's own locks
//     (its files are in WAL mode with a shared-memory index, so a reader in another process gets one committed
//     state);
//  3. the KV and R2 blobs each copied index names, by a hard link (blobs are never rewritten, only deleted after the
//     index stops naming them). A blob the copy names but that is gone already (overwritten or deleted since) makes
//     the index be copied again, up to INDEX_TRIES times; an index that still does not match is copied with every
//     workerd stopped, the edge's former way (counted in paused_ms).
// Instances created after step 1 may leave an engine file that the copied index does not name (harmless: nothing
// revives it); an instance the index names always has its engine, since deletes wait. The staging directory is then
// streamed, its first member `edge-manifest.json` with the counts per store, and removed.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, backup as sqliteBackup } from "node:sqlite";
import { pathToFileURL } from "node:url";

// SKIP are the data dir's entries that are not state: locks, pids, the wrapper, sockets, the root token and the edge's
// own secret key (a credential and a key: an archive holds neither), miniflare's cache and transfer files.
const SKIP = new Set([
  "edge.lock",
  "workerd.pid",
  "d1-workerd.pid",
  "run",
  "run-dir",
  "workerd.sh",
  "token",
  "secrets.key",
  "d1-transfers",
]);
const SKIP_UNDER = ["miniflare/cache"];
export const STAGING_PREFIX = ".backup-";
const SQLITE_MAGIC = Buffer.from("SQLite format 3\0");

// skipped reports whether rel (a path relative to the data dir, with /) is left out of a backup.
export function skipped(rel) {
  const first = rel.split("/")[0];
  if (SKIP.has(first) || first.startsWith(STAGING_PREFIX) || rel.endsWith(".tmp")) return true;
  if (/-(wal|shm|journal)$/.test(rel)) return true; // a SQLite file's backup holds what they hold
  return SKIP_UNDER.some((p) => rel === p || rel.startsWith(`${p}/`));
}

function isSQLite(file) {
  const fd = fs.openSync(file, "r");
  try {
    const b = Buffer.alloc(16);
    return fs.readSync(fd, b, 0, 16, 0) === 16 && b.equals(SQLITE_MAGIC);
  } finally {
    fs.closeSync(fd);
  }
}

// walk lists the files under dir (relative paths with /), skipping what skipped() names.
function walk(dir, rel = "", out = []) {
  for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (skipped(r)) continue;
    if (e.isDirectory()) walk(dir, r, out);
    else if (e.isFile()) out.push(r);
  }
  return out;
}

// BLOB_STORES are the miniflare stores whose values are blob files (<store>/<namespace>/blobs/<id>) that the store's
// SQLite indexes name in their blob_id columns.
const BLOB_STORES = new Set(["kv", "r2"]);
// INDEX_TRIES is how many times an index is copied online before its store is copied with the workerds stopped.
const INDEX_TRIES = 5;
const BLOB_ID = /^[0-9a-f]{16,128}$/;

// storeBlob answers the store ("kv" or "r2") of a blob file's path relative to the data dir, or null.
function storeBlob(rel) {
  const p = rel.split("/");
  return p.length === 5 && p[0] === "miniflare" && BLOB_STORES.has(p[1]) && p[3] === "blobs" ? p[1] : null;
}

// storeIndex answers the store of a KV or R2 SQLite index's path, or null.
function storeIndex(rel) {
  const p = rel.split("/");
  return p.length >= 3 && p[0] === "miniflare" && BLOB_STORES.has(p[1]) && rel.endsWith(".sqlite") ? p[1] : null;
}

// openExisting opens an existing SQLite file for reading and writing, never creating one (mode=rw): a normal
// connection takes SQLite's locks beside workerd's, and recovers a -wal left without its -shm.
function openExisting(file) {
  const u = pathToFileURL(file);
  u.searchParams.set("mode", "rw");
  return new DatabaseSync(u, { timeout: 10000 });
}

// copySQLite copies one SQLite file through the online backup in one step (one read snapshot of it) and answers how
// long it took; a file deleted meanwhile is left out.
async function copySQLite(src, dst) {
  const started = Date.now();
  let db;
  try {
    db = openExisting(src);
    fs.rmSync(dst, { force: true });
    await sqliteBackup(db, dst, { rate: 2147483647 });
  } catch (err) {
    if (!fs.existsSync(src)) {
      fs.rmSync(dst, { force: true }); // deleted meanwhile
      return 0;
    }
    throw new Error(`copying ${src}: ${err.message}`, { cause: err });
  } finally {
    db?.close();
  }
  return Date.now() - started;
}

// vacuumInto copies one SQLite file synchronously (the edge process's own: one moment with its other files).
function vacuumInto(src, dst) {
  const db = openExisting(src);
  try {
    db.prepare("VACUUM INTO ?").run(dst);
  } finally {
    db.close();
  }
}

// referencedBlobs lists the blob ids a copied KV or R2 index names (every table's blob_id column).
function referencedBlobs(file) {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const ids = new Set();
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all();
    for (const { name } of tables) {
      if (!db.prepare("SELECT 1 FROM pragma_table_info(?) WHERE name = 'blob_id'").get(name)) continue;
      const q = `"${name.replaceAll('"', '""')}"`;
      for (const r of db.prepare(`SELECT DISTINCT blob_id FROM ${q} WHERE blob_id IS NOT NULL`).all())
        if (BLOB_ID.test(r.blob_id)) ids.add(r.blob_id);
    }
    return ids;
  } finally {
    db.close();
  }
}

// BlobLinker links a store's blobs into staging by id, from whichever namespace's blobs directory holds them.
class BlobLinker {
  constructor(dataDir, staging, store) {
    this.dataDir = dataDir;
    this.staging = staging;
    this.root = path.join("miniflare", store);
    this.linked = new Set();
    this.refresh();
  }

  // refresh lists the store's blobs directories again (a namespace created meanwhile).
  refresh() {
    this.dirs = [];
    try {
      for (const e of fs.readdirSync(path.join(this.dataDir, this.root), { withFileTypes: true }))
        if (e.isDirectory() && fs.existsSync(path.join(this.dataDir, this.root, e.name, "blobs")))
          this.dirs.push(path.join(this.root, e.name, "blobs"));
    } catch (err) {
      if (err.code !== "ENOENT") throw err;
    }
  }

  // link links blob id into staging and answers whether it is there.
  link(id) {
    if (this.linked.has(id)) return true;
    for (const dir of this.dirs) {
      const src = path.join(this.dataDir, dir, id);
      const dst = path.join(this.staging, dir, id);
      fs.mkdirSync(path.dirname(dst), { recursive: true, mode: 0o700 });
      try {
        fs.linkSync(src, dst);
      } catch (err) {
        if (err.code === "ENOENT") continue;
        if (err.code !== "EEXIST") {
          try {
            fs.copyFileSync(src, dst); // another file system
          } catch (err2) {
            if (err2.code === "ENOENT") continue;
            throw err2;
          }
        }
      }
      this.linked.add(id);
      return true;
    }
    return false;
  }
}

// copyIndex copies one KV or R2 index (already copied once, to dst) with the blobs it names: when a named blob is
// gone from the store, the index is copied again, up to tries times. It answers whether the copy and its blobs match.
async function copyIndex(src, dst, linker, tries, stats, hook) {
  for (let attempt = 0; attempt < tries; attempt++) {
    if (attempt > 0) {
      stats.index_copies_again++;
      linker.refresh();
      await copySQLite(src, dst);
    }
    await hook?.(attempt);
    if (!fs.existsSync(dst)) return true; // the index went (its namespace was deleted)
    let all = true;
    for (const id of referencedBlobs(dst)) if (!linker.link(id)) all = false;
    if (all) return true;
  }
  return false;
}

// snapshot copies dataDir's state into staging (created here) and answers the counts per store and what the copy
// cost: copy_ms_max (the longest one file's read snapshot was held), index_copies_again, paused_ms (0 unless an
// index could not be copied online). save writes the registry out; stopped(fn) runs fn with every workerd stopped
// (Runtime.hold); afterIndexCopy(rel, attempt) is called after each copy of a KV or R2 index (tests).
export async function snapshot(dataDir, staging, { save = () => {}, stopped = (fn) => fn(), afterIndexCopy } = {}) {
  fs.mkdirSync(staging, { mode: 0o700 });
  const stats = { copy_ms_max: 0, index_copies_again: 0, paused_ms: 0 };
  const put = (rel) => {
    const dst = path.join(staging, rel);
    fs.mkdirSync(path.dirname(dst), { recursive: true, mode: 0o700 });
    return [path.join(dataDir, rel), dst];
  };
  const files = walk(dataDir);

  // 1. the edge process's own files, in one synchronous turn: nothing of the edge writes them meanwhile
  save();
  for (const rel of files) {
    if (rel.startsWith("miniflare/")) continue;
    const [src, dst] = put(rel);
    try {
      if (rel.split("/").includes("blobs")) fs.linkSync(src, dst);
      else if (isSQLite(src)) vacuumInto(src, dst);
      else fs.copyFileSync(src, dst);
    } catch (err) {
      if (err.code === "EXDEV") fs.copyFileSync(src, dst);
      else if (err.code !== "ENOENT") throw err;
    }
  }

  // 2. miniflare's files, each SQLite file by its own read snapshot, while workerd runs; a KV or R2 index at once
  // with the blobs it names (3.)
  const linkers = new Map();
  const linker = (rel) => {
    const store = storeIndex(rel);
    if (!linkers.has(store)) linkers.set(store, new BlobLinker(dataDir, staging, store));
    return linkers.get(store);
  };
  const copy = (rel, tries) =>
    copyIndex(path.join(dataDir, rel), path.join(staging, rel), linker(rel), tries, stats, (attempt) =>
      afterIndexCopy?.(rel, attempt),
    );
  const behind = [];
  for (const rel of files) {
    if (!rel.startsWith("miniflare/") || storeBlob(rel)) continue;
    const [src, dst] = put(rel);
    try {
      if (isSQLite(src)) {
        stats.copy_ms_max = Math.max(stats.copy_ms_max, await copySQLite(src, dst));
        if (storeIndex(rel) && !(await copy(rel, INDEX_TRIES))) behind.push(rel);
      } else if (rel.split("/").includes("blobs")) fs.linkSync(src, dst);
      else fs.copyFileSync(src, dst);
    } catch (err) {
      if (err.code !== "ENOENT") throw err;
    }
  }
  // an index that kept changing, with the workerds stopped
  if (behind.length > 0) {
    const started = Date.now();
    await stopped(async () => {
      for (const rel of behind) {
        linker(rel).refresh();
        stats.index_copies_again++;
        await copySQLite(path.join(dataDir, rel), path.join(staging, rel));
        if (!(await copy(rel, 1))) throw new Error(`${rel} names blobs that are not in its store`);
      }
    });
    stats.paused_ms = Date.now() - started;
  }
  return { ...counts(staging), ...stats };
}

// counts are what the manifest says of the edge: accounts, scripts and Workflows of the registry, instances in the
// index, and per miniflare store its files and the rows of its entries (KV keys, R2 objects, D1 databases' tables).
export function counts(dir) {
  const out = {
    accounts: 0,
    scripts: 0,
    workflows: 0,
    kv_namespaces: 0,
    d1_databases: 0,
    r2_buckets: 0,
    instances: 0,
    stores: {},
  };
  try {
    const state = JSON.parse(fs.readFileSync(path.join(dir, "registry.json"), "utf8"));
    const accts = [state, ...Object.values(state.accounts ?? {})];
    out.accounts = accts.length;
    for (const a of accts) {
      out.scripts += Object.keys(a.scripts ?? {}).length;
      out.workflows += Object.keys(a.workflows ?? {}).length;
      out.kv_namespaces += Object.keys(a.kv ?? {}).length;
      out.d1_databases += Object.keys(a.d1 ?? {}).length;
      out.r2_buckets += Object.keys(a.r2 ?? {}).length;
    }
  } catch {
    // no registry yet
  }
  out.instances = indexedInstances(dir);
  const mf = path.join(dir, "miniflare");
  for (const store of ["kv", "r2", "d1", "workflows", "do"]) {
    const root = path.join(mf, store);
    if (!fs.existsSync(root)) continue;
    const c = { files: 0, sqlite: 0, rows: 0 };
    for (const rel of walk(root)) {
      c.files++;
      const f = path.join(root, rel);
      if (!rel.endsWith(".sqlite") || !isSQLite(f)) continue;
      c.sqlite++;
      c.rows += entryRows(f, store);
    }
    out.stores[store] = c;
  }
  return out;
}

// indexedInstances counts the instances in the edge's index: the rows of archive.sqlite's instances table (an older
// edge's instances.jsonl is moved there when the edge starts on it).
function indexedInstances(dir) {
  const file = path.join(dir, "archive.sqlite");
  let db;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    return Number(db.prepare("SELECT count(*) AS n FROM instances").get().n);
  } catch {
    return 0; // no index yet
  } finally {
    if (db?.isOpen) db.close();
  }
}

// entryRows counts a store file's entries: KV's and R2's entry tables, a D1 database's rows in its own tables.
function entryRows(file, store) {
  let db;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all()
      .map((r) => r.name);
    const want =
      store === "kv"
        ? ["_mf_entries"]
        : store === "r2"
          ? ["_mf_objects"]
          : store === "d1"
            ? tables.filter((t) => !t.startsWith("_cf_") && !t.startsWith("sqlite_") && !t.startsWith("_mf_"))
            : [];
    let n = 0;
    for (const t of want)
      if (tables.includes(t)) n += Number(db.prepare(`SELECT count(*) AS n FROM "${t.replaceAll('"', '""')}"`).get().n);
    return n;
  } catch {
    return 0;
  } finally {
    db?.close();
  }
}

// tarHeader is one 512-byte ustar header.
function tarHeader(name, size, type = "0") {
  const h = Buffer.alloc(512);
  h.write(name.slice(0, 100), 0, "utf8");
  h.write("0000600\0", 100);
  h.write("0000000\0", 108);
  h.write("0000000\0", 116);
  h.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
  h.write(
    `${Math.floor(Date.now() / 1000)
      .toString(8)
      .padStart(11, "0")}\0`,
    136,
  );
  h.write("        ", 148);
  h.write(type, 156);
  h.write("ustar\0", 257);
  h.write("00", 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return h;
}

function pad(size) {
  return Buffer.alloc((512 - (size % 512)) % 512);
}

// writeEntry writes one file to the tar stream out (a PAX header first when its name is longer than ustar holds).
async function writeEntry(out, name, size, body) {
  const write = (b) => (out.write(b) ? Promise.resolve() : new Promise((r) => out.once("drain", r)));
  if (Buffer.byteLength(name) > 99) {
    const rec = (len) => `${len} path=${name}\n`;
    let len = Buffer.byteLength(rec(0));
    while (Buffer.byteLength(rec(len)) !== len) len = Buffer.byteLength(rec(len));
    const pax = Buffer.from(rec(len));
    await write(tarHeader("PaxHeader", pax.length, "x"));
    await write(pax);
    await write(pad(pax.length));
  }
  await write(tarHeader(name, size));
  if (typeof body === "string") {
    for await (const chunk of fs.createReadStream(body)) await write(chunk);
  } else {
    await write(body);
  }
  await write(pad(size));
}

// streamTar writes the files of dir to out as a tar, `first` (a name and a Buffer) ahead of them.
export async function streamTar(out, dir, first) {
  await writeEntry(out, first.name, first.body.length, first.body);
  for (const rel of walk(dir)) {
    const f = path.join(dir, rel);
    await writeEntry(out, rel, fs.statSync(f).size, f);
  }
  await new Promise((r) => out.write(Buffer.alloc(1024), r));
}

// backup answers POST /__edge/backup: the data dir's copy (taken while the workerds run, Runtime.hold) as a tar.
export async function backup(runtime, registry, res) {
  const dataDir = path.dirname(registry.file);
  const staging = path.join(dataDir, `${STAGING_PREFIX}${randomBytes(6).toString("hex")}`);
  try {
    let c;
    const started = Date.now();
    await runtime.hold(async ({ stopped }) => {
      c = await snapshot(dataDir, staging, { save: () => registry.save(), stopped });
    });
    c.copy_ms = Date.now() - started;
    res.writeHead(200, { "content-type": "application/x-tar" });
    await streamTar(res, staging, { name: "edge-manifest.json", body: Buffer.from(JSON.stringify(c)) });
    res.end();
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
