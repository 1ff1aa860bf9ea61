// workerd's entry socket on a Unix socket. miniflare's router (the entry worker) serves its local explorer (every
// Workflow instance's params and step outputs, every KV value and R2 object), any worker by MF-Route-Override, and
// the scheduled handler, checking nothing but the Host header; on a loopback TCP port any local process could use
// it. So workerd gets no TCP listener at all: miniflare starts workerd through MINIFLARE_WORKERD_PATH, which points
// at a wrapper the edge writes (DATA/workerd.sh), and passes the entry socket's address on workerd's command line
// (`--socket-addr=entry=127.0.0.1:0`). The wrapper replaces that one argument with a Unix socket in the edge's run
// directory (mode 0700, so only the edge's user can connect), refuses any other listening address on the command
// line, prints the socket's path and workerd's pid on stdout (the Miniflare instance that started it reads that
// line, so each group learns its own socket without races between groups starting together), and, where setpriv
// exists, gives workerd a parent-death signal. The edge talks to each workerd over its socket (EntrySocket) and,
// after each start, checks that workerd listens on no TCP port (docs/edge.md, "Isolation"; decision 310). Where no
// parent-death signal is available, stopOrphan stops the workerds a killed edge left running.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

// undici is the HTTP client miniflare itself depends on (its exact version); we take miniflare's copy.
const undici = createRequire(createRequire(import.meta.url).resolve("miniflare"))("undici");

// REPORT starts the line the wrapper prints on workerd's stdout: `edgeflow-entry <pid> <socket path>`.
export const REPORT = "edgeflow-entry";

// The longest socket path the system takes, without its closing NUL: sun_path is 108 bytes on Linux, 104 on macOS
// and the BSDs.
export const SOCKET_PATH_MAX = process.platform === "linux" ? 107 : 103;

// LONGEST_NAME is the longest name the wrapper gives a socket: `w<pid>.sock`, pids of up to 7 digits (Linux's
// pid_max is at most 4194304).
const LONGEST_NAME = "w9999999.sock";

// workerd as the edge would start it without a wrapper: the binary of the workerd package miniflare depends on,
// or the one MINIFLARE_WORKERD_PATH named before the edge set it (read once, when this module loads).
const givenWorkerd = process.env.MINIFLARE_WORKERD_PATH || null;

function defaultWorkerd() {
  if (givenWorkerd) return givenWorkerd;
  const require = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  return require("workerd").default;
}

// RunDir is the directory of workerd's entry sockets: DATA/run, or, when a socket path there would pass the
// system's limit, a fresh directory under the temporary directory (its path kept in DATA/run-dir, so that the
// next edge removes what a killed one left). It is the edge's user's alone (mode 0700).
export class RunDir {
  constructor(dir, temporary) {
    this.dir = dir;
    this.temporary = temporary;
  }

  // open makes (or takes over) the run directory of data dir dataDir. It throws, saying what to do, when no
  // directory keeps socket paths within the limit.
  static open(dataDir, { tmpdir = os.tmpdir() } = {}) {
    const record = path.join(dataDir, "run-dir");
    removeRecorded(record, tmpdir);
    const inData = path.join(dataDir, "run");
    if (fits(inData)) {
      fs.mkdirSync(inData, { recursive: true, mode: 0o700 });
      const d = new RunDir(checkOwn(inData), false);
      d.clear();
      return d;
    }
    // mkdtemp makes a new directory of mode 0700 under a name nobody else chose
    const tmp = fs.mkdtempSync(path.join(tmpdir, "edgeflow-"));
    if (!fits(tmp)) {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw new Error(
        `cannot place workerd's entry sockets: ${path.join(inData, LONGEST_NAME)} and ${path.join(tmp, LONGEST_NAME)} ` +
          `are longer than the ${SOCKET_PATH_MAX} bytes a Unix socket path may have; use a shorter --data-dir or TMPDIR`,
      );
    }
    fs.writeFileSync(record, `${tmp}\n`, { mode: 0o600 });
    return new RunDir(checkOwn(tmp), true);
  }

