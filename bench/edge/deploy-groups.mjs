// Deploy time and idle memory of the local edge with many workers (issue 20 item 7, decision 259). Run by hand
// from the repository root after `npm ci` in edge/:
//
//   node bench/edge/deploy-groups.mjs [--workers 100] [--rounds 5] [--group-size 4] [--dir /tmp]
//
// 1. fills a fresh edge with W workers, each holding a 3-step Workflow (upload + workflow PUT, as edgeflow
//    deploys), and prints how long the last fill deploys took;
// 2. deploys a 50-step workflow worker (one Workflow class with 50 step.do calls, the shape edgeflow generates for a
//    50-node workflow) as a new worker, then redeploys it with changed code R-1 times: each time the upload and the
//    workflow PUT, timed from the first request to the last answer; prints min, median and max;
//    then redeploys the first fill worker R times (its group is full: the most an upload restarts);
// 3. reads GET /__edge/stats: the resident memory of Node and of every group's workerd, and per worker.
//
// --group-size sets EDGEFLOW_EDGE_GROUP_SIZE for the edge (workers per workerd); a size of W or more puts every
// worker in one workerd, as the edge did before groups, for comparison.

import os from "node:os";
import path from "node:path";
import fs from "node:fs";
import { startEdge } from "../../edge/test/helpers.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => {
    if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith("--") ? all[i + 1] : "1"]);
    return acc;
  }, []),
);
const W = Number(args.workers ?? 100);
const R = Number(args.rounds ?? 5);
if (args["group-size"]) process.env.EDGEFLOW_EDGE_GROUP_SIZE = String(args["group-size"]);
const dir = fs.mkdtempSync(path.join(args.dir ?? os.tmpdir(), "edge-deploy-bench-"));

const SMALL = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Flow extends WorkflowEntrypoint {
  async run(event, step) {
    const a = await step.do("one", async () => (event.payload?.n ?? 1) + 1);
    const b = await step.do("two", async () => a * 2);
    return await step.do("three", async () => ({ result: b }));
  }
}
export default { async fetch() { return new Response("ok"); } };
`;

// big is a Workflow of 50 steps, each reading the previous step's output; `mark` makes each redeploy's code new.
function big(mark) {
  const steps = [];
  for (let i = 1; i <= 50; i++) {
    steps.push(
      `    const s${i} = await step.do("node-${i}", async () => ({ n: ${i === 1 ? "event.payload?.n ?? 0" : `s${i - 1}.n`} + ${i}, at: "node-${i}" }));`,
    );
  }
  return `import { WorkflowEntrypoint } from "cloudflare:workers";
// deploy ${mark}
export class Flow extends WorkflowEntrypoint {
  async run(event, step) {
${steps.join("\n")}
    return s50;
  }
}
export default { async fetch() { return new Response("ok ${mark}"); } };
`;
}

async function deploy(edge, name, source) {
  const t0 = performance.now();
  const fd = new FormData();
  fd.set(
    "metadata",
    JSON.stringify({
      main_module: "index.js",
      compatibility_date: "2025-01-01",
      bindings: [{ type: "workflow", name: "WORKFLOW", workflow_name: name, class_name: "Flow" }],
    }),
  );
  fd.set("files", new Blob([source], { type: "application/javascript+module" }), "index.js");
  const up = await edge.call("PUT", `/workers/scripts/${name}`, fd);
  if (up.status !== 200) throw new Error(`upload ${name}: ${JSON.stringify(up.body)}`);
  const wf = await edge.call("PUT", `/workflows/${name}`, { script_name: name, class_name: "Flow" });
  if (wf.status !== 200) throw new Error(`workflow ${name}: ${JSON.stringify(wf.body)}`);
  return performance.now() - t0;
}

const mib = (b) => (b / 2 ** 20).toFixed(0);
const ms = (x) => `${x.toFixed(0)} ms`;

const edge = await startEdge({ dataDir: dir });
try {
  const fill = [];
  const t0 = performance.now();
  for (let i = 0; i < W; i++) fill.push(await deploy(edge, `w${String(i).padStart(3, "0")}`, SMALL));
  console.log(
    `filled ${W} workers in ${((performance.now() - t0) / 1000).toFixed(1)} s; last 10 deploys: median ${ms(fill.slice(-10).sort((a, b) => a - b)[5] ?? 0)}`,
  );
  const times = [];
  for (let r = 0; r < R; r++) times.push(await deploy(edge, "big", big(r)));
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `50-step workflow deploy with ${W} other workers: new ${ms(times[0])}; redeploys ${times.slice(1).map(ms).join(", ")}; min ${ms(sorted[0])}, median ${ms(sorted[Math.floor(sorted.length / 2)])}, max ${ms(sorted.at(-1))}`,
  );
  // a redeploy of one of the first workers, whose group is full: the largest group an upload restarts
  const full = [];
  for (let r = 0; r < R; r++) full.push(await deploy(edge, "w000", `${SMALL}// redeploy ${r}\n`));
  const fs2 = [...full].sort((a, b) => a - b);
  console.log(
    `redeploy of a worker in a full group: ${full.map(ms).join(", ")}; median ${ms(fs2[Math.floor(fs2.length / 2)])}`,
  );
  await new Promise((r) => setTimeout(r, 3000)); // idle
  const res = await fetch(edge.ready.api.replace("/client/v4", "/__edge/stats"), {
    headers: { authorization: `Bearer ${edge.token}` },
  });
  const s = await res.json();
  console.log(
    `idle: node ${mib(s.node_rss)} MiB; workerd ${mib(s.workerd_rss)} MiB in ${s.workerd_groups.length} workerds (group size ${process.env.EDGEFLOW_EDGE_GROUP_SIZE ?? "default"}); ${mib(s.workerd_rss_per_worker)} MiB of workerd per worker (${s.scripts} workers); (node + workerd) / worker ${((s.node_rss + s.workerd_rss) / s.scripts / 2 ** 20).toFixed(1)} MiB`,
  );
  console.log(
    `idle, proportional (shared code pages counted once): workerd PSS ${mib(s.workerd_pss)} MiB, ${(s.workerd_pss / s.scripts / 2 ** 20).toFixed(1)} MiB per worker`,
  );
  const perGroup = s.workerd_groups.map((g) => `${g.group}:${g.workers}w/${mib(g.rss)}/${mib(g.pss)}MiB`).join(" ");
  console.log(`groups (workers/RSS/PSS): ${perGroup}`);
} finally {
  await edge.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
