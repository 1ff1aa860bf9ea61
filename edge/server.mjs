#!/usr/bin/env node
// edgeflow's local edge: a Cloudflare-compatible account on this machine.
//
//   node edge/server.mjs --port P --data-dir DIR [--allow-hosts LIST] [--key-stdin]
//
// When ready it prints one JSON line on stdout:
//   {"api":"http://127.0.0.1:P/client/v4","workers":"http://127.0.0.1:P/workers","accountId":"...","tokenFile":"..."}
// Logs go to stderr. SIGTERM or SIGINT stop it gracefully. See docs/edge.md.

import module from "node:module";

// V8's compile cache (decision 782): the edge's code is compiled once per machine and Node version, not at every
// start (miniflare alone is 6 MB of JavaScript, some 0.15 s of CPU to compile). Node checks each entry against the
// file's contents; src/compilecache.mjs says where it lives (never a shared temporary directory), and
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. It is enabled before the edge's modules load, hence the dynamic imports.
const { compileCacheDir } = await import("./src/compilecache.mjs");
const cacheDir = compileCacheDir();
if (cacheDir) module.enableCompileCache?.(cacheDir);
const { startEdge } = await import("./src/edge.mjs");
const { readKeyFromStdin } = await import("./src/sealed.mjs");

function usage(msg) {
  if (msg) process.stderr.write(`edge: ${msg}\n`);
  process.stderr.write("usage: node server.mjs --port PORT --data-dir DIR [--allow-hosts LIST] [--key-stdin]\n");
  process.exit(2);
}

function parseArgs(argv) {
  const out = { port: undefined, dataDir: undefined, allowHosts: "", keyStdin: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => {
      if (inline !== undefined) return inline;
      i++;
      if (i >= argv.length) usage(`${flag} needs a value`);
      return argv[i];
    };
    switch (flag) {
      case "--port":
      case "-p": {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) > 65535) usage(`--port must be 0-65535, got '${v}'`);
        out.port = Number(v);
        break;
      }
      case "--data-dir":
      case "-d":
        out.dataDir = value();
        break;
      case "--allow-hosts":
        // host names, IP addresses or CIDR ranges worker code may reach although they are private or loopback
        out.allowHosts = value();
        break;
      case "--key-stdin":
        // the key that seals secrets at rest arrives as one line on stdin (see sealed.mjs)
        out.keyStdin = true;
        break;
      case "--help":
      case "-h":
        usage();
        break;
      default:
        usage(`unknown argument '${a}'`);
    }
  }
  if (out.dataDir === undefined) usage("--data-dir is required");
  if (out.port === undefined) out.port = 0;
  return out;
}

const args = parseArgs(process.argv.slice(2));
const log = (msg) => process.stderr.write(`${new Date().toISOString()} edge: ${msg}\n`);

let edge;
let stopping = false;
const stop = async (sig) => {
  if (stopping) return;
  stopping = true;
  log(`${sig}: stopping`);
  const force = setTimeout(() => process.exit(1), 10000);
  force.unref();
  if (!edge) return; // still starting: stopped right after the start below
  await edge.close();
  process.exit(0);
};
// Our handlers go in before anything else and stay: a signal that arrives while a handler is being swapped
// would be dropped (Node's signal watcher is torn down when the last listener goes).
const handlers = { SIGTERM: () => stop("SIGTERM"), SIGINT: () => stop("SIGINT") };
for (const [sig, fn] of Object.entries(handlers)) process.on(sig, fn);

try {
  const sealKey = args.keyStdin ? await readKeyFromStdin() : undefined;
  edge = await startEdge({ port: args.port, dataDir: args.dataDir, allowHosts: args.allowHosts, sealKey, logger: log });
} catch (err) {
  process.stderr.write(`edge: ${err.message}\n`);
  process.exit(1);
}
// miniflare's exit hook would exit at once with 143; our stop disposes workerd itself and releases the lock.
for (const [sig, fn] of Object.entries(handlers)) {
  for (const l of process.listeners(sig)) if (l !== fn) process.removeListener(sig, l);
}
if (stopping) {
  await edge.close();
  process.exit(0);
}
process.stdout.write(`${JSON.stringify(edge.ready)}\n`);
