// Burst side by side: edgeflow (serve + its local edge, driven through the API) against raw miniflare (the same
// 3-step workflow created with miniflare's Workflow binding), each in a fresh data dir under the same base
// directory. Run from the repository root (bench/burst.sh wraps it):
//
//   node bench/burst.mjs --bin PATH [--dir DIR] [--runs 200] [--concurrency 16] [--rounds 1] [--shards 1,2]
//
// --shards lists the edgeflow sides: one edgeflow per entry, its local edge with EDGEFLOW_EDGE_SHARDS forced to that
// count (docs/edge.md, "Shards"; "policy" leaves the variable unset, so the edge's own policy decides). Each side is
// started, bursts and is stopped before the next starts. After each burst the resident memory of each of the side's
// workerd processes is printed (edgeflow: its groups' and shards' workerds, the home group's among them).
//
// Each round runs one burst on each side (alternating which goes first): RUNS runs of a 3-step workflow, CONCURRENCY
// creates in flight; then every open run is polled (CONCURRENCY at a time for edgeflow, one request for miniflare)
// every 250 ms until all are complete. Reported per side: total time (first create → all seen complete) and the
// create latency (edgeflow: POST /api/workflows/:id/trigger; miniflare: env.WORKFLOW.create inside a fetch) p50, p99
// and max, and the CPU time its server processes spent during the burst (edgeflow: serve, the edge and its
// workerds; miniflare: its workerd; from /proc); then edgeflow's total / miniflare's total. Missing inputs (the binary, edge/node_modules, the directory)
// fail the run with a message; nothing is skipped. BURST_KEEP=1 keeps edgeflow's data dir and log (serve.log) for
// a look afterwards; BURST_LOG_LEVEL sets serve's log level (default warn; info logs every request with its time);
// BURST_SERVE_ARGS adds options to serve (e.g. "--pprof-addr 127.0.0.1:6060" to profile it during the bursts). Each side's
// line also tells when its last create was answered and how many polls it took to see every run complete.

import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => {
    if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith("--") ? all[i + 1] : "1"]);
    return acc;
  }, []),
);
const RUNS = Number(args.runs ?? 200);
const CONC = Number(args.concurrency ?? 16);
const ROUNDS = Number(args.rounds ?? 1);
const BASE = args.dir ?? "/var/tmp";
const BIN = args.bin;
// LIMIT_MS bounds one burst: 5 minutes, or 0.6 s a run for a longer one (a loaded machine).
const LIMIT_MS = Math.max(300000, RUNS * 600);
const SHARDS = String(args.shards ?? "1,2")
  .split(",")
  .map((x) => x.trim())
  .filter(Boolean);

function fail(msg) {
  console.error(`burst: ${msg}`);
  process.exit(2);
}
if (!BIN || !fs.existsSync(BIN)) fail(`the edgeflow binary is missing (--bin ${BIN ?? "not given"})`);
if (!fs.existsSync(path.join(here, "../edge/node_modules/miniflare")))
  fail("edge/node_modules/miniflare is missing: run npm ci in edge/");
try {
  fs.accessSync(BASE, fs.constants.W_OK);
} catch {
  fail(`the directory ${BASE} is missing or not writable`);
}
if (!(RUNS > 0 && CONC > 0 && ROUNDS > 0)) fail("--runs, --concurrency and --rounds must be positive numbers");
if (SHARDS.length === 0 || !SHARDS.every((x) => x === "policy" || Number(x) >= 1))
  fail("--shards lists shard counts of at least 1 (or policy), comma-separated");

