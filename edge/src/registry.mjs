// The edge's own registry: the account, scripts with their versions and deployments, workflows, KV namespaces,
// D1 databases, R2 buckets, zones and the instance index. Miniflare keeps no configuration, so everything it is
// started with is rebuilt from here. The state is one JSON file replaced atomically on every change; module
// sources live beside it as content-addressed blobs so that the JSON stays small.

import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

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
  constructor(dataDir) {
    this.dir = dataDir;
    this.file = path.join(dataDir, "registry.json");
    this.blobDir = path.join(dataDir, "blobs");
    this.instanceFile = path.join(dataDir, "instances.jsonl");
    fs.mkdirSync(this.blobDir, { recursive: true });
    if (fs.existsSync(this.file)) {
      this.state = JSON.parse(fs.readFileSync(this.file, "utf8"));
      if (this.state.format !== FORMAT) {
        throw new Error(`registry ${this.file} has format ${this.state.format}, this edge reads format ${FORMAT}`);
      }
    } else {
      this.state = emptyState();
      this.save();
    }
    this.instances = new Map();
    this.#loadInstances();
  }

  save() {
    const tmp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(this.state));
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

  // The instance index records how instances created through the REST API or a cron schedule were triggered,
  // one JSON line per instance; instances created by workers through their bindings are not in it.
  #loadInstances() {
    if (!fs.existsSync(this.instanceFile)) return;
    for (const line of fs.readFileSync(this.instanceFile, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      try {
        const rec = JSON.parse(line);
        this.instances.set(`${rec.workflow}\n${rec.id}`, rec);
      } catch {
        // a torn last line after a crash
      }
    }
  }

  recordInstance(rec) {
    this.instances.set(`${rec.workflow}\n${rec.id}`, rec);
    fs.appendFileSync(this.instanceFile, `${JSON.stringify(rec)}\n`);
  }

  instanceRecord(workflow, id) {
    return this.instances.get(`${workflow}\n${id}`);
  }

  forgetWorkflowInstances(workflow) {
    for (const key of [...this.instances.keys()]) {
      if (key.startsWith(`${workflow}\n`)) this.instances.delete(key);
    }
    const lines = [...this.instances.values()].map((r) => JSON.stringify(r)).join("\n");
    fs.writeFileSync(this.instanceFile, lines === "" ? "" : `${lines}\n`);
  }
}

export function newId() {
  return randomUUID();
}

export function hexId() {
  return randomBytes(16).toString("hex");
}

export function now() {
  return new Date().toISOString();
}
