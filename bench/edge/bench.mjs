// Benchmarks of the local edge (run by hand from the repository root after `npm ci` in edge/):
//
//   node bench/edge/bench.mjs [--instances 200] [--concurrency 32] [--dir /tmp] [--skip-direct]
//
// 1. deploy (script upload + workflow PUT) of one worker when 1 and when 20 workers exist;
// 2. a burst of N instances of a 3-step workflow created through the REST API: instances/s and
//    create->complete latency (median, p99), measured from the client's create call to the engine's end time;
// 3. resident memory of the edge (Node + workerd) idle and after the burst;
// 4. the same burst driven directly on a bare miniflare (instances created through miniflare's own local explorer
//    API, the fastest way in from Node) to show what the edge adds.

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
const baseDir = args.dir ?? os.tmpdir();

const WORKER = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Bench extends WorkflowEntrypoint {
  async run(event, step) {
    const a = await step.do("one", async () => event.payload.n + 1);
    const b = await step.do("two", async () => a * 2);
    return await step.do("three", async () => ({ result: b }));
  }
}
export default { fetch() { return new Response("ok"); } };
`;

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
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

async function deploy(edge, name) {
  const t0 = performance.now();
  const fd = new FormData();
  fd.set("metadata", JSON.stringify({
    main_module: "index.js",
    compatibility_date: "2025-01-01",
    bindings: [{ type: "workflow", name: "WORKFLOW", workflow_name: name, class_name: "Bench" }],
  }));
  fd.set("files", new Blob([WORKER], { type: "application/javascript+module" }), "index.js");
  const up = await edge.call("PUT", `/workers/scripts/${name}`, fd);
  if (up.status !== 200) throw new Error(JSON.stringify(up.body));
  const wf = await edge.call("PUT", `/workflows/${name}`, { script_name: name, class_name: "Bench" });
  if (wf.status !== 200) throw new Error(JSON.stringify(wf.body));
  return performance.now() - t0;
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function stats(edge) {
  const r = await fetch(edge.ready.api.replace("/client/v4", "/__edge/stats"), { headers: { authorization: `Bearer ${edge.token}` } });
  const s = await r.json();
  return { node: s.node_rss / 2 ** 20, workerd: s.workerd_rss / 2 ** 20 };
}

// burst creates N instances with CONC in flight via create(i), waits until all are complete and reads each
// instance's end time with details(id).
async function burst({ create, completeCount, details }) {
  const starts = new Array(N);
  const ids = Array.from({ length: N }, (_, i) => `b-${i}`);
  const t0 = Date.now();
  await mapLimit(ids, CONC, async (id, i) => {
    starts[i] = Date.now();
    await create(id, i);
  });
  const created = Date.now();
  while ((await completeCount()) < N) {
    if (Date.now() - t0 > 300000) throw new Error("burst did not complete in 5 minutes");
    await new Promise((r) => setTimeout(r, 200));
  }
  const lat = [];
  let lastEnd = 0;
  await mapLimit(ids, 16, async (id, i) => {
    const d = await details(id);
    const end = Date.parse(d.end);
    lastEnd = Math.max(lastEnd, end);
    lat.push(end - starts[i]);
  });
  lat.sort((a, b) => a - b);
  return {
    createSeconds: (created - t0) / 1000,
    instancesPerSecond: N / ((lastEnd - t0) / 1000),
    latencyMedianMs: pct(lat, 50),
    latencyP99Ms: pct(lat, 99),
  };
}

async function edgeBench() {
  const dataDir = fs.mkdtempSync(path.join(baseDir, "edge-bench-"));
  const edge = await startEdge({ dataDir });
  try {
    await deploy(edge, "w00");
    const one = [];
    for (let i = 0; i < 3; i++) one.push(await deploy(edge, "w01"));
    for (let i = 2; i < 20; i++) await deploy(edge, `w${String(i).padStart(2, "0")}`);
    const twenty = [];
    for (let i = 0; i < 3; i++) twenty.push(await deploy(edge, "w20"));
    await new Promise((r) => setTimeout(r, 2000));
    const idle = await stats(edge);
    const b = await burst({
      create: async (id, i) => {
        const r = await edge.call("POST", "/workflows/w20/instances", { instance_id: id, params: { n: i } });
        if (r.status !== 200) throw new Error(JSON.stringify(r.body));
      },
      completeCount: async () => {
        const r = await edge.call("GET", "/workflows/w20/instances?status=complete&per_page=1");
        return r.body.result_info.total_count;
      },
      details: async (id) => (await edge.call("GET", `/workflows/w20/instances/${id}`)).body.result,
    });
    const afterBurst = await stats(edge);
    return { deploy1: median(one), deploy20: median(twenty), idle, afterBurst, burst: b };
  } finally {
    await edge.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function directBench() {
  const require = createRequire(path.join(path.dirname(fileURLToPath(import.meta.url)), "../../edge/package.json"));
  const { Miniflare, Log, LogLevel } = await import(require.resolve("miniflare"));
  const dataDir = fs.mkdtempSync(path.join(baseDir, "edge-bench-direct-"));
  const mf = new Miniflare({
    host: "127.0.0.1",
    port: 0,
    cf: false,
    log: new Log(LogLevel.ERROR),
    defaultPersistRoot: dataDir,
    unsafeLocalExplorer: true,
    workers: [{
      name: "w20",
      modules: [{ type: "ESModule", path: "/w20/index.js", contents: WORKER }],
      modulesRoot: "/w20",
      compatibilityDate: "2025-01-01",
      workflows: { WORKFLOW: { name: "w20", className: "Bench" } },
    }],
  });
  const url = await mf.ready;
  // workerd now and then resets a connection under load; send such a request once more (the edge does the same)
  const api = async (p, init) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await (await fetch(new URL(`/cdn-cgi/explorer/api${p}`, url), init)).json();
      } catch (err) {
        if (attempt > 0) throw err;
      }
    }
  };
  try {
    return await burst({
      create: async (id, i) => {
        const r = await api("/workflows/w20/instances", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id, params: { n: i } }) });
        if (!r.success) throw new Error(JSON.stringify(r));
      },
      completeCount: async () => (await api("/workflows/w20/instances?status=complete&per_page=1")).result_info.total_count,
      details: async (id) => (await api(`/workflows/w20/instances/${id}`)).result,
    });
  } finally {
    await mf.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (x) => (typeof x === "number" ? x.toFixed(1) : x);
const e = await edgeBench();
console.log(`deploy (upload + workflow PUT), 1 worker exists:   ${fmt(e.deploy1)} ms (median of 3)`);
console.log(`deploy (upload + workflow PUT), 20 workers exist:  ${fmt(e.deploy20)} ms (median of 3)`);
console.log(`edge RSS idle (21 workers):        node ${fmt(e.idle.node)} MiB + workerd ${fmt(e.idle.workerd)} MiB`);
console.log(`burst of ${N} x 3-step instances via the edge REST API (${CONC} in flight):`);
console.log(`  creates took ${fmt(e.burst.createSeconds)} s; ${fmt(e.burst.instancesPerSecond)} instances/s to all complete`);
console.log(`  create->complete latency median ${e.burst.latencyMedianMs} ms, p99 ${e.burst.latencyP99Ms} ms`);
console.log(`edge RSS after the burst:          node ${fmt(e.afterBurst.node)} MiB + workerd ${fmt(e.afterBurst.workerd)} MiB`);
if (!args["skip-direct"]) {
  const d = await directBench();
  console.log(`same burst directly on miniflare (explorer API, 1 worker):`);
  console.log(`  creates took ${fmt(d.createSeconds)} s; ${fmt(d.instancesPerSecond)} instances/s to all complete`);
  console.log(`  create->complete latency median ${d.latencyMedianMs} ms, p99 ${d.latencyP99Ms} ms`);
  console.log(`edge throughput relative to direct miniflare: ${fmt((100 * e.burst.instancesPerSecond) / d.instancesPerSecond)}%`);
}
