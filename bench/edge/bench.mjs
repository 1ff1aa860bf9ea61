// Benchmarks of the local edge (run by hand from the repository root after `npm ci` in edge/):
//
//   node bench/edge/bench.mjs [--instances 200] [--concurrency 32] [--rounds 3] [--dir /tmp] [--skip-deploy]
//
// 1. deploy (script upload + workflow PUT) of one worker when 1 and when 20 workers exist, and the edge's
//    resident memory (Node + workerd) idle with 21 workers;
// 2. the comparison the issue asks for: a burst of N instances of a 3-step workflow, on the edge and on a bare
//    miniflare driven directly, in alternating rounds under the same conditions:
//      - the same worker module, one worker, a fresh data dir under the same --dir, N instances, C in flight;
//      - edge: instances are created through the REST API (POST …/workflows/W/instances); completion is polled
//        every 200 ms with GET …/instances?status=complete&per_page=1, as a client would;
//      - direct: instances are created by the worker itself (a fetch to the worker that calls
//        env.WORKFLOW.create, the shortest way into miniflare from outside); completion is polled every 200 ms
//        by asking the worker for the status of the instances not yet seen complete;
//      - instances/s = N / (last engine end time - first create call); latency = engine end time - the client's
//        create call, per instance (median and p99);
//    the median round of each side is reported, and the edge's throughput as a share of direct miniflare's;
// 3. the edge's resident memory after its bursts, and the time to list instances (GET …/instances?per_page=50,
//    median of 20) once N×rounds instances exist.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { startEdge } from "../../edge/test/helpers.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => {
    if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith("--") ? all[i + 1] : "1"]);
    return acc;
  }, []),
);
const N = Number(args.instances ?? 200);
const CONC = Number(args.concurrency ?? 32);
const ROUNDS = Number(args.rounds ?? 3);
const baseDir = args.dir ?? os.tmpdir();

