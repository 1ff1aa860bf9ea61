// D1 import and export as Cloudflare drives them (decisions 256-258, docs/edge.md "D1 import and export"):
//
// - import: POST …/import {action: "init", etag} answers an upload URL; the client PUTs the SQL file there (no
//   token: the URL itself is the capability, as Cloudflare's presigned R2 URL is) and gets the file's md5 as ETag;
//   {action: "ingest", filename, etag} starts running it; {action: "poll", current_bookmark} follows it until
//   status "complete" or "error". An init whose etag names a file already uploaded for that database starts it at
//   once, without an upload.
// - export: POST …/export {output_format: "polling", dump_options} starts a dump; the same request with
//   current_bookmark follows it; the complete answer carries a signed URL from which the SQL file is downloaded.
//
// This module keeps the uploaded and exported files (DIR/d1-transfers, removed an hour after use or at the edge's
// next start), the URLs' tokens and the jobs. A job's `at_bookmark` names the job: the edge keeps no history of
// a database, so these bookmarks cannot be restored (time travel is refused, decision 258).

import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Transform } from "node:stream";
import { D1_NOT_FOUND } from "./errors.mjs";

// TRANSFER_PREFIX is the path under which the edge's port serves upload and download URLs.
export const TRANSFER_PREFIX = "/d1-transfer/";
// FILE_LIMIT is the largest SQL file an import takes (the whole file runs as one transaction in the database's
// workerd, so it is held in memory there).
export const FILE_LIMIT = 100 << 20;
const URL_TTL_MS = 60 * 60 * 1000;
// WAIT_MS is how long an ingest, poll or export request waits for its job before answering "active".
const WAIT_MS = 1000;

export class TransferError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export class D1Transfers {
  constructor({ dir, logger }) {
    this.dir = dir;
    this.logger = logger;
    this.uploads = new Map(); // token -> {db, filename, file, expires, md5, size}
    this.downloads = new Map(); // token -> {db, file, expires}
    this.jobs = new Map(); // bookmark -> {db, type, status, result, error, done, expires}
    this.seq = 0;
    // Files of an earlier run are no use: their URLs died with it.
    fs.rmSync(dir, { recursive: true, force: true });
    this.sweeper = setInterval(() => this.sweep(), 60000);
    this.sweeper.unref();
  }

  // newUpload makes an upload URL's token for an SQL file of database db with the given md5 etag.
  newUpload(db, etag) {
    const token = randomBytes(24).toString("hex");
    const filename = `${etag}.sql`;
    this.uploads.set(token, {
      db,
      filename,
      etag,
      file: path.join(this.dir, `up-${token}.sql`),
      expires: Date.now() + URL_TTL_MS,
      md5: null,
      size: 0,
    });
    return { token, filename };
  }

  // uploaded finds database db's uploaded file named filename (or, with byEtag, whose content has that md5).
  uploaded(db, { filename, etag }) {
    for (const u of this.uploads.values()) {
      if (u.db !== db || u.md5 === null || u.expires < Date.now()) continue;
      if (filename !== undefined ? u.filename === filename : u.md5 === etag) return u;
    }
    return null;
  }

  // busy is the job that runs on database db now, if any: an import or export holds the database until it ends.
  busy(db) {
    for (const [bookmark, j] of this.jobs) if (j.db === db && j.status === "active") return bookmark;
    return null;
  }

  // start runs work() as a new job of database db and answers its bookmark.
  start(db, type, work) {
    const bookmark = `${(++this.seq).toString(16).padStart(8, "0")}-00000000-00000000-${randomBytes(16).toString("hex")}`;
    const job = { db, type, status: "active", result: null, error: null, expires: Date.now() + URL_TTL_MS };
    job.done = (async () => {
      try {
        job.result = await work();
        job.status = "complete";
      } catch (err) {
        job.status = "error";
        job.error = err?.message ?? String(err);
        this.logger(`d1 ${db}: ${type} failed: ${job.error}`);
      }
      job.expires = Date.now() + URL_TTL_MS;
    })();
    this.jobs.set(bookmark, job);
    return bookmark;
  }

