// startEdge wires the local edge together: data dir lock, API token, registry, workerd runtime, HTTP server and
// cron scheduler.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Bounds } from "./bounds.mjs";
import { Scheduler } from "./cron.mjs";
import { RunDir, stopOrphan, writeWrapper } from "./entry.mjs";
import { Gateway } from "./gateway.mjs";
import { LoopbackGate, childWorkerds } from "./gate.mjs";
import { AllowList, OutboundGuard } from "./outbound.mjs";
import { Registry } from "./registry.mjs";
import { Runtime, forcedShards } from "./runtime.mjs";
import { keyFromFile, tightenModes } from "./sealed.mjs";
import { Tails } from "./tail.mjs";

// lock takes DIR/edge.lock for this process. The file holds the owner's pid and, on Linux, the start time of that
// process (field 22 of /proc/PID/stat) and the machine's boot id. A lock is taken over when its owner is gone: the
// pid does not run, the machine was rebooted since, the pid now belongs to a process started at another time (the
// pid was reused), or the process there is not an edge (its command line names no server.mjs). A kill -9 therefore
// never keeps the next edge out, whatever runs under the old pid now.
export function lock(dataDir) {
  const file = path.join(dataDir, "edge.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, lockText(process.pid), { flag: "wx" });
      return file;
    } catch (err) {
      if (err.code !== "EEXIST") throw new Error(`cannot create lock file ${file}: ${err.message}`, { cause: err });
    }
    let text;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue; // removed meanwhile
    }
    const owner = parseLock(text);
    if (owner && owner.pid !== process.pid && ownerRuns(owner)) {
      throw new Error(
        `data dir ${dataDir} is in use by another edge (pid ${owner.pid}); stop it first or use another --data-dir`,
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new Error(`cannot take lock file ${file}`);
}

function lockText(pid) {
  const lines = [String(pid)];
  const start = startTime(pid);
  if (start !== null) lines.push(`start ${start}`);
  const boot = bootId();
  if (boot !== null) lines.push(`boot ${boot}`);
  return `${lines.join("\n")}\n`;
}

// parseLock reads a lock file: the pid on the first line (all an older edge wrote), then "start N" and "boot ID".
export function parseLock(text) {
  const lines = text.split("\n").map((l) => l.trim());
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const out = { pid, start: null, boot: null };
  for (const l of lines.slice(1)) {
    if (l.startsWith("start ")) out.start = l.slice(6);
    if (l.startsWith("boot ")) out.boot = l.slice(5);
  }
  return out;
}

// ownerRuns reports whether the lock's owner still runs as an edge.
export function ownerRuns(owner) {
  if (!alive(owner.pid)) return false;
  if (process.platform !== "linux") return true; // no /proc: the pid is all there is to go by
  const boot = bootId();
  if (owner.boot !== null && boot !== null && owner.boot !== boot) return false;
  const start = startTime(owner.pid);
  if (owner.start !== null && start !== null && owner.start !== start) return false;
  let cmdline;
  try {
    cmdline = fs.readFileSync(`/proc/${owner.pid}/cmdline`, "utf8").split("\0");
  } catch {
    return true; // cannot look (another user's process): keep out rather than share the data dir
  }
  return cmdline.some((arg) => path.basename(arg) === "server.mjs");
}

function startTime(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces; field 22 counts from after it.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

function bootId() {
  try {
    return fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return null;
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === "EPERM";
  }
}

function ensureToken(dataDir) {
  const file = path.join(dataDir, "token");
  if (!fs.existsSync(file)) {
    const token = randomBytes(30).toString("base64url");
    fs.writeFileSync(file, `${token}\n`, { mode: 0o600, flag: "wx" });
  }
  fs.chmodSync(file, 0o600);
  const token = fs.readFileSync(file, "utf8").trim();
  if (token === "") throw new Error(`token file ${file} is empty; delete it to have a new token generated`);
  return { file, token };
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    const onError = (err) => {
      server.off("listening", onListening);
      reject(err);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve(server.address().port);
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, "127.0.0.1");
  });
}

// sealKey is the key that seals secrets at rest (from --key-stdin); without it the edge keeps DIR/secrets.key.
// ARCHIVE_SWEEP_MS is how often the edge looks for finished instances to archive (EDGEFLOW_EDGE_ARCHIVE_SWEEP_MS).
const ARCHIVE_SWEEP_MS =
  Number(process.env.EDGEFLOW_EDGE_ARCHIVE_SWEEP_MS) > 0 ? Number(process.env.EDGEFLOW_EDGE_ARCHIVE_SWEEP_MS) : 1000;

