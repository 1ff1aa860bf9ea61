// The gates in front of workerd. workerd's entry socket (miniflare's router) routes by the MF-Route-Override header
// to any worker by name, or to the first worker of the list when there is none. It is a Unix socket in the edge's
// 0700 run directory (entry.mjs), so no other user's process can connect to it; behind it, in depth:
//
//   - the first worker (the default route) is REFUSER_WORKER, which answers 404 to everything;
//   - the control worker, bound to every KV namespace, D1 database, R2 bucket and Workflow, answers only requests
//     carrying GATE_HEADER with this boot's secret, which only the edge's Node process knows (it is a binding of
//     the control worker alone; user workers never see it);
//   - worker code cannot reach the edge's sockets at all: its outbound requests go through the outbound guard
//     (outbound.mjs), which refuses loopback addresses and has no way to a Unix socket.

import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";

export const REFUSER_WORKER = "__edgeflow_refuser";
export const GATE_HEADER = "x-edgeflow-gate";

export const REFUSER_SOURCE = `
export default {
  fetch() {
    return new Response("Not found\\n", { status: 404, headers: { "content-type": "text/plain" } });
  },
};
`;

// newGateSecret returns a fresh secret for one run of the edge.
export function newGateSecret() {
  return randomBytes(32).toString("base64url");
}

// LoopbackGate closes miniflare's loopback server (the HTTP server in this process that workerd calls for
// logs, workflow storage listings and deletions, and the outbound guard) to every client but our workerd.
// Miniflare gives it no credentials, so each new connection is traced to its process through /proc: the client
// end's socket inode (in /proc/net/tcp) must be one of workerd's file descriptors. Worker code cannot open a
// connection to it at all (the outbound guard refuses loopback), so what remains to refuse is other processes.
export class LoopbackGate {
  constructor({ workerdPids, logger }) {
    this.workerdPids = workerdPids; // () => pids of this process's workerds (the main one and the D1 hosts')
    this.logger = logger;
    this.servers = new Set();
    this.refused = 0;
    this.listenGuarded = false; // whether new HTTP servers are watched from their listen (#guardListen)
    this.checked = 0; // connections traced (each costs a read of /proc/net/tcp and of workerd's descriptors)
    this.lastPid = null; // the workerd that held the last connection traced to one (#fromWorkerd)
  }

  // attach finds the loopback server among this process's listening HTTP servers (all but `own`) and checks
  // every connection it accepts from now on; from then on, every HTTP server of this process but `own` is checked
  // from the moment it starts listening (a new group's or D1 host's Miniflare opens its loopback server before the
  // edge learns that its workerd started: without this, a local process could connect in between). It answers
  // false where /proc is missing (not Linux).
  attach(own) {
    if (!fs.existsSync("/proc/net/tcp")) return false;
    this.#guardListen(own);
    for (const h of this.servers) if (!h.listening) this.servers.delete(h); // a stopped D1 host's
    for (const h of process._getActiveHandles?.() ?? []) {
      if (!(h instanceof http.Server) || h === own || !h.listening) continue;
      this.#watch(h);
    }
    return this.servers.size > 0;
  }

  // #watch checks every connection server h accepts from now on (once per server).
  #watch(h) {
    if (this.servers.has(h)) return;
    this.servers.add(h);
    h.prependListener("connection", (socket) => {
      this.checked++;
      if (!this.#fromWorkerd(socket)) {
        this.refused++;
        socket.destroy();
      }
    });
  }

  // #guardListen makes every HTTP server of this process but own watched before it listens (installed once).
  #guardListen(own) {
    if (this.listenGuarded) return;
    this.listenGuarded = true;
    const listen = http.Server.prototype.listen;
    const gate = this;
    http.Server.prototype.listen = function (...args) {
      if (this !== own) gate.#watch(this);
      return listen.apply(this, args);
    };
  }

  // #fromWorkerd looks for the client's socket among the descriptors of the workerd that held the last one first:
  // an edge with many groups has many workerds, and reading every descriptor of each in turn was a third of the
  // gate's CPU in an end-to-end run (decision 783).
  #fromWorkerd(socket) {
    const inode = clientInode(socket.remoteAddress, socket.remotePort, socket.localAddress, socket.localPort);
    if (inode === null) return false;
    const pids = this.workerdPids();
    const last = pids.indexOf(this.lastPid);
    if (last > 0) pids.unshift(...pids.splice(last, 1));
    const pid = pids.find((p) => holdsSocket(p, inode));
    if (pid === undefined) return false;
    this.lastPid = pid;
    return true;
  }
}