  // job finds database db's job at bookmark of the given type.
  job(db, type, bookmark) {
    const j = this.jobs.get(bookmark);
    if (!j || j.db !== db || j.type !== type) {
      throw new TransferError(
        404,
        D1_NOT_FOUND,
        `there is no ${type} of this database at bookmark '${bookmark}' (it finished over an hour ago, or the edge restarted since)`,
      );
    }
    return j;
  }

  // settle waits up to WAIT_MS for the job at bookmark to end.
  async settle(bookmark) {
    const j = this.jobs.get(bookmark);
    let timer;
    await Promise.race([j.done, new Promise((r) => (timer = setTimeout(r, WAIT_MS)))]);
    clearTimeout(timer);
    return j;
  }

  // newDownload makes a download URL's token for an exported file.
  newDownload(db, file) {
    const token = randomBytes(24).toString("hex");
    this.downloads.set(token, { db, file, expires: Date.now() + URL_TTL_MS });
    return token;
  }

  // exportFile is where an export of database db writes its SQL.
  exportFile() {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    return path.join(this.dir, `export-${randomBytes(12).toString("hex")}.sql`);
  }

  // forget drops everything of a deleted database.
  forget(db) {
    for (const [t, u] of this.uploads) if (u.db === db) this.#drop(this.uploads, t, u.file);
    for (const [t, d] of this.downloads) if (d.db === db) this.#drop(this.downloads, t, d.file);
    for (const [b, j] of this.jobs) if (j.db === db && j.status !== "active") this.jobs.delete(b);
  }

  sweep() {
    const now = Date.now();
    for (const [t, u] of this.uploads) if (u.expires < now) this.#drop(this.uploads, t, u.file);
    for (const [t, d] of this.downloads) if (d.expires < now) this.#drop(this.downloads, t, d.file);
    for (const [b, j] of this.jobs) if (j.status !== "active" && j.expires < now) this.jobs.delete(b);
  }

  #drop(map, token, file) {
    map.delete(token);
    fs.rm(file, { force: true }, () => {});
  }

  close() {
    clearInterval(this.sweeper);
  }

  // serve answers a request to an upload URL (PUT) or a download URL (GET) under TRANSFER_PREFIX. Its answers are
  // plain text, as a storage URL's are.
  async serve(req, res, pathname) {
    const token = pathname.slice(TRANSFER_PREFIX.length);
    const text = (status, msg, headers = {}) => {
      res.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
      res.end(`${msg}\n`);
    };
    const up = this.uploads.get(token);
    const down = this.downloads.get(token);
    const entry = up ?? down;
    if (!entry)
      return text(404, "There is no upload or download at this URL (it was never made, or the edge restarted since).");
    if (entry.expires < Date.now()) return text(403, "This URL expired: it is valid for one hour.");
    if (up) {
      if (req.method !== "PUT")
        return text(405, "An upload URL takes PUT with the SQL file as the body.", { allow: "PUT" });
      return this.#receive(req, res, up, text);
    }
    if (req.method !== "GET" && req.method !== "HEAD")
      return text(405, "A download URL takes GET.", { allow: "GET, HEAD" });
    let stat;
    try {
      stat = fs.statSync(down.file);
    } catch {
      return text(404, "The exported file is gone.");
    }
    res.writeHead(200, { "content-type": "application/sql", "content-length": stat.size });
    if (req.method === "HEAD") return res.end();
    await pipeline(fs.createReadStream(down.file), res);
  }

  async #receive(req, res, up, text) {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > FILE_LIMIT) {
      req.resume();
      return text(413, `The file is larger than the local edge's import limit of ${FILE_LIMIT} bytes.`);
    }
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const hash = createHash("md5");
    let size = 0;
    const tmp = `${up.file}.part`;
    const meter = new Transform({
      transform(chunk, _enc, cb) {
        size += chunk.length;
        if (size > FILE_LIMIT)
          return cb(
            new TransferError(413, 0, `The file is larger than the local edge's import limit of ${FILE_LIMIT} bytes.`),
          );
        hash.update(chunk);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(req, meter, fs.createWriteStream(tmp));
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      if (err instanceof TransferError) return text(413, err.message, { connection: "close" });
      return text(400, `The upload did not arrive whole: ${err.message}`);
    }
    fs.renameSync(tmp, up.file);
    up.md5 = hash.digest("hex");
    up.size = size;
    text(200, "OK", { etag: `"${up.md5}"` });
  }
}