export async function startEdge({ port, dataDir, allowHosts = "", sealKey, logger }) {
  dataDir = path.resolve(dataDir);
  // Everything the edge and workerd write is for this user only: files 0600, directories 0700.
  process.umask(0o077);
  let allow;
  try {
    allow = AllowList.parse(allowHosts);
  } catch (err) {
    throw new Error(`--allow-hosts: ${err.message}`, { cause: err });
  }
  const shardsVar = process.env.EDGEFLOW_EDGE_SHARDS;
  if (shardsVar !== undefined && shardsVar !== "" && forcedShards(shardsVar) === null)
    throw new Error(`EDGEFLOW_EDGE_SHARDS must be an integer of at least 1, not '${shardsVar}'`);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  tightenModes(dataDir); // a data dir of an older edge
  const lockFile = lock(dataDir);
  const cleanup = [() => fs.rmSync(lockFile, { force: true })];
  try {
    const { file: tokenFile, token } = ensureToken(dataDir);
    const registry = new Registry(dataDir, { sealKey: sealKey ?? keyFromFile(dataDir) });
    const pidFile = path.join(dataDir, "workerd.pid");
    const d1PidFile = path.join(dataDir, "d1-workerd.pid");
    await stopOrphan(pidFile, logger);
    await stopOrphan(d1PidFile, logger);
    // workerd's entry sockets: Unix sockets in a directory of the edge's user only (entry.mjs)
    const runDir = RunDir.open(dataDir);
    cleanup.unshift(() => runDir.close(dataDir));
    writeWrapper(dataDir, runDir.dir, logger);
    const outbound = new OutboundGuard({ allow, logger });
    const runtime = new Runtime({
      registry,
      persistDir: path.join(dataDir, "miniflare"),
      pidFile,
      d1PidFile,
      logger,
      outbound,
    });

    const server = http.createServer({ keepAliveTimeout: 30000 });
    // Port 0 reuses the port of the previous run when it is free, so worker URLs stay the same.
    let bound;
    if (port === 0 && registry.state.port) {
      bound = await listen(server, registry.state.port).catch(() => null);
      if (bound === null) logger(`port ${registry.state.port} of the previous run is taken; picking another`);
    }
    if (!bound) {
      try {
        bound = await listen(server, port);
      } catch (err) {
        throw new Error(`cannot listen on 127.0.0.1:${port}: ${err.message}`, { cause: err });
      }
    }
    cleanup.unshift(() => server.close());
    if (registry.state.port !== bound) {
      registry.state.port = bound;
      registry.save();
    }
    outbound.allowGateway(bound);
    // wrangler tail's websockets (tail.mjs); any other upgrade is refused.
    runtime.tails = new Tails({ logs: runtime.logs, port: bound });
    server.on("upgrade", (req, socket, head) => {
      if (!runtime.tails.upgrade(req, socket, head)) socket.destroy();
    });
    cleanup.unshift(() => runtime.tails.closeAll());
    const api = new Gateway({ registry, runtime, token, port: bound, logger });
    // Requests arriving before workerd is up wait for it.
    let started;
    const startedP = new Promise((r) => (started = r));
    server.on("request", (req, res) => {
      startedP.then(() => api.handle(req, res));
    });
    await runtime.start();
    // The gate admits our workerds only: the main one and the D1 hosts' (whose miniflare loopback servers it also
    // closes to everyone else as each host starts).
    const gate = new LoopbackGate({ workerdPids: childWorkerds, logger });
    runtime.gate = gate;
    runtime.d1.onHostStarted = () => gate.attach(server);
    runtime.onWorkerdStarted = () => gate.attach(server); // a new group's Miniflare has a loopback server of its own
    if (!gate.attach(server))
      logger(
        "cannot trace loopback connections to workerd here (no /proc): miniflare's loopback server stays open to local processes",
      );
    started();
    cleanup.unshift(() => runtime.close());
    const scheduler = new Scheduler((minute) => api.everyMinute(minute));
    scheduler.start();
    cleanup.unshift(() => scheduler.stop());
    // finished instances leave the engine for the archive (api/archive.mjs) a few seconds after they end, also those
    // nobody reads
    const archiver = setInterval(() => api.archiveSweep(), ARCHIVE_SWEEP_MS);
    archiver.unref();
    cleanup.unshift(() => clearInterval(archiver));
    // a group's workerd past its bound of descriptors or memory is cycled (bounds.mjs)
    const bounds = new Bounds({ runtime, logger });
    runtime.bounds = bounds;
    bounds.start();
    cleanup.unshift(() => bounds.stop());
    const base = `http://127.0.0.1:${bound}`;
    logger(`listening on ${base} (workerd's entry sockets in ${runDir.dir}), data in ${dataDir}`);
    return {
      ready: { api: `${base}/client/v4`, workers: `${base}/workers`, accountId: registry.state.accountId, tokenFile },
      api,
      runtime,
      async close() {
        for (const fn of cleanup) {
          try {
            await fn();
          } catch {
            // keep closing
          }
        }
      },
    };
  } catch (err) {
    for (const fn of cleanup) {
      try {
        fn();
      } catch {
        // keep closing
      }
    }
    throw err;
  }
}
