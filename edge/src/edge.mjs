// startEdge wires the local edge together: data dir lock, API token, registry, workerd runtime, HTTP server and
// cron scheduler.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { Scheduler } from "./cron.mjs";
import { Gateway } from "./gateway.mjs";
import { LoopbackGate } from "./gate.mjs";
import { AllowList, OutboundGuard } from "./outbound.mjs";
import { Registry } from "./registry.mjs";
import { Runtime } from "./runtime.mjs";
import { keyFromFile, tightenModes } from "./sealed.mjs";

// lock takes DIR/edge.lock for this process. A lock left by a process that no longer runs is taken over.
function lock(dataDir) {
  const file = path.join(dataDir, "edge.lock");
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: "wx" });
      return file;
    } catch (err) {
      if (err.code !== "EEXIST") throw new Error(`cannot create lock file ${file}: ${err.message}`);
    }
    const pid = Number(fs.readFileSync(file, "utf8").trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      throw new Error(`data dir ${dataDir} is in use by another edge (pid ${pid}); stop it first or use another --data-dir`);
    }
    fs.rmSync(file, { force: true });
  }
  throw new Error(`cannot take lock file ${file}`);
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
export async function startEdge({ port, dataDir, allowHosts = "", sealKey, logger }) {
  dataDir = path.resolve(dataDir);
  // Everything the edge and workerd write is for this user only: files 0600, directories 0700.
  process.umask(0o077);
  let allow;
  try {
    allow = AllowList.parse(allowHosts);
  } catch (err) {
    throw new Error(`--allow-hosts: ${err.message}`);
  }
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dataDir, 0o700);
  tightenModes(dataDir); // a data dir of an older edge
  const lockFile = lock(dataDir);
  const cleanup = [() => fs.rmSync(lockFile, { force: true })];
  try {
    const { file: tokenFile, token } = ensureToken(dataDir);
    const registry = new Registry(dataDir, { sealKey: sealKey ?? keyFromFile(dataDir) });
    const pidFile = path.join(dataDir, "workerd.pid");
    await Runtime.stopOrphan(pidFile, logger);
    Runtime.tieWorkerdToUs(dataDir, logger);
    const outbound = new OutboundGuard({ allow, logger });
    const runtime = new Runtime({ registry, persistDir: path.join(dataDir, "miniflare"), pidFile, logger, outbound });

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
        throw new Error(`cannot listen on 127.0.0.1:${port}: ${err.message}`);
      }
    }
    cleanup.unshift(() => server.close());
    if (registry.state.port !== bound) {
      registry.state.port = bound;
      registry.save();
    }
    outbound.allowGateway(bound);
    const api = new Gateway({ registry, runtime, token, port: bound, logger });
    // Requests arriving before workerd is up wait for it.
    let started;
    const startedP = new Promise((r) => (started = r));
    server.on("request", (req, res) => {
      startedP.then(() => api.handle(req, res));
    });
    await runtime.start();
    const gate = new LoopbackGate({ workerdPid: () => runtime.workerdPid(), logger });
    if (!gate.attach(server)) logger("cannot trace loopback connections to workerd here (no /proc): miniflare's loopback server stays open to local processes");
    started();
    cleanup.unshift(() => runtime.close());
    const scheduler = new Scheduler((minute) => api.runSchedules(minute));
    scheduler.start();
    cleanup.unshift(() => scheduler.stop());
    const base = `http://127.0.0.1:${bound}`;
    logger(`listening on ${base} (workerd at ${runtime.url.href}), data in ${dataDir}`);
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
