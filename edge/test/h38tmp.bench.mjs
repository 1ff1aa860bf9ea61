import { deployDemo, startEdge } from "./helpers.mjs";
const SRC = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class DemoWorkflow extends WorkflowEntrypoint { async run(event, step) { return await step.do("a", async () => 1); } }
export default { async fetch(req, env) { const i = await env.WORKFLOW.create({ params: {} }); return Response.json({ id: i.id }); } };
`;
for (const [label, env] of [
  ["edge binding (SHARD_MAX=2, one shard)", { EDGEFLOW_EDGE_SHARDS: "", EDGEFLOW_EDGE_SHARD_MAX: "2", EDGEFLOW_EDGE_SHARD_GROW: "100000" }],
  ["miniflare binding (EDGEFLOW_EDGE_SHARDS=1)", { EDGEFLOW_EDGE_SHARDS: "1" }],
]) {
  const edge = await startEdge({ env });
  await deployDemo(edge, "b", { source: SRC });
  const url = `${edge.ready.workers}/b/`;
  for (let i = 0; i < 20; i++) await (await fetch(url)).json();
  const N = 300, C = 8;
  let next = 0;
  const lat = [];
  const t0 = performance.now();
  await Promise.all(Array.from({ length: C }, async () => {
    while (next < N) { next++; const t = performance.now(); const r = await fetch(url); await r.json(); lat.push(performance.now() - t); }
  }));
  const total = performance.now() - t0;
  lat.sort((a, b) => a - b);
  console.log(`${label}: ${N} creates, ${C} in flight: ${(N / total * 1000).toFixed(0)}/s, p50 ${lat[N >> 1].toFixed(1)} ms, p99 ${lat[Math.floor(N * 0.99)].toFixed(1)} ms`);
  await edge.stop();
}
