// Bounded workerd (issue 39; docs/edge.md, "Bounded workerd"; decision 477): under a steady stream of Workflow
// instances a group's workerd keeps some deleted instances' SQLite databases open, so its file descriptors and memory
// grow with the runs it has done. The edge watches every group's workerd (its open descriptors in /proc/<pid>/fd,
// its file limit in /proc/<pid>/limits, its resident memory in /proc/<pid>/status) and, once one passes its bound,
// cycles that group's workerd as a deploy restarts a group (Runtime.cycle): requests wait, the group's log deliveries
// are flushed, workerd restarts, and the revive sweep has the instances that were running, waiting or sleeping go on
// from their last completed step.

import fs from "node:fs";

// CYCLING is off with EDGEFLOW_EDGE_CYCLE=off (the soak test and bench/edge/soak.mjs show the unbounded workerd).
export const CYCLING = process.env.EDGEFLOW_EDGE_CYCLE !== "off";
// FD_SHARE is the share of its file limit (the soft RLIMIT_NOFILE) past which a workerd is cycled.
const FD_SHARE =
  Number(process.env.EDGEFLOW_EDGE_CYCLE_FD_SHARE) > 0 ? Number(process.env.EDGEFLOW_EDGE_CYCLE_FD_SHARE) : 0.6;
// FD_MAX bounds the descriptors of a workerd whose file limit is high (EDGEFLOW_EDGE_CYCLE_FDS): some 4,000
// descriptors are a few thousand runs' worth of instances kept open.
const FD_MAX = Number(process.env.EDGEFLOW_EDGE_CYCLE_FDS) > 0 ? Number(process.env.EDGEFLOW_EDGE_CYCLE_FDS) : 4096;
// RSS_BYTES is the resident memory past which a workerd is cycled (EDGEFLOW_EDGE_CYCLE_RSS_MB, default 1024 MiB).
const RSS_BYTES =
  (Number(process.env.EDGEFLOW_EDGE_CYCLE_RSS_MB) > 0 ? Number(process.env.EDGEFLOW_EDGE_CYCLE_RSS_MB) : 1024) *
  1024 *
  1024;
// WATCH_MS is how often the workerds are looked at.
export const WATCH_MS =
  Number(process.env.EDGEFLOW_EDGE_CYCLE_WATCH_MS) > 0 ? Number(process.env.EDGEFLOW_EDGE_CYCLE_WATCH_MS) : 500;
// REGROW is how much a freshly cycled workerd must grow past what it started with (as a share of its bound) before it
// is cycled again: a workerd whose own baseline is already past a (too low) bound is not cycled in a loop.
const REGROW = 0.25;

// fdBound is the descriptors past which a workerd of usage u is cycled: FD_SHARE of its file limit, at most FD_MAX.
function fdBound(u) {
  return Math.min(FD_MAX, u.nofile ? Math.floor(u.nofile * FD_SHARE) : FD_MAX);
}

// processUsage reads a process's open descriptors, soft file limit and resident memory (bytes) from /proc; null when
// the process is gone or there is no /proc.
export function processUsage(pid) {
  try {
    const fds = fs.readdirSync(`/proc/${pid}/fd`).length;
    const lim = /^Max open files\s+(\d+|unlimited)/m.exec(fs.readFileSync(`/proc/${pid}/limits`, "utf8"));
    const nofile = lim && lim[1] !== "unlimited" ? Number(lim[1]) : null;
    const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
    return { fds, nofile, rss };
  } catch {
    return null;
  }
}

// died reports whether the workerd of pid is gone (killed, or crashed): no /proc entry, or a zombie. It is false
// where there is no /proc.
export function died(pid) {
  if (!fs.existsSync("/proc/self/stat")) return false;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return /^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    return true;
  }
}

// Bounds watches the groups' workerds of a runtime and cycles one that passes its bound.
export class Bounds {
  constructor({ runtime, logger }) {
    this.runtime = runtime;
    this.logger = logger;
    this.timer = null;
    this.busy = false;
    this.cycles = 0; // workerd cycles since the edge started
    this.byReason = { fds: 0, rss: 0, died: 0 };
    this.last = null; // {group, reason, at}
    this.baseline = new Map(); // pid -> {fds, rss} the first time a workerd was seen
    this.roomy = new Map(); // group id -> whether its workerd was within half its bounds when last looked at
  }

  // hasRoom tells whether group gid's workerd was within half of its bounds of descriptors and memory when last
  // looked at (false when it was not looked at yet, or where there is no /proc): finished instances may then wait a
  // little before they are archived (api/archive.mjs).
  hasRoom(gid) {
    return this.roomy.get(gid) === true;
  }

  // start watches the workerds: for their bounds unless EDGEFLOW_EDGE_CYCLE=off, and always for one that died (a
  // killed shard or group restarts and its instances go on, decision 705).
  start() {
    if (!fs.existsSync("/proc/self/fd")) return;
    this.timer = setInterval(() => this.check(), WATCH_MS);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
  }

  // over answers why the workerd of pid must be cycled ({kind, text}), or null while it is within its bounds.
  over(pid, u = processUsage(pid)) {
    if (!u) return null;
    let base = this.baseline.get(pid);
    if (!base) {
      base = { fds: u.fds, rss: u.rss };
      this.baseline.set(pid, base);
    }
    const bound = fdBound(u);
    if (u.fds > bound && u.fds - base.fds > bound * REGROW) {
      return {
        kind: "fds",
        text: `${u.fds} open files, past its bound of ${bound} (${Math.round(FD_SHARE * 100)}% of its limit of ${u.nofile ?? "unlimited"}, at most ${FD_MAX})`,
      };
    }
    if (u.rss > RSS_BYTES && u.rss - base.rss > RSS_BYTES * REGROW) {
      return {
        kind: "rss",
        text: `resident memory ${Math.round(u.rss / 1048576)} MiB, past ${Math.round(RSS_BYTES / 1048576)} MiB`,
      };
    }
    return null;
  }

  // check looks at every group's workerd once and cycles those past their bound (one check at a time).
  async check() {
    if (this.busy || this.runtime.closed) return;
    this.busy = true;
    try {
      const live = new Set();
      const seen = new Set();
      for (const { group, pid } of this.runtime.workerdPids()) {
        live.add(pid);
        seen.add(group);
        const u = processUsage(pid);
        this.roomy.set(group, u !== null && u.fds <= fdBound(u) / 2 && u.rss <= RSS_BYTES / 2);
        const why = died(pid) ? { kind: "died", text: "its workerd died" } : CYCLING ? this.over(pid, u) : null;
        if (!why) continue;
        // a workerd that died is restarted only if it is still the group's (a restart may have replaced it)
        const done = await this.runtime
          .cycle(group, `${why.text}`, why.kind === "died" ? pid : undefined)
          .catch((err) => {
            this.logger(`cycling workerd group ${group} failed: ${err.message}`);
            return false;
          });
        if (done) {
          this.cycles++;
          this.byReason[why.kind]++;
          this.last = { group, reason: why.kind, at: new Date().toISOString() };
        }
      }
      for (const pid of this.baseline.keys()) if (!live.has(pid)) this.baseline.delete(pid);
      for (const group of this.roomy.keys()) if (!seen.has(group)) this.roomy.delete(group);
    } finally {
      this.busy = false;
    }
  }

  // stats is what /__edge/stats reports.
  stats() {
    return {
      enabled: this.timer !== null && CYCLING,
      cycles: this.cycles,
      by_reason: { ...this.byReason },
      last: this.last,
    };
  }
}
