// The edge's own registry: the account, scripts with their versions and deployments, workflows, KV namespaces,
// D1 databases, R2 buckets, zones and the instance index. Miniflare keeps no configuration, so everything it is
// started with is rebuilt from here. The state is one JSON file replaced atomically on every change; module
// sources live beside it as content-addressed blobs so that the JSON stays small.

import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ArchiveStore, openArchive } from "./archive.mjs";
import { InstanceIndex } from "./instanceindex.mjs";
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
    // finished instances the edge deleted from the engine after keeping what reads answer about them (archive.mjs),
    // and the index of every instance (instanceindex.mjs), in one database
    this.db = openArchive(path.join(dataDir, "archive.sqlite"));
    this.archive = new ArchiveStore(this.db);
    this.instances = new InstanceIndex(this.db, FINAL);
    this.instances.importLines(path.join(dataDir, "instances.jsonl"));
  }

  save() {
    this.instances?.flush();
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

  // The instance index (instanceindex.mjs): for every workflow, its instances with how they were triggered
  // (`source`: api, cron or binding), when, the version and the last status the edge saw. It is what instance lists,
  // counts and the revive sweep read, so that none of them has to open every instance's storage in workerd: only
  // instances whose last known status is not final are asked again. It lives on disk, in archive.sqlite beside the
  // archive; an older edge's instances.jsonl is moved into it on the first start.

  // recordInstance adds (or replaces) an instance: {workflow, id, source, created_on, version_id, status}.
  recordInstance(rec) {
    this.instances.put(rec);
  }

  // setStatus notes the status an instance was last seen in (miniflare's names).
  setStatus(workflow, id, status) {
    const rec = this.instanceRecord(workflow, id);
    if (!rec || rec.status === status || status === undefined) return;
    rec.status = status;
    this.instances.put(rec);
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
    for (const [k, v] of changed) rec[k] = v;
    this.instances.put(rec);
  }

  // setEnded notes when a finished instance ended.
  setEnded(workflow, id, endedOn) {
    this.noteInstance(workflow, id, { ended_on: endedOn });
  }

  // instanceRecord answers the record of an instance (a copy: change it through the methods above), or undefined.
  instanceRecord(workflow, id) {
    return this.instances.get(workflow, id);
  }

  // unfinishedOf returns the ids of a workflow's instances whose last known status is not final (created before
  // createdBefore, an ISO time, when given).
  unfinishedOf(workflow, createdBefore = null) {
    return this.instances.unfinished(workflow, createdBefore);
  }

  // forgetInstance removes a deleted instance from the index.
  forgetInstance(workflow, id) {
    const rec = this.instanceRecord(workflow, id);
    if (!rec) return;
    if (rec.archived) this.archive.drop(workflow, id);
    this.instances.drop(workflow, id);
  }

  forgetWorkflowInstances(workflow) {
    this.archive.dropWorkflow(workflow);
    this.instances.dropWorkflow(workflow);
  }

  // close closes the database of instances.
  close() {
    this.instances?.flush();
    if (this.db.isOpen) this.db.close();
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
