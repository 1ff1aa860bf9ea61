// The edge's own registry: the account, scripts with their versions and deployments, workflows, KV namespaces,
// D1 databases, R2 buckets, zones and the instance index. Miniflare keeps no configuration, so everything it is
// started with is rebuilt from here. The state is one JSON file replaced atomically on every change; module
// sources live beside it as content-addressed blobs so that the JSON stays small.

import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ArchiveStore } from "./archive.mjs";
import { openState, sealState } from "./sealed.mjs";

const FORMAT = 1;

function emptyState() {
  return {
    format: FORMAT,
    accountId: randomBytes(16).toString("hex"),
    accountName: "Local Edge Account",
    subdomain: "local-edge",
    port: 0,
    scripts: {},
    workflows: {},
    kv: {},
    d1: {},
    r2: {},
    zones: {},
  };
}

export class Registry {
  // sealKey seals the secret bindings on disk (see sealed.mjs).
  constructor(dataDir, { sealKey } = {}) {
    this.dir = dataDir;
    this.sealKey = sealKey;
    this.file = path.join(dataDir, "registry.json");
    this.blobDir = path.join(dataDir, "blobs");
    this.instanceFile = path.join(dataDir, "instances.jsonl");
    fs.mkdirSync(this.blobDir, { recursive: true });
    if (fs.existsSync(this.file)) {
      this.state = JSON.parse(fs.readFileSync(this.file, "utf8"));
      if (this.state.format !== FORMAT) {
        throw new Error(`registry ${this.file} has format ${this.state.format}, this edge reads format ${FORMAT}`);
      }
      if (this.sealKey && openState(this.state, this.sealKey, this.file)) this.save(); // plaintext secrets of an older edge
    } else {
      this.state = emptyState();
      this.save();
    }
    this.#loadInstances();
    // finished instances the edge deleted from the engine after keeping what reads answer about them (archive.mjs)
    this.archive = new ArchiveStore(path.join(dataDir, "archive.sqlite"));
  }