// The workflow: three steps, each reading the previous one's value.
const IR = {
  metadata: { name: "Burst", version: 1, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" },
  nodes: [
    ["a", "return { n: event.payload.n ?? 0 };"],
    ["b", "return { n: {{a.n}} + 1 };"],
    ["c", "return { n: {{b.n}} * 2 };"],
  ].map(([id, code]) => ({
    id,
    type: "step",
    name: id,
    position: { x: 0, y: 0 },
    version: "1.0.0",
    provider: "cloudflare",
    data: { code },
  })),
  edges: [
    { id: "e1", source: "a", target: "b" },
    { id: "e2", source: "b", target: "c" },
  ],
  entryNodeId: "a",
};

// The same workflow written for miniflare directly.
const WORKER = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Burst extends WorkflowEntrypoint {
  async run(event, step) {
    const a = await step.do("a", async () => ({ n: event.payload.n ?? 0 }));
    const b = await step.do("b", async () => ({ n: a.n + 1 }));
    return await step.do("c", async () => ({ n: b.n * 2 }));
  }
}
export default {
  async fetch(req, env) {
    const url = new URL(req.url);
    if (url.pathname === "/create") {
      const inst = await env.WORKFLOW.create({ params: await req.json() });
      return Response.json({ id: inst.id });
    }
    if (url.pathname === "/statuses") {
      const ids = await req.json();
      return Response.json(await Promise.all(ids.map(async (id) => (await (await env.WORKFLOW.get(id)).status()).status)));
    }
    return new Response("ok");
  },
};
`;

let servePid = null; // edgeflow's serve, which the miniflare side's CPU leaves out
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// fetchOnceAgain sends a request to raw miniflare again when workerd closed the kept-alive connection before
// answering ("other side closed", ECONNRESET), which a loaded machine shows now and then on both sides; edgeflow's local edge
// does the same for its own requests to workerd. The pool may hold more than one such connection (after an idle
// pause, e.g. while the other side ran its burst), so a request is sent up to three more times. The retries are
// counted and printed.
let socketRetries = 0;
async function fetchOnceAgain(u, init) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetch(u, init);
    } catch (err) {
      if (
        attempt === 3 ||
        !(err instanceof TypeError) ||
        !["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"].includes(err.cause?.code)
      )
        throw err;
      socketRetries++;
    }
  }
}
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function mapLimit(items, limit, fn) {
  let i = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (i < items.length) {
        const k = i++;
        await fn(items[k], k);
      }
    }),
  );
}

// cpuSeconds sums the CPU time (user + system) of the processes pids() and their descendants by program name
// (edgeflow, node, workerd), from /proc (null where /proc is missing): what a side's server processes spent.
function cpuSeconds(pids) {
  if (!fs.existsSync("/proc/self/stat")) return null;
  const tick = 100; // USER_HZ, 100 on Linux
  const sum = {};
  const seen = new Set();
  const walk = (pid) => {
    if (seen.has(pid)) return;
    seen.add(pid);
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      sum[name] = (sum[name] ?? 0) + (Number(f[11]) + Number(f[12])) / tick;
    } catch {
      return; // gone meanwhile
    }
    for (const c of childrenOf(pid)) walk(c);
  };
  for (const p of pids()) walk(p);
  return sum;
}

function childrenOf(pid) {
  try {
    return fs
      .readdirSync(`/proc/${pid}/task`)
      .flatMap((t) =>
        fs.readFileSync(`/proc/${pid}/task/${t}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number),
      );
  } catch {
    return [];
  }
}

// workerdRss lists the resident memory (MiB) of every workerd among the processes pids() and their descendants.
function workerdRss(pids) {
  const out = [];
  const seen = new Set();
  const walk = (pid) => {
    if (seen.has(pid)) return;
    seen.add(pid);
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      if (stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) === "workerd") {
        const kb = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
        out.push(kb / 1024);
      }
    } catch {
      return;
    }
    for (const c of childrenOf(pid)) walk(c);
  };
  for (const p of pids()) walk(p);
  return out.sort((a, b) => b - a);
}