  // clear removes the socket files left in the directory (by workerds of an earlier run, all stopped by now).
  clear() {
    for (const name of fs.readdirSync(this.dir)) {
      if (name.endsWith(".sock")) fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }

  // close removes the sockets, and the directory itself when it is a temporary one.
  close(dataDir) {
    if (this.temporary) {
      fs.rmSync(this.dir, { recursive: true, force: true });
      fs.rmSync(path.join(dataDir, "run-dir"), { force: true });
      return;
    }
    try {
      this.clear();
    } catch {
      // gone already
    }
  }
}

function fits(dir) {
  return Buffer.byteLength(path.join(dir, LONGEST_NAME)) <= SOCKET_PATH_MAX;
}

// checkOwn confirms that dir is a directory (not a link) of this user and makes it 0700.
function checkOwn(dir) {
  const st = fs.lstatSync(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
    throw new Error(
      `${dir} belongs to another user (uid ${st.uid}); workerd's sockets must be in a directory of the edge's user`,
    );
  }
  fs.chmodSync(dir, 0o700);
  return dir;
}

// removeRecorded removes the temporary run directory an earlier edge on this data dir recorded (a killed edge
// leaves it behind), when it still is one of ours.
function removeRecorded(record, tmpdir) {
  let dir;
  try {
    dir = fs.readFileSync(record, "utf8").trim();
  } catch {
    return;
  }
  fs.rmSync(record, { force: true });
  if (path.dirname(dir) !== path.resolve(tmpdir) || !path.basename(dir).startsWith("edgeflow-")) return;
  try {
    const st = fs.lstatSync(dir);
    if (st.isDirectory() && (typeof process.getuid !== "function" || st.uid === process.getuid()))
      fs.rmSync(dir, { recursive: true, force: true });
  } catch {
    // gone already
  }
}

// wrapperText is the wrapper script: it puts the entry socket in runDir, refuses a missing entry address and any
// other listening address, reports the socket and execs workerd (through setpriv's parent-death signal when
// setpriv is given). exec keeps the shell's pid, so `$$` is workerd's pid and miniflare's SIGKILL reaches workerd.
// workerd's standard output reaches miniflare through a FIFO in runDir and a grep that leaves out its JavaScript
// console records (CONSOLE_RECORD); the grep ends when workerd does (end of file).
//
// When the file nofile (DATA/workerd.nofile) holds a number, workerd starts with that limit of open files (ulimit
// -n): a lever for tests and for operators who want a workerd to meet its limit early (docs/operations.md).
export function wrapperText({ runDir, workerd, setpriv, nofile = null, mkfifo = "mkfifo", grep = "grep" }) {
  const q = (s) => `'${s.replaceAll("'", `'\\''`)}'`;
  const run = setpriv ? `${q(setpriv)} --pdeathsig KILL -- ${q(workerd)}` : q(workerd);
  return `#!/bin/sh
# Written by the edge (src/entry.mjs): workerd's entry socket on a Unix socket in the edge's run directory, no
# other listening address${setpriv ? ", and workerd dies with the edge (parent-death signal)" : ""}.
dir=${q(runDir)}
sock=
n=$#
i=0
while [ "$i" -lt "$n" ]; do
  a=$1
  shift
  i=$((i + 1))
  case $a in
    --socket-addr=entry=*)
      if [ -n "$sock" ]; then
        echo "edgeflow: workerd was given two entry addresses; refusing to start it" >&2
        exit 2
      fi
      sock="$dir/w$$.sock"
      a="--socket-addr=entry=unix:$sock"
      ;;
    --socket-addr*|--socket-fd*|--inspector-addr*|--debug-port*|-s|-i)
      echo "edgeflow: workerd was given a listening address the edge does not place ($a); refusing to start it" >&2
      exit 2
      ;;
  esac
  set -- "$@" "$a"
