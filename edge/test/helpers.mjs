// Test helpers: start the real edge as a child process and talk to it over HTTP.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const EDGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER = path.join(EDGE_DIR, "server.mjs");
export const FIXTURES = path.join(EDGE_DIR, "test", "fixtures");

const tempDirs = [];
process.on("exit", () => {
  if (process.env.EDGE_TEST_KEEP) return;
  for (const d of tempDirs) fs.rmSync(d, { recursive: true, force: true });
});

// tempDir makes a directory that is removed when the test process exits (EDGE_TEST_KEEP=1 keeps it).
export function tempDir(prefix = "edge-test-") {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.push(d);
  return d;
}

// startEdge spawns `node server.mjs` and resolves when its ready line arrives.
// args are more command-line arguments; stdin, when given, is written to the edge's standard input; env, more
// environment variables.
export async function startEdge({ dataDir = tempDir(), port = 0, timeoutMs = 90000, args = [], stdin, env } = {}) {
  const proc = spawn(process.execPath, [SERVER, "--port", String(port), "--data-dir", dataDir, ...args], {
    stdio: [stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    env: env === undefined ? process.env : { ...process.env, ...env },
  });
  if (stdin !== undefined) proc.stdin.end(stdin);
  let stderr = "";
  proc.stderr.on("data", (d) => {
    stderr += d.toString();
    if (process.env.EDGE_TEST_LOG) process.stderr.write(d);
  });
  const ready = await new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => {
      proc.kill("SIGKILL"); // a test that gave up on it must not leave it running (and hang on its pipes)
      reject(new Error(`edge not ready after ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    proc.stdout.on("data", (d) => {
      out += d.toString();
      const i = out.indexOf("\n");
      if (i >= 0) {
        clearTimeout(timer);
        try {
          resolve(JSON.parse(out.slice(0, i)));
        } catch (err) {
          reject(err);
        }
      }
    });
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`edge exited with ${code}: ${stderr}`));
    });
  });
  const token = fs.readFileSync(ready.tokenFile, "utf8").trim();
  const edge = {
    proc,
    ready,
    token,
    dataDir,
    stderr: () => stderr,
    account: `${ready.api}/accounts/${ready.accountId}`,
    async call(method, p, body, { headers = {}, raw = false } = {}) {
      const url = p.startsWith("http")
        ? p
        : p.startsWith("/accounts") || p.startsWith("/user") || p.startsWith("/zones") || p.startsWith("/memberships")
          ? `${ready.api}${p}`
          : `${edge.account}${p}`;
      const init = { method, headers: { authorization: `Bearer ${token}`, ...headers } };
      if (body !== undefined) {
        if (typeof body === "string" || body instanceof Uint8Array || body instanceof FormData) init.body = body;
        else {
          init.body = JSON.stringify(body);
          init.headers["content-type"] = "application/json";
        }
      }
      const res = await fetch(url, init);
      if (raw) return res;
      const text = await res.text();
      let json;
      try {
        json = JSON.parse(text);
      } catch {
        json = { text };
      }
      return { status: res.status, body: json, headers: res.headers };
    },
    // stats answers the edge's GET /__edge/stats (its workerd groups, shards, budgets, memory).
    async stats() {
      const res = await fetch(ready.api.replace("/client/v4", "/__edge/stats"), {
        headers: { authorization: `Bearer ${token}` },
      });
      if (res.status !== 200) throw new Error(`GET /__edge/stats: ${res.status} ${await res.text()}`);
      return res.json();
    },
    async stop(signal = "SIGTERM") {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill(signal);
      await exited;
      if (signal === "SIGKILL") {
        // workerd dies with a killed edge where setpriv exists; elsewhere a test must not leave it behind
        try {
          process.kill(Number(fs.readFileSync(path.join(dataDir, "workerd.pid"), "utf8").trim()), "SIGKILL");
        } catch {
          // already gone
        }
      }
    },
  };
  return edge;
}

// upload sends a module worker the way cloudflare-go does (module parts named "files") unless wranglerStyle.
export async function upload(
  edge,
  name,
  { source, bindings = [], main = "index.js", wranglerStyle = false, extra = {}, path: p } = {},
) {
  const fd = new FormData();
  fd.set("metadata", JSON.stringify({ main_module: main, compatibility_date: "2025-01-01", bindings, ...extra }));
  const code = source ?? fs.readFileSync(path.join(FIXTURES, "demo.mjs"), "utf8");
  fd.append(wranglerStyle ? main : "files", new Blob([code], { type: "application/javascript+module" }), main);
  return edge.call(p?.method ?? "PUT", p?.url ?? `/workers/scripts/${name}`, fd);
}

export async function deployDemo(edge, name, { workflow = name, bindings = [], source } = {}) {
  const up = await upload(edge, name, {
    source,
    bindings: [
      { type: "workflow", name: "WORKFLOW", workflow_name: workflow, class_name: "DemoWorkflow" },
      ...bindings,
    ],
  });
  if (up.status !== 200) throw new Error(`upload ${name}: ${JSON.stringify(up.body)}`);
  const wf = await edge.call("PUT", `/workflows/${workflow}`, { script_name: name, class_name: "DemoWorkflow" });
  if (wf.status !== 200) throw new Error(`workflow ${workflow}: ${JSON.stringify(wf.body)}`);
  const sd = await edge.call("POST", `/workers/scripts/${name}/subdomain`, { enabled: true });
  if (sd.status !== 200) throw new Error(`subdomain ${name}: ${JSON.stringify(sd.body)}`);
}

// waitFor polls fn until it answers a truthy value (which it returns), or fails after timeoutMs naming what it
// waited for. Tests wait with it on a state they can observe, not for a fixed time: the few fixed waits left (in
// logs.test.mjs, where the edge's own clock decides) say at each why they stay.
export async function waitFor(fn, { timeoutMs = 60000, intervalMs = 100, what = "condition" } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await fn();
    if (last) return last;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}; last value ${JSON.stringify(last)}`);
}

// sweepRetention runs the edge's retention sweep now and answers the instances it deleted, with those the edge's
// own sweep at the turn of a minute deleted before it (its log names them): a test that waits for an instance to
// expire cannot know which of the two sweeps takes it. Each is {workflow, id} (and account for a provisioned one).
export async function sweepRetention(edge) {
  const base = edge.ready.api.replace("/client/v4", "");
  const res = await fetch(`${base}/__edge/retention`, {
    method: "POST",
    headers: { authorization: `Bearer ${edge.token}` },
  });
  if (res.status !== 200) throw new Error(`retention sweep: ${res.status} ${await res.text()}`);
  const now = (await res.json()).deleted;
  const before = [...edge.stderr().matchAll(/retention: deleted \d+ expired workflow instance\(s\): ([^\n]*)/g)]
    .flatMap((m) => m[1].replace(/ and \d+ more$/, "").split(", "))
    .map((name) => {
      const acct = /^([^:/]+):(.*)$/.exec(name);
      const rest = acct ? acct[2] : name;
      const cut = rest.indexOf("/");
      const d = { workflow: rest.slice(0, cut), id: rest.slice(cut + 1) };
      return acct ? { account: acct[1], ...d } : d;
    })
    .filter((d) => !now.some((n) => n.workflow === d.workflow && n.id === d.id));
  return [...now, ...before];
}

export async function instance(edge, wf, id) {
  const r = await edge.call("GET", `/workflows/${wf}/instances/${encodeURIComponent(id)}`);
  if (r.status !== 200) throw new Error(`get instance ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.result;
}

export function waitStatus(edge, wf, id, status, opts = {}) {
  const want = Array.isArray(status) ? status : [status];
  return waitFor(
    async () => {
      const r = await instance(edge, wf, id);
      return want.includes(r.status) ? r : false;
    },
    { what: `instance ${id} to be ${want.join("|")}`, ...opts },
  );
}

// provision creates an account (or gives the account with the same ref a new token) through the root-only admin
// route and returns {status, body} of the answer.
export async function provision(edge, body = {}, token = edge.token) {
  const base = edge.ready.api.replace("/client/v4", "");
  const res = await fetch(`${base}/__edge/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

// asAccount returns a client like edge (call, account, token) that acts with an account's own token.
export function asAccount(edge, { id, token, subdomain }) {
  const client = {
    ...edge,
    token,
    subdomain,
    accountId: id,
    account: `${edge.ready.api}/accounts/${id}`,
    async call(method, p, body, opts = {}) {
      const url = p.startsWith("http")
        ? p
        : p.startsWith("/accounts") || p.startsWith("/user") || p.startsWith("/zones") || p.startsWith("/memberships")
          ? `${edge.ready.api}${p}`
          : `${client.account}${p}`;
      return edge.call(method, url, body, {
        ...opts,
        headers: { authorization: `Bearer ${token}`, ...(opts.headers ?? {}) },
      });
    },
  };
  return client;
}
