// What one start of a group's workerd costs (decision 805): the CPU time and resident memory of a workerd right after
// a deploy restarted it, for a group of one plain worker and a group of one worker with a 3-step Workflow (the only
// kind that starts miniflare's local explorer), and for the home group. Run by hand from the repository root after
// `npm ci` in edge/ (Linux: it reads /proc):
//
//   node bench/edge/group-start.mjs [--rounds 10] [--dir /tmp]
//
// It starts a fresh edge with one worker per group (EDGEFLOW_EDGE_GROUP_SIZE=1), deploys both workers, then
// redeploys each ROUNDS times with changed code (each redeploy restarts that worker's group) and restarts the home
// group ROUNDS times (POST /__edge/groups/home/restart). After each, it finds the one workerd that is new in GET
// /__edge/stats and reads its CPU time (user + system since it started: its start, as nothing runs in it) and its RSS.
// It prints the median, min and max per kind. Missing inputs (edge/node_modules, /proc) fail the run.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEdge, upload } from "../../edge/test/helpers.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => {
    if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith("--") ? all[i + 1] : "1"]);
    return acc;
  }, []),
);
const ROUNDS = Number(args.rounds ?? 10);
if (!(ROUNDS > 0)) throw new Error("--rounds must be a positive number");
if (!fs.existsSync("/proc/self/stat")) throw new Error("group-start reads /proc: run it on Linux");
if (!fs.existsSync(new URL("../../edge/node_modules/miniflare", import.meta.url)))
  throw new Error("edge/node_modules/miniflare is missing: run npm ci in edge/");
process.env.EDGEFLOW_EDGE_GROUP_SIZE = "1";
const dir = fs.mkdtempSync(path.join(args.dir ?? os.tmpdir(), "edge-start-bench-"));

const PLAIN = (v) => `export default { fetch() { return new Response(${JSON.stringify(v)}); } };\n`;
const FLOW = (v) => `import { WorkflowEntrypoint } from "cloudflare:workers";
export class Flow extends WorkflowEntrypoint {
  async run(event, step) {
    const a = await step.do("one", async () => (event.payload?.n ?? 1) + 1);
    const b = await step.do("two", async () => a * 2);
    return await step.do("three", async () => ({ result: b, v: ${JSON.stringify(v)} }));
  }
}
export default { fetch() { return new Response("ok"); } };
`;
const FLOW_BINDINGS = [{ type: "workflow", name: "WF", workflow_name: "flow", class_name: "Flow" }];

// started reads the CPU seconds and RSS (MiB) of the workerd with pid.
function started(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
  return { cpu: (Number(f[11]) + Number(f[12])) / 100, rss };
}

const edge = await startEdge({ dataDir: dir });
const pids = async () => new Map((await edge.stats()).workerd_groups.map((g) => [g.group, g.pid]));
// restarted runs change() and answers the CPU and RSS of the one workerd it started anew (the group whose pid changed).
const restarted = async (change) => {
  const before = await pids();
  await change();
  const after = await pids();
  const fresh = [...after].filter(([group, pid]) => before.get(group) !== pid);
  if (fresh.length !== 1) throw new Error(`want one restarted group, got ${JSON.stringify(fresh)}`);
  return started(fresh[0][1]);
};
const ok = (r, what) => {
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
};
const results = { plain: [], workflow: [], home: [] };
try {
  ok(await upload(edge, "plain", { source: PLAIN("v0") }), "upload plain");
  ok(await upload(edge, "flow", { source: FLOW("v0"), bindings: FLOW_BINDINGS }), "upload flow");
  ok(await edge.call("PUT", "/workflows/flow", { script_name: "flow", class_name: "Flow" }), "workflow PUT");
  const base = edge.ready.api.replace("/client/v4", "");
  for (let r = 1; r <= ROUNDS; r++) {
    results.plain.push(
      await restarted(async () => ok(await upload(edge, "plain", { source: PLAIN(`v${r}`) }), "plain")),
    );
    results.workflow.push(
      await restarted(async () =>
        ok(await upload(edge, "flow", { source: FLOW(`v${r}`), bindings: FLOW_BINDINGS }), "redeploy flow"),
      ),
    );
    results.home.push(
      await restarted(async () => {
        const res = await fetch(`${base}/__edge/groups/home/restart`, {
          method: "POST",
          headers: { authorization: `Bearer ${edge.token}` },
        });
        if (res.status !== 200) throw new Error(`restart home: ${res.status} ${await res.text()}`);
      }),
    );
  }
} finally {
  await edge.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}

const fx = (x, d) => x.toFixed(d);
const spread = (xs, d) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${fx(s[Math.floor(s.length / 2)], d)} (min ${fx(s[0], d)}, max ${fx(s[s.length - 1], d)})`;
};
console.log(`group-start: ${ROUNDS} starts of each kind of group's workerd`);
for (const [kind, xs] of Object.entries(results)) {
  const cpus = xs.map((x) => x.cpu);
  const rss = xs.map((x) => x.rss);
  console.log(`  ${kind.padEnd(8)} CPU s ${spread(cpus, 2)}; RSS MiB ${spread(rss, 0)}`);
}
