// miniflare's options, for the miniflare version edge/package.json pins (5.x). The edge describes each worker it runs
// (user workers, the control worker, the outbound guard, the log tail worker, …) in the worker shape it has always
// built (name, modules or script, compatibilityDate, bindings, kvNamespaces, d1Databases, r2Buckets, serviceBindings,
// workflows, durableObjects, outboundService, streamingTails): plan.mjs and its tests speak that shape. This module
// is the one place that turns it into what miniflare takes: the worker entries through miniflare's own
// convertV4MiniflareOptions(), and the instance options the edge sets on every Miniflare it starts. Moving to the
// next miniflare release starts here (docs/edge.md, "Moving to the next workerd and miniflare").

import fs from "node:fs";
import path from "node:path";
import { convertV4MiniflareOptions } from "./miniflare.mjs";

// miniflareOptions builds the options of one Miniflare instance: workers (the edge's worker descriptions),
// persistRoot (the directory under which miniflare keeps each plugin's storage: kv, r2, d1, do, workflows, cache),
// log (a miniflare Log), onLine(level, message) (every line workerd writes, the wrapper's report among them), and
// explorer/triggers (the local explorer and the trigger routes on the entry socket).
export function miniflareOptions({ workers, persistRoot, log, onLine, explorer = false, triggers = false }) {
  return {
    host: "127.0.0.1",
    port: 0,
    cf: false,
    log,
    // workerd's standard output and error, one line at a time (miniflare 5 has no raw stdio handler)
    handleStructuredLogs: ({ level, message }) => onLine(level, message),
    resourcePersistencePath: persistRoot,
    // No dev registry: it would advertise the edge's workers to other local miniflare sessions through a directory
    // under the user's home and open a socket and a debug port of its own.
    enableDevRegistry: false,
    logRequests: false,
    unsafeLocalExplorer: explorer,
    unsafeTriggerHandlers: triggers,
    workers: convertV4MiniflareOptions({ workers }).workers,
  };
}

// PLUGIN_DIRS are the storage directories of miniflare's plugins the edge uses that every group shares (each KV
// namespace, R2 bucket and Workflow is opened by one group at a time, plan.mjs); the Cache API's directory is a
// group's own.
const PLUGIN_DIRS = ["kv", "r2", "d1", "do", "workflows"];

// groupPersistRoot makes (or checks) group gid's persistence root under persistDir and answers its path:
// <persistDir>/groups/<gid>, whose plugin directories are links to the shared ones (<persistDir>/kv, …), and whose
// cache directory is a link to <persistDir>/cache/<gid>. miniflare 5 keeps the Cache API's storage (one SQLite file
// per cache name) under the persistence root, so two groups on one root would open the same files; miniflare 4 had
// a cachePersist option per instance for that, and the links keep the same files where it put them.
// A shard k > 0 of a group (plan.mjs) keeps its Workflows' instances apart, under <persistDir>/shards/<k>/workflows
// (workflowsDir): no two workerds open one instance's files, and miniflare's listing in each shard reads only its own.
export function groupPersistRoot(persistDir, gid, shard = 0) {
  const root = path.join(persistDir, "groups", gid);
  fs.mkdirSync(root, { recursive: true, mode: 0o700 });
  const link = (name, target) => {
    fs.mkdirSync(path.join(persistDir, target), { recursive: true, mode: 0o700 });
    const at = path.join(root, name);
    const want = path.join("..", "..", target);
    let have = null;
    try {
      have = fs.readlinkSync(at);
    } catch (err) {
      if (err.code === "EINVAL") throw new Error(`${at} is not a link to ${want}; remove it`, { cause: err });
      if (err.code !== "ENOENT") throw err;
    }
    if (have === want) return;
    if (have !== null) fs.rmSync(at);
    fs.symlinkSync(want, at);
  };
  for (const dir of PLUGIN_DIRS) link(dir, dir === "workflows" ? workflowsDir(shard) : dir);
  link("cache", path.join("cache", gid));
  return root;
}

// workflowsDir is the storage directory (relative to the persist dir) of the Workflow instances of shard k.
export function workflowsDir(shard) {
  return shard > 0 ? path.join("shards", String(shard), "workflows") : "workflows";
}