  save() {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.sealKey ? sealState(this.state, this.sealKey) : this.state), {
      mode: 0o600,
    });
    fs.renameSync(tmp, this.file);
  }

  // saveSoon saves within a second, once for any number of calls (for bookkeeping such as triggered_on).
  saveSoon() {
    if (this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      this.save();
    }, 1000);
    this.saveTimer.unref();
  }

  snapshot() {
    return structuredClone(this.state);
  }

  restore(snapshot) {
    this.state = snapshot;
  }

  putBlob(bytes) {
    const sha = createHash("sha256").update(bytes).digest("hex");
    const p = path.join(this.blobDir, sha);
    if (!fs.existsSync(p)) {
      const tmp = `${p}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, bytes);
      fs.renameSync(tmp, p);
    }
    return sha;
  }

  getBlob(sha) {
    return fs.readFileSync(path.join(this.blobDir, sha));
  }

  // The instance index: for every workflow, its instances with how they were triggered (`source`: api, cron or
  // binding), when, the version and the last status the edge saw. It is what instance lists, counts and the revive
  // sweep read, so that none of them has to open every instance's storage in workerd: only instances whose last
  // known status is not final are asked again. It is kept as JSON lines (instances.jsonl): a full record when an
  // instance is first seen, then `{workflow, id, status}` lines for status changes and `{workflow, id, deleted: true}`
  // for a deleted one; the file is compacted on load.
  #loadInstances() {
    this.index = new Map(); // workflow -> Map(id -> record)
    this.unfinished = new Map(); // workflow -> Set(id) whose last known status is not final
    if (!fs.existsSync(this.instanceFile)) return;
    let lines = 0;
    for (const line of fs.readFileSync(this.instanceFile, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      lines++;
      let rec;
      try {
        rec = JSON.parse(line);
      } catch {
        continue; // a torn last line after a crash
      }
      if (rec.deleted) {
        this.#drop(rec.workflow, rec.id);
        continue;
      }
      const known = this.instanceRecord(rec.workflow, rec.id);
      this.#put(known ? Object.assign(known, rec) : rec);
    }
    let count = 0;
    for (const m of this.index.values()) count += m.size;
    if (lines > 2 * count + 100) this.#rewriteInstances();
  }

  #put(rec) {
    let m = this.index.get(rec.workflow);
    if (!m) this.index.set(rec.workflow, (m = new Map()));
    m.set(rec.id, rec);
    let u = this.unfinished.get(rec.workflow);
    if (!u) this.unfinished.set(rec.workflow, (u = new Set()));
    if (FINAL.has(rec.status)) u.delete(rec.id);
    else u.add(rec.id);
  }

  #drop(workflow, id) {
    this.index.get(workflow)?.delete(id);
    this.unfinished.get(workflow)?.delete(id);
  }

  #rewriteInstances() {
    const lines = [];
    for (const m of this.index.values()) for (const r of m.values()) lines.push(JSON.stringify(r));
    const tmp = `${this.instanceFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, lines.length ? `${lines.join("\n")}\n` : "");
    fs.renameSync(tmp, this.instanceFile);
  }

  // recordInstance adds (or replaces) an instance: {workflow, id, source, created_on, version_id, status}.
  recordInstance(rec) {
    this.#put(rec);
    fs.appendFileSync(this.instanceFile, `${JSON.stringify(rec)}\n`);
  }

  // setStatus notes the status an instance was last seen in (miniflare's names).
  setStatus(workflow, id, status) {
    const rec = this.instanceRecord(workflow, id);
    if (!rec || rec.status === status || status === undefined) return;
    rec.status = status;
    this.#put(rec);
    fs.appendFileSync(this.instanceFile, `${JSON.stringify({ workflow, id, status })}\n`);
  }

  // noteInstance merges more of what the edge learnt about an instance into its record (times, retention) and
  // keeps it: {started_on, ended_on, modified_on, retention, expired}.
  noteInstance(workflow, id, fields) {
    const rec = this.instanceRecord(workflow, id);
    if (!rec) return;
    const changed = Object.entries(fields).filter(
      ([k, v]) => v !== undefined && JSON.stringify(rec[k]) !== JSON.stringify(v),
    );
    if (changed.length === 0) return;
    const line = { workflow, id, status: rec.status };
    for (const [k, v] of changed) rec[k] = line[k] = v;
    fs.appendFileSync(this.instanceFile, `${JSON.stringify(line)}\n`);
  }

  // setEnded notes when a finished instance ended.
  setEnded(workflow, id, endedOn) {
    this.noteInstance(workflow, id, { ended_on: endedOn });
  }

  instanceRecord(workflow, id) {
    return this.index.get(workflow)?.get(id);
  }

  // instancesOf returns the index of one workflow (id -> record); do not change it.
  instancesOf(workflow) {
    return this.index.get(workflow) ?? new Map();
  }

  // unfinishedOf returns the ids of a workflow's instances whose last known status is not final.
  unfinishedOf(workflow) {
    return [...(this.unfinished.get(workflow) ?? [])];
  }

  // forgetInstance removes a deleted instance from the index (a `{workflow, id, deleted: true}` line).
  forgetInstance(workflow, id) {
    const rec = this.instanceRecord(workflow, id);
    if (!rec) return;
    if (rec.archived) this.archive.drop(workflow, id);
    this.#drop(workflow, id);
    fs.appendFileSync(this.instanceFile, `${JSON.stringify({ workflow, id, deleted: true })}\n`);
  }

  forgetWorkflowInstances(workflow) {
    this.archive.dropWorkflow(workflow);
    this.index.delete(workflow);
    this.unfinished.delete(workflow);
    this.#rewriteInstances();
  }
}

// FINAL are the statuses an instance leaves only through an explicit restart.
export const FINAL = new Set(["complete", "errored", "terminated"]);

export function newId() {
  return randomUUID();
}

export function hexId() {
  return randomBytes(16).toString("hex");
}

export function now() {
  return new Date().toISOString();
}
