// The local edge's long run (issue 39; docs/edge.md, "Finished instances are archived"): one Workflow of one step
// runs N instances (default 200,000) through the edge's REST API, in waves of --wave created with one batch call
// each, at most --inflight instances not yet complete. Every --every seconds it samples, from /proc, the resident
// memory and open file descriptors of the edge (Node) and of the workflow's group workerd (the one with the most
// descriptors), the instances created, complete and archived, and the runs per second since the last sample.
// Run by hand from the repository root after `npm ci` in edge/:
//
//   node bench/edge/soak.mjs [--runs 200000] [--wave 40] [--inflight 200] [--every 10] [--out /tmp/edge-soak]
//        [--nofile N]   (workerd's open-file limit, DATA/workerd.nofile)   [--archive off] [--cycle off]   (the old
//        behaviour: no archive, no cycling of a workerd past its bound, bounds.mjs)   [--heap]   (also the edge's live
//        heap after a forced full collection, read through the inspector the edge opens on SIGUSR1, 127.0.0.1:9229)
//
// It writes OUT/samples.csv and OUT/summary.json and prints each sample; it stops early (summary says why) when no
// instance completes for 120 s.

import fs from "node:fs";
import path from "node:path";
import { startEdge, tempDir, upload } from "../../edge/test/helpers.mjs";

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => {
    if (a.startsWith("--")) acc.push([a.slice(2), all[i + 1] && !all[i + 1].startsWith("--") ? all[i + 1] : "1"]);
    return acc;
  }, []),
);
const RUNS = Number(args.runs ?? 200000);
const WAVE = Number(args.wave ?? 40);
const INFLIGHT = Number(args.inflight ?? 200);
const EVERY = Number(args.every ?? 10) * 1000;
const OUT = args.out ?? "/tmp/edge-soak";

const ONE_STEP = `
import { WorkflowEntrypoint } from "cloudflare:workers";
export class OneStep extends WorkflowEntrypoint {
  async run(event, step) { return await step.do("only", async () => ({ n: event.payload.n ?? 0 })); }
}
export default { fetch() { return new Response("ok"); } };
`;

function proc(pid) {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))[1]);
    return { rss, fds: fs.readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return { rss: null, fds: null };
  }
}

