// The edge's memory per idle group (issue 30 item 2): the resident memory of a group's workerd that runs one
// deployed worker with a 3-step Workflow and nothing else, and of the home group beside it. Run by hand from the
// repository root after `npm ci` in edge/:
//
//   node bench/edge/idle-group.mjs [--samples 5] [--dir /tmp]
//
// It starts a fresh edge, deploys the worker (upload + workflow PUT, as edgeflow deploys), runs one instance to
// completion (so that the Workflow's engine has been loaded once, as after any first run), and then reads GET
// /__edge/stats every 2 seconds SAMPLES times while nothing runs; it prints each group's RSS and PSS, the median of
// the samples, and the versions of miniflare and workerd in edge/node_modules.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { startEdge, deployDemo, waitStatus } from "../../edge/test/helpers.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => {
    if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith("--") ? all[i + 1] : "1"]);
    return acc;
  }, []),
);
const SAMPLES = Number(args.samples ?? 5);
const dir = fs.mkdtempSync(path.join(args.dir ?? os.tmpdir(), "edge-idle-bench-"));
const require = createRequire(new URL("../../edge/package.json", import.meta.url));
const version = (pkg) => JSON.parse(fs.readFileSync(require.resolve(`${pkg}/package.json`), "utf8")).version;
const mib = (b) => (b === null ? "—" : (b / 2 ** 20).toFixed(1));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const edge = await startEdge({ dataDir: dir });
try {
  await deployDemo(edge, "idle");
  const c = await edge.call("POST", "/workflows/idle/instances", { instance_id: "warm", params: { name: "x" } });
  if (c.status !== 200) throw new Error(`create: ${JSON.stringify(c.body)}`);
  await waitStatus(edge, "idle", "warm", "complete");
  const base = edge.ready.api.replace("/client/v4", "");
  const byGroup = new Map();
  for (let i = 0; i < SAMPLES; i++) {
    await new Promise((r) => setTimeout(r, 2000));
    const s = await (
      await fetch(`${base}/__edge/stats`, { headers: { authorization: `Bearer ${edge.token}` } })
    ).json();
    for (const g of s.workerd_groups) {
      const e = byGroup.get(g.group) ?? { workers: g.workers, rss: [], pss: [] };
      e.rss.push(g.rss);
      e.pss.push(g.pss);
      byGroup.set(g.group, e);
    }
  }
  console.log(
    `idle groups: miniflare ${version("miniflare")}, workerd ${version("workerd")}, node ${process.version}, load ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")}`,
  );
  for (const [g, e] of byGroup) {
    console.log(
      `  group ${g} (${e.workers} user worker${e.workers === 1 ? "" : "s"}): RSS median ${mib(median(e.rss))} MiB (${e.rss.map(mib).join(", ")}), PSS median ${mib(median(e.pss))} MiB`,
    );
  }
} finally {
  await edge.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