const WORKER = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Bench extends WorkflowEntrypoint {
  async run(event, step) {
    const a = await step.do("one", async () => event.payload.n + 1);
    const b = await step.do("two", async () => a * 2);
    return await step.do("three", async () => ({ result: b }));
  }
}
export default {
  async fetch(req, env) {
    const url = new URL(req.url);
    if (url.pathname === "/create") {
      const { id, params } = await req.json();
      try {
        const inst = await env.WORKFLOW.create({ id, params });
        return Response.json({ id: inst.id });
      } catch (err) {
        // a create sent again after a reset connection may find its first attempt done
        if (/already exists/i.test(String(err))) return Response.json({ id, retried: true });
        return Response.json({ error: String(err) }, { status: 500 });
      }
    }
    if (url.pathname === "/statuses") {
      const ids = await req.json();
      return Response.json(await Promise.all(ids.map(async (id) => {
        const s = await (await env.WORKFLOW.get(id)).status();
        return s.status;
      })));
    }
    return new Response("ok");
  },
};
`;

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

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

// retry sends a request again (up to 5 times) when the connection dies before any response: workerd now and then
// resets a keep-alive connection under load (the edge retries its own calls to workerd the same way).
async function retry(fn) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= 5) throw err;
    }
  }
}

async function deploy(edge, name) {
  const t0 = performance.now();
  const fd = new FormData();
  fd.set(
    "metadata",
    JSON.stringify({
      main_module: "index.js",
      compatibility_date: "2025-01-01",
      bindings: [{ type: "workflow", name: "WORKFLOW", workflow_name: name, class_name: "Bench" }],
    }),
  );
  fd.set("files", new Blob([WORKER], { type: "application/javascript+module" }), "index.js");
  const up = await edge.call("PUT", `/workers/scripts/${name}`, fd);
  if (up.status !== 200) throw new Error(JSON.stringify(up.body));
  const wf = await edge.call("PUT", `/workflows/${name}`, { script_name: name, class_name: "Bench" });
  if (wf.status !== 200) throw new Error(JSON.stringify(wf.body));
  return performance.now() - t0;
}

async function stats(edge) {
  const r = await fetch(edge.ready.api.replace("/client/v4", "/__edge/stats"), {
    headers: { authorization: `Bearer ${edge.token}` },
  });
  const s = await r.json();
  return { node: s.node_rss / 2 ** 20, workerd: s.workerd_rss / 2 ** 20 };
}

// burst creates N instances (prefix-i) with CONC in flight via create(id, i), waits until allComplete(ids)
// and reads each instance's engine end time with end(id).
async function burst(prefix, { create, allComplete, end }) {
  const starts = new Array(N);
  const ids = Array.from({ length: N }, (_, i) => `${prefix}-${i}`);
  const t0 = Date.now();
  await mapLimit(ids, CONC, async (id, i) => {
    starts[i] = Date.now();
    await create(id, i);
  });
  const created = Date.now();
  while (!(await allComplete(ids))) {
    if (Date.now() - t0 > 300000) throw new Error("burst did not complete in 5 minutes");
    await new Promise((r) => setTimeout(r, 200));
  }
  const lat = [];
  let lastEnd = 0;
  await mapLimit(ids, 16, async (id, i) => {
    const e = Date.parse(await end(id));
    lastEnd = Math.max(lastEnd, e);
    lat.push(e - starts[i]);
  });
  lat.sort((a, b) => a - b);
  return {
    createSeconds: (created - t0) / 1000,
    instancesPerSecond: N / ((lastEnd - t0) / 1000),
    latencyMedianMs: pct(lat, 50),
    latencyP99Ms: pct(lat, 99),
  };
}

async function deployBench() {
  const dataDir = fs.mkdtempSync(path.join(baseDir, "edge-bench-deploy-"));
  const edge = await startEdge({ dataDir });
  try {
    await deploy(edge, "w00");
    const one = [];
    for (let i = 0; i < 3; i++) one.push(await deploy(edge, "w01"));
    for (let i = 2; i < 20; i++) await deploy(edge, `w${String(i).padStart(2, "0")}`);
    const twenty = [];
    for (let i = 0; i < 3; i++) twenty.push(await deploy(edge, "w20"));
    await new Promise((r) => setTimeout(r, 2000));
    return { deploy1: median(one), deploy20: median(twenty), idle: await stats(edge) };
  } finally {
    await edge.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

// edgeSide is an edge with the one bench worker, kept across rounds.
async function edgeSide() {
  const dataDir = fs.mkdtempSync(path.join(baseDir, "edge-bench-edge-"));
  const edge = await startEdge({ dataDir });
  await deploy(edge, "bench");
  let round = 0;
  return {
    async burst() {
      round++;
      return burst(`e${round}`, {
        create: async (id, i) => {
          const r = await edge.call("POST", "/workflows/bench/instances", { instance_id: id, params: { n: i } });
          if (r.status !== 200) throw new Error(JSON.stringify(r.body));
        },
        allComplete: async () => {
          const r = await edge.call("GET", "/workflows/bench/instances?status=complete&per_page=1");
          return r.body.result_info.total_count >= N * round;
        },
        end: async (id) => (await edge.call("GET", `/workflows/bench/instances/${id}`)).body.result.end,
      });
    },
    async listMs() {
      const times = [];
      for (let i = 0; i < 20; i++) {
        const t = performance.now();
        const r = await edge.call("GET", "/workflows/bench/instances?per_page=50");
        if (r.status !== 200) throw new Error(JSON.stringify(r.body));
        times.push(performance.now() - t);
      }
      return median(times);
    },
    stats: () => stats(edge),
    async close() {
      await edge.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function directSide() {
  const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), "../../edge/package.json"));
  const { Miniflare, Log, LogLevel, convertV4MiniflareOptions } = await import(require.resolve("miniflare"));
  const dataDir = fs.mkdtempSync(path.join(baseDir, "edge-bench-direct-"));
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    cf: false,
    log: new Log(LogLevel.ERROR),
    resourcePersistencePath: dataDir,
    unsafeLocalExplorer: true,
    // as the edge runs it (edge/src/mfconfig.mjs): no dev registry, no request log
    enableDevRegistry: false,
    logRequests: false,
    workers: convertV4MiniflareOptions({
      workers: [
        {
          name: "bench",
          modules: [{ type: "ESModule", path: "/bench/index.js", contents: WORKER }],
          modulesRoot: "/bench",
          compatibilityDate: "2025-01-01",
          workflows: { WORKFLOW: { name: "bench", className: "Bench" } },
        },
      ],
    }).workers,
  });
  const url = await mf.ready;
  const post = async (p, body) =>
    retry(async () => (await fetch(new URL(p, url), { method: "POST", body: JSON.stringify(body) })).json());
  let round = 0;
  return {
    async burst() {
      round++;
      const done = new Set();
      return burst(`d${round}`, {
        create: async (id, i) => {
          const r = await post("/create", { id, params: { n: i } });
          if (r.id !== id) throw new Error(JSON.stringify(r));
        },
        allComplete: async (ids) => {
          const open = ids.filter((id) => !done.has(id));
          const statuses = await post("/statuses", open);
          open.forEach((id, i) => statuses[i] === "complete" && done.add(id));
          return done.size === ids.length;
        },
        end: async (id) => {
          const r = await retry(async () =>
            (await fetch(new URL(`/cdn-cgi/local/explorer/api/workflows/bench/instances/${id}`, url))).json(),
          );
          return r.result.end;
        },
      });
    },
    async close() {
      await mf.dispose();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const fmt = (x) => (typeof x === "number" ? x.toFixed(1) : x);
const line = (b) =>
  `${fmt(b.instancesPerSecond)} instances/s; latency median ${b.latencyMedianMs} ms, p99 ${b.latencyP99Ms} ms (creates took ${fmt(b.createSeconds)} s)`;

if (!args["skip-deploy"]) {
  const d = await deployBench();
  console.log(`deploy (upload + workflow PUT), 1 worker exists:   ${fmt(d.deploy1)} ms (median of 3)`);
  console.log(`deploy (upload + workflow PUT), 20 workers exist:  ${fmt(d.deploy20)} ms (median of 3)`);
  console.log(`edge RSS idle (21 workers):  node ${fmt(d.idle.node)} MiB + workerd ${fmt(d.idle.workerd)} MiB`);
}

const edge = await edgeSide();
const direct = await directSide();
const idle = await edge.stats();
const er = [];
const dr = [];
try {
  for (let r = 0; r < ROUNDS; r++) {
    // alternate which side goes first so that neither always gets the warmer machine
    const order =
      r % 2 === 0
        ? [
            [edge, er],
            [direct, dr],
          ]
        : [
            [direct, dr],
            [edge, er],
          ];
    for (const [side, out] of order) out.push(await side.burst());
  }
  const pick = (rs) =>
    rs.slice().sort((a, b) => a.instancesPerSecond - b.instancesPerSecond)[Math.floor(rs.length / 2)];
  const e = pick(er);
  const d = pick(dr);
  const after = await edge.stats();
  const listMs = await edge.listMs();
  console.log(
    `burst of ${N} x 3-step instances, ${CONC} in flight, ${ROUNDS} alternating rounds (median round shown):`,
  );
  console.log(`  edge (REST API):          ${line(e)}`);
  console.log(`  miniflare directly:       ${line(d)}`);
  console.log(
    `  all rounds, instances/s:  edge ${er.map((x) => fmt(x.instancesPerSecond)).join(" ")} | direct ${dr.map((x) => fmt(x.instancesPerSecond)).join(" ")}`,
  );
  console.log(
    `  edge throughput = ${fmt((100 * e.instancesPerSecond) / d.instancesPerSecond)}% of direct miniflare; median latency ${fmt((100 * e.latencyMedianMs) / d.latencyMedianMs)}% of direct`,
  );
  console.log(
    `edge RSS (1 worker): idle node ${fmt(idle.node)} + workerd ${fmt(idle.workerd)} MiB; after the bursts node ${fmt(after.node)} + workerd ${fmt(after.workerd)} MiB`,
  );
  console.log(`GET instances?per_page=50 with ${N * ROUNDS} instances: ${fmt(listMs)} ms (median of 20)`);
} finally {
  await edge.close();
  await direct.close();
}