// burst creates RUNS runs (CONC in flight), then polls until all are complete; completed(ids) answers the ids now
// complete and throws on a failed run. serverPids() names the side's server processes, whose CPU is measured.
async function burst(create, completed, serverPids) {
  const cpu0 = cpuSeconds(serverPids);
  const lat = [];
  const ids = new Array(RUNS);
  const t0 = performance.now();
  await mapLimit(ids, CONC, async (_, i) => {
    const t = performance.now();
    ids[i] = await create(i);
    lat.push(performance.now() - t);
  });
  const created = (performance.now() - t0) / 1000;
  let polls = 0;
  let open = ids;
  while (open.length > 0) {
    if (performance.now() - t0 > LIMIT_MS)
      throw new Error(`${open.length} runs not complete after ${LIMIT_MS / 60000} minutes`);
    polls++;
    const done = new Set(await completed(open));
    open = open.filter((id) => !done.has(id));
    if (open.length > 0) await sleep(250);
  }
  const total = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds(serverPids);
  const rss = fs.existsSync("/proc/self/stat") ? workerdRss(serverPids) : null;
  lat.sort((a, b) => a - b);
  return {
    rss,
    created,
    polls,
    total,
    p50: pct(lat, 50),
    p99: pct(lat, 99),
    max: lat[lat.length - 1],
    slow: lat.filter((x) => x > 1000).length,
    cpu: cpu0 === null ? null : Object.fromEntries(Object.entries(cpu1).map(([k, v]) => [k, v - (cpu0[k] ?? 0)])),
  };
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

async function edgeflowSide(shards) {
  const dir = fs.mkdtempSync(path.join(BASE, "burst-edgeflow-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = fs.openSync(path.join(dir, "serve.log"), "w");
  const env = {
    ...process.env,
    EDGEFLOW_RATE_LIMITS: "off",
    EDGEFLOW_LOG_LEVEL: process.env.BURST_LOG_LEVEL ?? "warn",
  };
  if (shards === "policy") delete env.EDGEFLOW_EDGE_SHARDS;
  else env.EDGEFLOW_EDGE_SHARDS = shards;
  const child = spawn(
    BIN,
    [
      "serve",
      "--addr",
      `127.0.0.1:${port}`,
      "--data-dir",
      path.join(dir, "data"),
      ...(process.env.BURST_SERVE_ARGS ? process.env.BURST_SERVE_ARGS.split(" ") : []),
    ],
    { env, stdio: ["ignore", log, log] },
  );
  servePid = child.pid;
  let exited = null;
  child.on("exit", (code) => {
    exited = code;
  });
  const close = async () => {
    if (exited === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    if (process.exitCode)
      console.error(
        `edgeflow's log (last 3000 bytes):\n${fs.readFileSync(path.join(dir, "serve.log"), "utf8").slice(-3000)}`,
      );
    if (process.env.BURST_KEEP) console.error(`burst: kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      if (exited !== null)
        throw new Error(
          `edgeflow serve exited (${exited}): ${fs.readFileSync(path.join(dir, "serve.log"), "utf8").slice(-2000)}`,
        );
      if (i > 600) throw new Error("edgeflow serve was not ready after 60 s");
      try {
        const r = await fetch(`${url}/readyz`);
        if (r.status === 200 && (await r.json()).edge === "ok") break;
      } catch {
        // not up yet
      }
      await sleep(100);
    }
    const out = execFileSync(
      BIN,
      [
        "admin",
        "bootstrap",
        "--data-dir",
        path.join(dir, "data"),
        "--email",
        "bench@example.com",
        "--password",
        "burst-bench-password",
        "--json",
      ],
      { env, encoding: "utf8" },
    );
    const key = JSON.parse(out).apiKey;
    const call = async (method, p, body, want) => {
      const r = await fetch(url + p, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const j = await r.json();
      if (r.status !== want) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(j)}`);
      return j;
    };
    const conn = (await call("POST", "/api/connections", { provider: "local", name: "edge", credentials: {} }, 201)).id;
    const wf = (await call("POST", "/api/workflows", { name: "Burst", kind: "workflow" }, 201)).id;
    await call("POST", `/api/workflows/${wf}/versions`, { ir: IR }, 201);
    await call("POST", `/api/workflows/${wf}/deploy`, { connectionId: conn }, 200);
    for (let i = 0; i < 3; i++)
      await call("POST", `/api/workflows/${wf}/trigger`, { connectionId: conn, params: { n: i } }, 201); // warm up
    return {
      name: `edgeflow/${shards}`,
      burst: () =>
        burst(
          async (n) =>
            (await call("POST", `/api/workflows/${wf}/trigger`, { connectionId: conn, params: { n } }, 201)).id,
          async (ids) => {
            const done = [];
            await mapLimit(ids, CONC, async (id) => {
              const r = await call("GET", `/api/workflows/${wf}/runs/${id}`, undefined, 200);
              if (r.status === "errored" || r.status === "terminated")
                throw new Error(`run ${id} is ${r.status}: ${r.error}`);
              if (r.status === "complete") done.push(id);
            });
            return done;
          },
          () => [child.pid],
        ),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}

async function miniflareSide() {
  const require = createRequire(path.join(here, "../edge/package.json"));
  const { Miniflare, Log, LogLevel, convertV4MiniflareOptions } = await import(require.resolve("miniflare"));
  const dir = fs.mkdtempSync(path.join(BASE, "burst-miniflare-"));
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    cf: false,
    log: new Log(LogLevel.ERROR),
    resourcePersistencePath: dir,
    // as the edge runs it (edge/src/mfconfig.mjs): no dev registry, no request log
    enableDevRegistry: false,
    logRequests: false,
    workers: convertV4MiniflareOptions({
      workers: [
        {
          name: "burst",
          modules: [{ type: "ESModule", path: "/burst/index.js", contents: WORKER }],
          modulesRoot: "/burst",
          compatibilityDate: "2025-01-01",
          workflows: { WORKFLOW: { name: "burst", className: "Burst" } },
        },
      ],
    }).workers,
  });
  const url = await mf.ready;
  const post = async (p, body) => {
    const r = await fetchOnceAgain(new URL(p, url), { method: "POST", body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${p}: ${r.status} ${await r.text()}`);
    return r.json();
  };
  for (let i = 0; i < 3; i++) await post("/create", { n: i }); // warm up
  return {
    name: "miniflare",
    burst: () =>
      burst(
        async (n) => (await post("/create", { n })).id,
        async (ids) => {
          const st = await post("/statuses", ids);
          st.forEach((s, i) => {
            if (s === "errored" || s === "terminated") throw new Error(`instance ${ids[i]} is ${s}`);
          });
          return ids.filter((_, i) => st[i] === "complete");
        },
        // miniflare's workerd: the children of this process other than edgeflow's serve (miniflare's Node side runs
        // in this process, with both sides' benchmark clients, and is not counted).
        () => childrenOf(process.pid).filter((p) => p !== servePid),
      ),
    close: async () => {
      await mf.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const fx = (x, d = 0) => x.toFixed(d);
const cpuSum = (byName) => Object.values(byName).reduce((a, b) => a + b, 0);
const line = (name, r) =>
  `  ${name.padEnd(12)} total ${fx(r.total, 2)} s, ${fx(RUNS / r.total, 1)} runs/s (creates ${fx(r.created, 2)} s, ${r.polls} polls); create p50 ${fx(r.p50)} ms, p99 ${fx(r.p99)} ms, max ${fx(r.max)} ms; creates over 1 s: ${r.slow}` +
  (r.cpu === null
    ? ""
    : `; server CPU ${fx(cpuSum(r.cpu), 2)} s (${Object.entries(r.cpu)
        .map(([k, v]) => `${k} ${fx(v, 2)}`)
        .join(", ")})`) +
  (r.rss === null ? "" : `; workerd RSS MiB [${r.rss.map((x) => fx(x)).join(", ")}]`) +
  (name === "miniflare" && socketRetries > 0
    ? `; requests sent again after a closed connection: ${socketRetries}`
    : "");

// The sides, each started for its burst and stopped after it (one at a time on the machine).
const makers = [...SHARDS.map((n) => () => edgeflowSide(n)), () => miniflareSide()];
const names = [...SHARDS.map((n) => `edgeflow/${n}`), "miniflare"];
console.log(
  `burst: ${RUNS} runs of a 3-step workflow, ${CONC} in flight, data under ${BASE} (${ROUNDS} round${ROUNDS > 1 ? "s" : ""}); edgeflow with EDGEFLOW_EDGE_SHARDS ${SHARDS.join(", ")}`,
);
const totals = Object.fromEntries(names.map((n) => [n, 0]));
const p99 = Object.fromEntries(names.map((n) => [n, 0]));
try {
  for (let r = 0; r < ROUNDS; r++) {
    const order = makers.map((_, i) => (i + r) % makers.length);
    for (const i of order) {
      const side = await makers[i]();
      try {
        socketRetries = 0;
        const res = await side.burst();
        totals[side.name] += res.total;
        p99[side.name] = Math.max(p99[side.name], res.p99);
        console.log(line(side.name, res));
      } finally {
        await side.close();
      }
    }
  }
  const rate = (n) => (RUNS * ROUNDS) / totals[n];
  for (const n of names.slice(0, -1))
    console.log(
      `  ${n}: ${fx(rate(n), 1)} runs/s = ${fx(rate(n) / rate("miniflare"), 2)}x miniflare's ${fx(rate("miniflare"), 1)}; trigger p99 ${fx(p99[n])} ms = ${fx(p99[n] / p99.miniflare, 2)}x miniflare's create p99 ${fx(p99.miniflare)} ms`,
    );
} catch (err) {
  console.error(err);
  process.exitCode = 1;
}
