// How many shards (workerd processes) each Workflow runs in (docs/edge.md, "Shards"; decision 704). plan.mjs turns
// the count into shard groups and runtime.mjs routes each instance to its shard; this module only decides the count.
//
// EDGEFLOW_EDGE_SHARDS=<n> fixes it at n for every Workflow. Otherwise a Workflow starts on one shard and grows to
// EDGEFLOW_EDGE_SHARD_MAX shards (default the CPUs this process may run on, 1 on a one-core machine; decisions 704,
// 777) once it is busy: EDGEFLOW_EDGE_SHARD_GROW creates within one window of EDGEFLOW_EDGE_SHARD_WINDOW_MS, or
// its shard 0's workerd using more than SHARD_CPU of a core over a watch period. It shrinks again once it has had no
// create for EDGEFLOW_EDGE_SHARD_IDLE_MS, down to the highest shard that still holds an instance (one whose engine
// copy is not deleted): a shard that holds no instance is stopped. A Workflow whose instances are in more shards than
// its count (the count was lowered across a restart) keeps those shards until they empty.

import fs from "node:fs";
import os from "node:os";

const int = (name, def) => (Number(process.env[name]) > 0 ? Math.floor(Number(process.env[name])) : def);

// CPUS is how many cores this process may use (its CPU affinity).
export const CPUS = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
// SHARD_MAX is the most shards a busy Workflow grows to: the cores the edge may use (decision 777).
export const SHARD_MAX = int("EDGEFLOW_EDGE_SHARD_MAX", CPUS);
export const SHARD_GROW = int("EDGEFLOW_EDGE_SHARD_GROW", 200);
export const SHARD_WINDOW_MS = int("EDGEFLOW_EDGE_SHARD_WINDOW_MS", 10000);
export const SHARD_IDLE_MS = int("EDGEFLOW_EDGE_SHARD_IDLE_MS", 60000);
// SHARD_CPU is the share of one core past which a Workflow's shard 0 is busy.
export const SHARD_CPU = 0.8;

// ShardPolicy holds each Workflow's shard count. onChange() is called (at most once per call that changes counts)
// when a count changed, for the runtime to bring the groups to it.
export class ShardPolicy {
  constructor({
    forced = null,
    max = SHARD_MAX,
    grow = SHARD_GROW,
    windowMs = SHARD_WINDOW_MS,
    idleMs = SHARD_IDLE_MS,
    onChange = () => {},
    now = Date.now,
  } = {}) {
    this.forced = forced;
    this.max = forced ?? max;
    this.grow = grow;
    this.windowMs = windowMs;
    this.idleMs = idleMs;
    this.onChange = onChange;
    this.now = now;
    this.want = new Map(); // Workflow runtime name -> shard count, for those above 1
    this.windows = new Map(); // Workflow runtime name -> {start, n, last}: creates in the current window
    this.cpu = new Map(); // pid -> {ticks, at}: a workerd's CPU time at the last watch
    this.grown = 0; // how many times a Workflow grew (GET /__edge/stats)
    this.shrunk = 0;
    this.checks = 0; // shrink checks of idle Workflows
  }

  // count is Workflow rt's shard count.
  count(rt) {
    return Math.max(this.forced ?? 1, this.want.get(rt) ?? 1);
  }

  // created counts n creates of Workflow rt; a Workflow past the threshold within its window grows.
  created(rt, n) {
    const t = this.now();
    let w = this.windows.get(rt);
    if (!w || t - w.start >= this.windowMs) this.windows.set(rt, (w = { start: t, n: 0, last: t }));
    w.n += n;
    w.last = t;
    if (w.n >= this.grow) this.#growTo(rt, this.max);
  }

  // touch makes Workflow rt count as busy now (it just grew, or its new shards just started).
  touch(rt) {
    const w = this.windows.get(rt);
    if (w) w.last = this.now();
    else this.windows.set(rt, { start: this.now(), n: 0, last: this.now() });
  }

  // busy notes that Workflow rt's shard 0 used share of a core (see cpuShare): past SHARD_CPU it grows.
  busy(rt, share) {
    if (share >= SHARD_CPU) this.#growTo(rt, this.max);
  }

  #growTo(rt, n) {
    if (this.forced !== null || this.count(rt) >= n) return;
    this.want.set(rt, n);
    this.touch(rt);
    this.grown++;
    this.onChange();
  }

  // floor keeps Workflow rt on at least the shards that hold its instances (held: the highest such shard), whatever
  // its count says: an instance never loses its shard.
  floor(rt, held) {
    if (held + 1 > this.count(rt)) this.want.set(rt, held + 1);
  }

  // idle answers the grown Workflows that had no create for idleMs.
  idle() {
    const t = this.now();
    return [...this.want.keys()].filter((rt) => t - (this.windows.get(rt)?.last ?? 0) >= this.idleMs);
  }

  // shrink sets idle Workflow rt's count to the shards that still hold instances (held: the highest shard that
  // holds one, -1 for none) and answers whether it changed.
  shrink(rt, held) {
    this.checks++;
    const n = Math.max(this.forced ?? 1, held + 1);
    if (n >= this.count(rt)) return false;
    if (n === (this.forced ?? 1)) this.want.delete(rt);
    else this.want.set(rt, n);
    this.shrunk++;
    return true;
  }

  // cpuShare answers the share of one core workerd pid used since the last call for it (null the first time, or
  // without /proc).
  cpuShare(pid) {
    let ticks;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks = Number(f[11]) + Number(f[12]); // utime, stime (fields 14 and 15)
    } catch {
      return null;
    }
    const at = this.now();
    const last = this.cpu.get(pid);
    this.cpu.set(pid, { ticks, at });
    if (!last || at <= last.at) return null;
    return (ticks - last.ticks) / CLOCK_TICKS / ((at - last.at) / 1000);
  }

  // stats is what /__edge/stats reports.
  stats() {
    return {
      forced: this.forced,
      max: this.max,
      grow_creates: this.grow,
      window_ms: this.windowMs,
      idle_ms: this.idleMs,
      grown: this.grown,
      shrunk: this.shrunk,
      shrink_checks: this.checks,
      idle: this.idle(),
      workflows: Object.fromEntries(this.want),
    };
  }
}

// CLOCK_TICKS is the kernel's clock ticks per second (USER_HZ), 100 on Linux.
const CLOCK_TICKS = 100;