done
if [ -z "$sock" ]; then
  echo "edgeflow: workerd was started without --socket-addr=entry=...; refusing to start it with its entry socket on TCP" >&2
  exit 2
fi
rm -f "$sock"
${
  nofile
    ? `limit=$(cat ${q(nofile)} 2>/dev/null)
case $limit in
  ''|*[!0-9]*) ;;
  *) ulimit -n "$limit" || exit 2 ;;
esac
`
    : ""
}echo "${REPORT} $$ $sock"
# workerd's standard output through a filter (grep) that leaves out the JavaScript console records
out="$dir/w$$.out"
rm -f "$out"
${q(mkfifo)} -m 600 "$out" || exit 2
( exec 3<"$out"; rm -f "$out"; exec ${q(grep)} --line-buffered -v ${q(CONSOLE_RECORD)} <&3 ) &
exec ${run} "$@" >"$out"
`;
}

// CONSOLE_RECORD matches the start of the structured log records workerd writes for JavaScript's console
// (console.log, .error, …): {"timestamp":<number>,"level":…,"message":…}. workerd's own records (its errors, an
// uncaught exception, a refused connection) carry the time as a string and their source: {"timestamp":"<number>",
// "level":…,"source":"workerd/…",…}. The wrapper keeps console records out of the stream miniflare reads, so that
// what user code prints reaches the edge only through its log store (logs.mjs, the log tail worker): not the edge's
// own log, where any tenant's console.log would land in the operator's log, and not the health classification
// (health.mjs), where a console.log("SQLITE_CANTOPEN") would mark a group failing and the edge not ready (decision
// 804).
export const CONSOLE_RECORD = '^{"timestamp":[0-9]';

// writeWrapper writes DATA/workerd.sh for run directory runDir and points miniflare at it. The wrapper is needed
// on every system (it places the entry socket); where setpriv(1) from util-linux is missing (not Linux), workerd
// gets no parent-death signal and a later edge stops an orphan through workerd.pid.
export function writeWrapper(dataDir, runDir, logger) {
  let setpriv = process.platform === "linux" ? commandPath("setpriv") : null;
  if (setpriv) {
    try {
      execFileSync(setpriv, ["--pdeathsig", "KILL", "--", "true"]);
    } catch {
      setpriv = null;
    }
  }
  if (!setpriv) logger("setpriv is not available: workerd would outlive a killed edge until the next edge starts");
  // the console filter's tools: without them workerd does not start (a tenant's console lines would reach the edge's
  // health and log)
  const filter = {};
  for (const name of ["mkfifo", "grep"]) {
    filter[name] = commandPath(name);
    if (!filter[name]) throw new Error(`${name} is not on PATH: the edge needs mkfifo and grep to start workerd`);
  }
  const wrapper = path.join(dataDir, "workerd.sh");
  const tmp = `${wrapper}.${process.pid}.tmp`;
  fs.writeFileSync(
    tmp,
    wrapperText({
      runDir,
      workerd: defaultWorkerd(),
      setpriv,
      nofile: path.join(dataDir, "workerd.nofile"),
      ...filter,
    }),
    { mode: 0o700 },
  );
  fs.renameSync(tmp, wrapper);
  process.env.MINIFLARE_WORKERD_PATH = wrapper;
  return wrapper;
}

// commandPath answers where the shell finds command name on PATH, or null.
function commandPath(name) {
  try {
    return execFileSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

// parseReport reads the wrapper's line ({pid, path}), or answers null for any other line of workerd's stdout.
export function parseReport(line) {
  const m = /^edgeflow-entry (\d+) (\/.+)$/.exec(line.trim());
  return m ? { pid: Number(m[1]), path: m[2] } : null;
}

// ReportWatch follows one Miniflare instance's workerd stdout for the wrapper's line. Each start of workerd
// (miniflare starts a new process on every setOptions) reports anew; next() answers the report of the next start.
export class ReportWatch {
  constructor() {
    this.waiters = [];
    this.last = null;
  }

  // expect returns a promise of the next report; call it before the start it is about.
  expect() {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  // line hands a line of workerd's stdout over; it answers whether it was the wrapper's (not workerd's own).
  line(text) {
    const r = parseReport(text);
    if (!r) return false;
    this.last = r;
    for (const w of this.waiters.splice(0)) w(r);
    return true;
  }
}

// awaitReport waits for the report a started workerd's wrapper printed before workerd itself ran. By the time
// miniflare says workerd is ready the line is in the pipe already; the bound is only for a workerd that was not
// started through the wrapper (MINIFLARE_WORKERD_PATH replaced), which must not run.
export async function awaitReport(promise, ms = 10000) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            "workerd was not started through the edge's wrapper (no entry socket was reported); refusing to run it with a TCP entry socket",
          ),
        ),
      ms,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// EntrySocket is one workerd's entry socket: requests over node:http (kept-alive connections of the caller's
// agent, which keeps connections apart per socket path) or fetch (a dispatcher of its own).
export class EntrySocket {
  constructor(socketPath, pid) {
    this.path = socketPath;
    this.pid = pid;
    this.dispatcher = null;
  }

  // request sends a request on node:http and answers {status, headers, text}. An error before any answer has
  // beforeAnswer set (a kept-alive connection workerd closed, a restart), which callers may retry once.
  request(pathname, { method = "GET", headers = {}, body, agent } = {}) {
    return new Promise((resolve, reject) => {
      const req = http.request(
        { socketPath: this.path, path: pathname, method, headers: { host: "localhost", ...headers }, agent },
        (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
          );
          res.on("error", reject);
        },
      );
      req.on("error", (err) => reject(Object.assign(err, { beforeAnswer: !req.res })));
      req.end(body);
    });
  }

  // fetch sends a request with fetch's interface (for streamed bodies and answers) and answers its Response.
  fetch(pathname, init = {}) {
    this.dispatcher ??= new undici.Agent({ connect: { socketPath: this.path } });
    const streamed =
      init.body != null &&
      typeof init.body !== "string" &&
      !(init.body instanceof Uint8Array) &&
      !(init.body instanceof ArrayBuffer);
    return undici.fetch(new URL(pathname, "http://localhost"), {
      ...init,
      dispatcher: this.dispatcher,
      ...(streamed ? { duplex: "half" } : {}),
    });
  }

  // close drops the connections and removes the socket file (workerd, killed, leaves it behind).
  close() {
    const d = this.dispatcher;
    this.dispatcher = null;
    d?.destroy().catch(() => {});
    fs.rmSync(this.path, { force: true });
  }
}

// stopOrphan kills the workerds a previous edge on this data dir left running: the pids in pidFile, one a line
// (workerd.pid holds the groups' workerds', d1-workerd.pid the D1 databases' own, see groups.mjs and
// d1host.mjs). Where setpriv gives workerd no parent-death signal, this is what stops a killed edge's workerds.
export async function stopOrphan(pidFile, logger) {
  let pids;
  try {
    pids = fs
      .readFileSync(pidFile, "utf8")
      .split("\n")
      .map((l) => Number(l.trim()));
  } catch {
    return;
  }
  const isWorkerd = (pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd");
    } catch {
      return false;
    }
  };
  for (const pid of pids) {
    if (!Number.isInteger(pid) || pid <= 0 || !isWorkerd(pid)) continue;
    logger(`stopping workerd pid ${pid} left running by a previous edge`);
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      continue;
    }
    for (let i = 0; i < 100 && isWorkerd(pid); i++) await new Promise((r) => setTimeout(r, 50));
  }
}