// Inspector is a connection to the edge's inspector, opened by SIGUSR1 (Node listens on 127.0.0.1:9229 then).
class Inspector {
  static async open(pid) {
    process.kill(pid, "SIGUSR1");
    for (let i = 0; ; i++) {
      try {
        const [target] = await (await fetch("http://127.0.0.1:9229/json/list")).json();
        const ws = new WebSocket(target.webSocketDebuggerUrl);
        await new Promise((resolve, reject) => {
          ws.onopen = resolve;
          ws.onerror = reject;
        });
        return new Inspector(ws);
      } catch (err) {
        if (i === 50) throw new Error(`the edge's inspector did not open: ${err.message}`, { cause: err });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  constructor(ws) {
    this.ws = ws;
    this.next = 1;
    this.waiting = new Map();
    ws.onmessage = (m) => {
      const msg = JSON.parse(m.data);
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if (msg.error) w.reject(new Error(msg.error.message));
      else w.resolve(msg.result);
    };
  }

  call(method, params = {}) {
    const id = this.next++;
    this.ws.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  // liveHeap forces a full collection and answers the heap in use after it and the heap V8 holds from the system
  // (MiB).
  async liveHeap() {
    await this.call("HeapProfiler.collectGarbage");
    const { usedSize, totalSize } = await this.call("Runtime.getHeapUsage");
    const mib = (n) => Math.round((n / 1048576) * 10) / 10;
    return { used: mib(usedSize), total: mib(totalSize) };
  }

  close() {
    this.ws.close();
  }
}

fs.mkdirSync(OUT, { recursive: true });
const dataDir = tempDir();
if (args.nofile) fs.writeFileSync(path.join(dataDir, "workerd.nofile"), String(args.nofile));
const env = {
  ...(args.archive === "off" ? { EDGEFLOW_EDGE_ARCHIVE: "off" } : {}),
  ...(args.cycle === "off" ? { EDGEFLOW_EDGE_CYCLE: "off" } : {}),
};
const edge = await startEdge({ dataDir, env });
const root = edge.ready.api.replace("/client/v4", "");
const stats = async () =>
  (await fetch(`${root}/__edge/stats`, { headers: { authorization: `Bearer ${edge.token}` } })).json();
const up = await upload(edge, "soak", {
  source: ONE_STEP,
  bindings: [{ type: "workflow", name: "WF", workflow_name: "soak", class_name: "OneStep" }],
});
if (up.status !== 200) throw new Error(`upload: ${JSON.stringify(up.body)}`);
await edge.call("PUT", "/workflows/soak", { script_name: "soak", class_name: "OneStep" });

const csv = fs.createWriteStream(path.join(OUT, "samples.csv"));
const inspector = args.heap ? await Inspector.open(edge.proc.pid) : null;
csv.write(
  "seconds,created,complete,archived,runs_per_s,edge_rss_kib,edge_fds,edge_heap_mib,edge_heap_total_mib,workerd_rss_kib,workerd_fds,cycles\n",
);
const start = Date.now();
const samples = [];
let created = 0;
let complete = 0;
let lastComplete = 0;
let lastProgress = Date.now();
let stop = null;

async function countComplete() {
  const l = await edge.call("GET", "/workflows/soak/instances?status=complete&per_page=1");
  return l.body.result_info?.total_count ?? complete;
}

async function sampleNow(prev) {
  const st = await stats();
  const g = st.workerd_groups
    .map((x) => ({ pid: x.pid, ...proc(x.pid) }))
    .sort((a, b) => (b.fds ?? 0) - (a.fds ?? 0))[0];
  const e = proc(edge.proc.pid);
  const t = (Date.now() - start) / 1000;
  const s = {
    seconds: Math.round(t),
    created,
    complete,
    archived: st.archived_instances,
    runs_per_s: prev ? Math.round(((complete - prev.complete) / (t - prev.seconds)) * 10) / 10 : 0,
    edge_rss_kib: e.rss,
    edge_fds: e.fds,
    ...(await (async () => {
      const h = inspector ? await inspector.liveHeap() : null;
      return { edge_heap_mib: h?.used ?? null, edge_heap_total_mib: h?.total ?? null };
    })()),
    workerd_rss_kib: g?.rss,
    workerd_fds: g?.fds,
    cycles: st.workerd_cycles?.cycles ?? 0,
  };
  csv.write(Object.values(s).join(",") + "\n");
  console.log(JSON.stringify(s));
  return s;
}

let next = Date.now() + EVERY;
samples.push(await sampleNow(null));
while (complete < RUNS && !stop) {
  if (created < RUNS && created - complete < INFLIGHT) {
    const n = Math.min(WAVE, RUNS - created);
    const r = await edge.call("POST", "/workflows/soak/instances/batch", { count: n, params: { n: created } });
    if (r.status !== 200) {
      stop = `create answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`;
      break;
    }
    created += r.body.result.created.length;
  } else {
    await new Promise((res) => setTimeout(res, 200));
  }
  complete = await countComplete();
  if (complete > lastComplete) {
    lastComplete = complete;
    lastProgress = Date.now();
  } else if (Date.now() - lastProgress > 120000) {
    stop = `no instance completed for 120 s at ${complete} complete of ${created} created`;
  }
  if (Date.now() >= next) {
    samples.push(await sampleNow(samples.at(-1)));
    next += EVERY;
  }
}
samples.push(await sampleNow(samples.at(-1)));
csv.end();
const seconds = (Date.now() - start) / 1000;
const pick = (k) => samples.map((s) => s[k]).filter((v) => typeof v === "number");
const summary = {
  runs: RUNS,
  created,
  complete,
  seconds: Math.round(seconds),
  runs_per_s: Math.round((complete / seconds) * 10) / 10,
  stopped: stop,
  wave: WAVE,
  inflight: INFLIGHT,
  nofile: args.nofile ?? null,
  archive: args.archive !== "off",
  cycling: args.cycle !== "off",
  cycles: samples.at(-1).cycles,
  edge_rss_kib: {
    first: pick("edge_rss_kib")[1] ?? null,
    last: pick("edge_rss_kib").at(-1),
    max: Math.max(...pick("edge_rss_kib")),
  },
  edge_fds: { first: pick("edge_fds")[1] ?? null, last: pick("edge_fds").at(-1), max: Math.max(...pick("edge_fds")) },
  edge_heap_mib: inspector
    ? {
        first: pick("edge_heap_mib")[1] ?? null,
        last: pick("edge_heap_mib").at(-1),
        max: Math.max(...pick("edge_heap_mib")),
      }
    : null,
  workerd_rss_kib: {
    first: pick("workerd_rss_kib")[1] ?? null,
    last: pick("workerd_rss_kib").at(-1),
    max: Math.max(...pick("workerd_rss_kib")),
  },
  workerd_fds: {
    first: pick("workerd_fds")[1] ?? null,
    last: pick("workerd_fds").at(-1),
    max: Math.max(...pick("workerd_fds")),
  },
};
fs.writeFileSync(path.join(OUT, "summary.json"), JSON.stringify(summary, null, 2) + "\n");
console.log(JSON.stringify(summary));
inspector?.close();
await edge.stop();