// holdsSocket reports whether process pid has the socket with this inode among its file descriptors.
function holdsSocket(pid, inode) {
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      try {
        if (fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`) return true;
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return false;
  }
  return false;
}

// childWorkerds lists the pids of this process's children that run workerd (empty where /proc is missing).
export function childWorkerds() {
  const out = [];
  try {
    const kids = fs.readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(/\s+/);
    for (const k of kids) {
      if (k === "") continue;
      try {
        if (fs.readFileSync(`/proc/${k}/cmdline`, "utf8").includes("workerd")) out.push(Number(k));
      } catch {
        // gone meanwhile
      }
    }
  } catch {
    // not Linux
  }
  return out;
}

// tcpListeners lists the TCP ports (IPv4 and IPv6) process pid listens on: its socket inodes in /proc/PID/fd
// looked up among the listening sockets of /proc/net/tcp{,6}. It answers null where /proc is missing (not Linux).
// Its Unix sockets are set aside first (/proc/net/unix): a read of /proc/net/tcp or tcp6 walks the kernel's whole
// TCP hash tables (some 5 ms of CPU each, however few sockets there are), and a workerd that was just started holds
// Unix sockets only, so the TCP tables are read only for a socket that is not a Unix one (decision 780).
export function tcpListeners(pid) {
  if (!fs.existsSync("/proc/net/tcp")) return null;
  const inodes = new Set();
  try {
    for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]);
      } catch {
        // closed meanwhile
      }
    }
  } catch {
    return []; // the process is gone
  }
  dropUnixSockets(inodes);
  if (inodes.size === 0) return [];
  const ports = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue; // no IPv6
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === "0A" && inodes.has(f[9])) ports.push(parseInt(f[1].split(":").pop(), 16));
    }
  }
  return ports;
}

// dropUnixSockets removes from inodes (a Set of socket inode strings) those of Unix sockets, the inode being the
// seventh field of each line of /proc/net/unix. Without that file it removes none.
function dropUnixSockets(inodes) {
  let text;
  try {
    text = fs.readFileSync("/proc/net/unix", "utf8");
  } catch {
    return;
  }
  for (const line of text.split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length > 6) inodes.delete(f[6]);
  }
}

// clientInode finds the socket inode of the client end of a loopback TCP connection in /proc/net/tcp{,6}.
function clientInode(remoteAddress, remotePort, localAddress, localPort) {
  const v4 = (addr) => {
    const m = /^(?:::ffff:)?(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(addr ?? "");
    if (!m) return null;
    return [m[4], m[3], m[2], m[1]]
      .map((x) => Number(x).toString(16).padStart(2, "0"))
      .join("")
      .toUpperCase();
  };
  const hexPort = (p) => p.toString(16).toUpperCase().padStart(4, "0");
  const ra = v4(remoteAddress);
  const la = v4(localAddress);
  if (ra === null || la === null) return null;
  const want = `${ra}:${hexPort(remotePort)}`;
  const peer = `${la}:${hexPort(localPort)}`;
  // The file is read a chunk at a time and no further than the connection's line: the kernel builds it as it is read,
  // walking its TCP hash tables, and stopping there spares about half of the 5 ms of CPU a whole read costs.
  const fd = fs.openSync("/proc/net/tcp", "r");
  try {
    const buf = Buffer.allocUnsafe(16384);
    let rest = "";
    for (;;) {
      const n = fs.readSync(fd, buf, 0, buf.length, null);
      const lines = (rest + buf.toString("latin1", 0, n)).split("\n");
      rest = n === 0 ? "" : lines.pop();
      for (const line of lines) {
        const f = line.trim().split(/\s+/);
        if (f[1] === want && f[2] === peer) return f[9];
      }
      if (n === 0) return null;
    }
  } finally {
    fs.closeSync(fd);
  }
}
