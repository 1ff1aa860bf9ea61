#!/usr/bin/env node
// Runs n8n's own webhook server on the corpus workflows that answer their
// webhook with Respond to Webhook (the import makes them functions, which
// keep no run record) and writes the HTTP answers n8n gave, the fixtures
// TestImportN8nRespond compares the converted functions' answers with
// (docs/import.md, "Corpus"). It is a tool, not a test:
// n8n runs from the scratch installation n8n-expected.mjs describes, under
// the edge's Node 24:
//
//   export PATH=/work/main/edge/node-runtime/node_modules/.bin:$PATH
//   node internal/importer/n8n/testdata/n8n-respond.mjs --n8n /tmp/n8n corpus/NAME.json...
//
// Each workflow is imported as it is (pinned data left out) into a scratch
// n8n user folder and published (`n8n publish:workflow`); then `n8n start`
// serves their production webhooks on a free local port, and the requests
// listed in NAME.input.json's "requests" are sent in turn:
//
//   "requests": [{"name": "authorized", "method": "POST", "query": {...},
//                 "headers": {"authorization": "..."}, "body": {...}}]
//
// (the method defaults to the Webhook node's; a body is sent as JSON). A
// request is sent again while n8n answers that the webhook is not yet
// registered (it activates the published workflows after it starts
// listening); a request of another method than the webhook's gets its
// answer (404) at once. For each request NAME.http.json records the answer: its
// status, its headers (those of the connection and caching left out:
// date, connection, keep-alive, etag, content-length, vary,
// transfer-encoding) and its body as text, with "json" besides when it is
// JSON. n8n runs with GENERIC_TIMEZONE=UTC.

import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, basename } from "node:path";

const args = process.argv.slice(2);
let n8nDir = "";
const files = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === "--n8n") n8nDir = args[++i];
  else files.push(args[i]);
}
if (!n8nDir || files.length === 0) {
  console.error("usage: n8n-respond.mjs --n8n DIR corpus/NAME.json...");
  process.exit(2);
}
const bin = join(n8nDir, "node_modules", ".bin", "n8n");
const version = JSON.parse(readFileSync(join(n8nDir, "node_modules", "n8n", "package.json"), "utf8")).version;
const home = mkdtempSync(join(tmpdir(), "n8n-respond-"));

// freePort answers a local port nothing listens on.
function freePort() {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const brokerPort = await freePort();
const env = {
  ...process.env,
  N8N_USER_FOLDER: home,
  GENERIC_TIMEZONE: "UTC",
  TZ: "UTC",
  N8N_DIAGNOSTICS_ENABLED: "false",
  N8N_LOG_LEVEL: "info",
  N8N_PORT: String(port),
  N8N_LISTEN_ADDRESS: "127.0.0.1",
  N8N_RUNNERS_BROKER_PORT: String(brokerPort),
};

function n8n(...argv) {
  return new Promise((resolve) => {
    const p = spawn(bin, argv, { env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout.on("data", (d) => (out += d));
    p.stderr.on("data", (d) => (out += d));
    p.on("close", () => resolve(out));
  });
}

const dropped = new Set(["date", "connection", "keep-alive", "etag", "content-length", "vary", "transfer-encoding"]);

// send makes one request to n8n's production webhook of the workflow,
// again while the webhook is not registered yet.
async function send(path, method, req) {
  const url = new URL("http://127.0.0.1:" + port + "/webhook/" + path);
  for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
  const headers = { ...(req.headers ?? {}) };
  let body;
  if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers["content-type"] = "application/json";
  }
  const deadline = Date.now() + 120_000;
  for (;;) {
    let res;
    try {
      res = await fetch(url, { method, headers, body, redirect: "manual" });
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    const text = await res.text();
    if (res.status === 404 && /requested webhook .* is not registered/.test(text) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    const out = { status: res.status, headers: {}, body: text };
    for (const [k, v] of res.headers) if (!dropped.has(k)) out.headers[k] = v;
    if ((res.headers.get("content-type") ?? "").includes("json")) {
      try {
        out.json = JSON.parse(text);
      } catch {}
    }
    // n8n's error answers carry its own stack trace, which names files of
    // the installation: it is left out.
    if (out.json && typeof out.json === "object" && "stacktrace" in out.json) {
      delete out.json.stacktrace;
      out.body = JSON.stringify(out.json);
    }
    return out;
  }
}

// ready waits until n8n answers that it is ready (it listens, and
// answers "n8n is starting up", before it is).
async function ready() {
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      const res = await fetch("http://127.0.0.1:" + port + "/healthz/readiness");
      if (res.status === 200) return;
    } catch {}
    if (Date.now() > deadline) throw new Error("n8n did not become ready:\n" + log.slice(-2000));
    await new Promise((r) => setTimeout(r, 500));
  }
}

const plans = [];
for (const [k, file] of files.entries()) {
  const name = basename(file, ".json");
  const wf = JSON.parse(readFileSync(file, "utf8"));
  const inputFile = file.replace(/\.json$/, ".input.json");
  const input = existsSync(inputFile) ? JSON.parse(readFileSync(inputFile, "utf8")) : {};
  const hook = wf.nodes.find((n) => n.type === "n8n-nodes-base.webhook" && !n.disabled);
  if (!hook || !input.requests) {
    console.error(name + ': no Webhook node or no "requests" in ' + basename(inputFile));
    process.exit(1);
  }
  const id = ("edgeflowresp" + String(k).padStart(4, "0")).slice(0, 16);
  const w = structuredClone(wf);
  delete w.pinData;
  w.id = id;
  w.name = w.name || name;
  w.active = false;
  const tmp = join(home, name + ".json");
  writeFileSync(tmp, JSON.stringify(w));
  await n8n("import:workflow", "--input=" + tmp);
  await n8n("publish:workflow", "--id=" + id);
  plans.push({
    name,
    file,
    inputFile,
    path: String(hook.parameters.path).replace(/^\/+/, ""),
    method: (hook.parameters.httpMethod ?? "GET").toUpperCase(),
    requests: input.requests,
  });
}

const server = spawn(bin, ["start"], { env, stdio: ["ignore", "pipe", "pipe"] });
let log = "";
server.stdout.on("data", (d) => (log += d));
server.stderr.on("data", (d) => (log += d));
try {
  await ready();
  for (const p of plans) {
    const exchanges = [];
    for (const req of p.requests) {
      const method = (req.method ?? p.method).toUpperCase();
      const response = await send(p.path, method, req);
      exchanges.push({ request: { ...req, method }, response });
    }
    const out = {
      obtained: {
        n8n: version,
        command:
          "n8n import:workflow --input=" +
          p.name +
          ".json (pinned data left out); n8n publish:workflow; n8n start (GENERIC_TIMEZONE=UTC); each request sent to /webhook/" +
          p.path,
        by: "internal/importer/n8n/testdata/n8n-respond.mjs",
        input: basename(p.inputFile),
      },
      path: p.path,
      exchanges,
    };
    writeFileSync(p.file.replace(/\.json$/, ".http.json"), JSON.stringify(out, null, 2) + "\n");
    console.log(p.name + ": " + exchanges.map((e) => e.response.status).join(", "));
  }
} finally {
  server.kill("SIGTERM");
  await new Promise((r) => server.on("close", r));
  if (process.env.N8N_RESPOND_LOG) writeFileSync(process.env.N8N_RESPOND_LOG, log);
  rmSync(home, { recursive: true, force: true });
}
