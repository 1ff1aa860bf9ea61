// The edge's part of `edgeflow admin backup` (docs/operations.md, "Backups"): POST /__edge/backup (root token) takes
// a consistent copy of the data dir while the edge runs and streams it as a tar.
//
// For the copy every workerd is stopped (requests to workers, KV, R2, Workflows and D1 wait, as they do during a
// deploy's restart), the registry is written out, and the data dir is copied into a staging directory: SQLite files
// through SQLite's online backup (node:sqlite), which also covers files another connection holds open (such as an
// archive the edge process itself writes), content-addressed blobs (KV values, R2 objects, module sources: files
// miniflare and the registry never rewrite) by a hard link, everything else by a copy. Then the workerds start again
// (the revive sweep resumes their unfinished instances) and the staging directory is streamed, its first member
// `edge-manifest.json` with the counts per store, and removed.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { DatabaseSync, backup as sqliteBackup } from "node:sqlite";

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

// copySQLite copies one SQLite file through the online backup; a file that cannot be opened that way (its owner is
// stopped, and its -wal cannot be read without an -shm) is copied with its -wal byte for byte.
async function copySQLite(src, dst) {
  let db;
  try {
    db = new DatabaseSync(src, { readOnly: true });
    await sqliteBackup(db, dst);
    return;
  } catch {
    fs.rmSync(dst, { force: true });
  } finally {
    db?.close();
  }
  fs.copyFileSync(src, dst);
  if (fs.existsSync(`${src}-wal`)) fs.copyFileSync(`${src}-wal`, `${dst}-wal`);
}

// snapshot copies dataDir's state into staging (created here) and answers the counts per store.
export async function snapshot(dataDir, staging) {
  fs.mkdirSync(staging, { mode: 0o700 });
  const files = walk(dataDir);
  for (const rel of files) {
    const src = path.join(dataDir, rel);
    const dst = path.join(staging, rel);
    fs.mkdirSync(path.dirname(dst), { recursive: true, mode: 0o700 });
    if (rel.split("/").includes("blobs")) {
      try {
        fs.linkSync(src, dst);
        continue;
      } catch {
        // another file system, or the blob went: copied below (or missing)
      }
    }
    try {
      if (isSQLite(src)) await copySQLite(src, dst);
      else fs.copyFileSync(src, dst);
    } catch (err) {
      if (err.code !== "ENOENT") throw err;
    }
  }
  return counts(staging);
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
  try {
    out.instances = fs
      .readFileSync(path.join(dir, "instances.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "").length;
  } catch {
    // no instances
  }
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

// backup answers POST /__edge/backup: the data dir's copy (taken with the workerds stopped) as a tar on res.
export async function backup(runtime, registry, res) {
  const dataDir = path.dirname(registry.file);
  const staging = path.join(dataDir, `${STAGING_PREFIX}${randomBytes(6).toString("hex")}`);
  try {
    let c;
    const started = Date.now();
    await runtime.quiesce(async () => {
      registry.save();
      c = await snapshot(dataDir, staging);
    });
    c.quiesced_ms = Date.now() - started;
    res.writeHead(200, { "content-type": "application/x-tar" });
    await streamTar(res, staging, { name: "edge-manifest.json", body: Buffer.from(JSON.stringify(c)) });
    res.end();
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
