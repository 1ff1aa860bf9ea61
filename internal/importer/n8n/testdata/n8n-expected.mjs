#!/usr/bin/env node
// Runs n8n itself on corpus workflows and writes what each node output, the
// expected outputs the import's e2e test compares the converted workflows
// with (docs/import.md, "How the import is tested"). It is a tool, not a
// test: n8n is large, so it runs from a scratch installation outside the
// repository:
//
//   mkdir -p /tmp/n8n && cd /tmp/n8n && npm install --ignore-scripts n8n@2.41.1
//   npm rebuild sqlite3 --build-from-source   # n8n's database driver
//   node internal/importer/n8n/testdata/n8n-expected.mjs --n8n /tmp/n8n corpus/NAME.json...
//
// For each corpus/NAME.json it writes corpus/NAME.expected.json. A workflow
// is run as it is, with its pinned data left out (pinned data would replace
// the nodes' work); a Webhook trigger is replaced by a Code node of the same
// name that outputs the request item {headers: {}, params: {}, query: {},
// body} with the body in NAME.input.json (the body the e2e test sends),
// started by a Manual Trigger, since n8n's CLI runs manual workflows only.
// A Cron or Interval trigger is replaced the same way by a Code node that
// outputs the empty item those nodes emit; a Schedule Trigger by one that
// outputs its time fields, listed in "timeDependent" (their values are the
// time of the run: the e2e test compares their names).
// n8n runs with GENERIC_TIMEZONE=UTC.
//
// A workflow whose nodes call outside services calls a local stub instead,
// described by NAME.input.json (the e2e test reads the same fields, so both
// sides run the same workflow against the same stub):
//
//   "stub": {
//     "origins": ["https://api.example.com"],  // replaced in the workflow by the stub's origin
//     "routes": [{"method": "POST", "path": "/v2/alerts", "status": 202, "json": {...}} or "text": "..."],
//     "headers": ["authorization"]              // request headers recorded (lower case)
//   },
//   "env": {"NAME": "value"},                   // edgeflow's env vars (the e2e test sets them)
//   "credentials": {"httpHeaderAuth": {...}},  // n8n credentials by type; "$STUB" is the stub's origin
//   "nodeCredentials": {"Node": "telegramApi"}, // a node the exported workflow left without its credential
//   "parameters": {"Node": {"amount": 1}}       // node parameters changed on both sides (a long Wait shortened)
//
// Every node that takes a credential of a listed type gets it. The requests
// the stub received (method, path and query, the listed headers, the body:
// parsed JSON, a form as an object, else text) are written to the expected
// file's "requests", in the order they came.

import { spawn } from "node:child_process";
import { createServer } from "node:http";
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
  console.error("usage: n8n-expected.mjs --n8n DIR corpus/NAME.json...");
  process.exit(2);
}
const bin = join(n8nDir, "node_modules", ".bin", "n8n");
const version = JSON.parse(readFileSync(join(n8nDir, "node_modules", "n8n", "package.json"), "utf8")).version;
const home = mkdtempSync(join(tmpdir(), "n8n-expected-"));
const env = {
  ...process.env,
  N8N_USER_FOLDER: home,
  GENERIC_TIMEZONE: "UTC",
  TZ: "UTC",
  N8N_DIAGNOSTICS_ENABLED: "false",
  N8N_LOG_LEVEL: "info",
  N8N_RUNNERS_ENABLED: "true",
};

// n8n runs the CLI asynchronously, so that the stub in this process can
// answer the workflow's calls meanwhile.
function n8n(...argv) {
  return new Promise((resolve) => {
    const p = spawn(bin, argv, { env, stdio: ["ignore", "pipe", "pipe"] });
    const timer = setTimeout(() => p.kill("SIGKILL"), 600_000);
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (d) => (stdout += d));
    p.stderr.on("data", (d) => (stderr += d));
    p.on("close", () => {
      clearTimeout(timer);
      resolve({ stdout, stderr });
    });
  });
}

// startStub serves spec.routes and records the requests it gets.
async function startStub(spec) {
  const requests = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const type = String(req.headers["content-type"] ?? "");
      let body = raw;
      if (raw === "") body = null;
      else if (type.includes("json")) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      } else if (type.includes("x-www-form-urlencoded")) body = Object.fromEntries(new URLSearchParams(raw));
      const headers = {};
      for (const h of spec.headers ?? []) if (req.headers[h] !== undefined) headers[h] = req.headers[h];
      requests.push({ method: req.method, path: req.url, headers, body });
      const path = req.url.split("?")[0];
      const route = (spec.routes ?? []).find((r) => r.method === req.method && r.path === path);
      if (!route) {
        res.writeHead(404, { "content-type": "text/plain" }).end("no stub route for " + req.method + " " + path);
        return;
      }
      if (route.json !== undefined) res.writeHead(route.status ?? 200, { "content-type": "application/json" }).end(JSON.stringify(route.json));
      else res.writeHead(route.status ?? 200, { "content-type": route.contentType ?? "text/plain" }).end(route.text ?? "");
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { origin: "http://127.0.0.1:" + server.address().port, requests, close: () => server.close() };
}

// withStub replaces the outside services' origins in the workflow by the stub's.
function withStub(wf, spec, origin) {
  let text = JSON.stringify(wf);
  for (const o of spec.origins ?? []) text = text.split(o).join(origin);
  return JSON.parse(text);
}

// variant is the workflow n8n runs: pinned data left out, a webhook trigger
// replaced by a Code node emitting the request item.
function variant(wf, request, id, creds, timeDependent) {
  const w = structuredClone(wf);
  delete w.pinData;
  w.id = id;
  w.name = w.name || "edgeflow import corpus";
  w.active = false;
  for (const n of w.nodes) {
    if (request.parameters?.[n.name]) Object.assign(n.parameters, request.parameters[n.name]);
    for (const type of Object.keys(creds)) {
      if (n.credentials?.[type] || request.nodeCredentials?.[n.name] === type) {
        n.credentials = { ...n.credentials, [type]: { id: creds[type], name: "edgeflow " + type } };
      }
    }
    let jsCode = "";
    if (n.type === "n8n-nodes-base.webhook") {
      jsCode = "return [{ json: " + JSON.stringify({ headers: request.headers ?? {}, params: {}, query: request.query ?? {}, body: request.body ?? {} }) + " }];";
      delete n.webhookId;
    } else if (n.type === "n8n-nodes-base.cron" || n.type === "n8n-nodes-base.interval") {
      // What these triggers emit when run by hand (nodes/Cron/Cron.node.js, nodes/Interval/Interval.node.js).
      jsCode = "return [{ json: {} }];";
    } else if (n.type === "n8n-nodes-base.scheduleTrigger") {
      // The fields nodes/Schedule/ScheduleTrigger.node.js emits; their values
      // are the time of the run, so the e2e test compares their names only.
      jsCode =
        "const m = DateTime.now().setZone('UTC');\n" +
        "return [{ json: { timestamp: m.toISO(), 'Readable date': m.toFormat('LLLL d yyyy, h:mm:ss a'), 'Readable time': m.toFormat('h:mm:ss a'), 'Day of week': m.toFormat('cccc'), Year: m.toFormat('yyyy'), Month: m.toFormat('LLLL'), 'Day of month': m.toFormat('dd'), Hour: m.toFormat('HH'), Minute: m.toFormat('mm'), Second: m.toFormat('ss'), Timezone: 'UTC (UTC+00:00)' } }];";
      timeDependent.push(n.name);
    }
    if (jsCode) {
      n.type = "n8n-nodes-base.code";
      n.typeVersion = 2;
      n.parameters = { jsCode };
      w.nodes.push({ id: "edgeflow-start", name: "__edgeflow_start", type: "n8n-nodes-base.manualTrigger", typeVersion: 1, position: [-400, 0], parameters: {} });
      w.connections.__edgeflow_start = { main: [[{ node: n.name, type: "main", index: 0 }]] };
    }
  }
  return w;
}

for (const [k, file] of files.entries()) {
  const name = basename(file, ".json");
  const wf = JSON.parse(readFileSync(file, "utf8"));
  const inputFile = file.replace(/\.json$/, ".input.json");
  const request = existsSync(inputFile) ? JSON.parse(readFileSync(inputFile, "utf8")) : {};
  const id = ("edgeflow" + String(k).padStart(8, "0")).slice(0, 16);
  const tmp = join(home, name + ".json");
  const stub = request.stub ? await startStub(request.stub) : null;
  const creds = {};
  if (request.credentials) {
    const list = Object.entries(request.credentials).map(([type, data], j) => {
      creds[type] = id.slice(0, 12) + String(j).padStart(4, "0");
      const filled = JSON.parse(JSON.stringify(data).split("$STUB").join(stub?.origin ?? ""));
      return { id: creds[type], name: "edgeflow " + type, type, data: filled };
    });
    const credFile = join(home, name + ".credentials.json");
    writeFileSync(credFile, JSON.stringify(list));
    await n8n("import:credentials", "--input=" + credFile);
  }
  const run1 = stub ? withStub(wf, request.stub, stub.origin) : wf;
  const timeDependent = [];
  writeFileSync(tmp, JSON.stringify(variant(run1, request, id, creds, timeDependent)));
  // The CLI may crash on its way out after its work (its exit status is
  // not read); a failed import shows as an execution that does not start.
  await n8n("import:workflow", "--input=" + tmp);
  const run = await n8n("execute", "--id=" + id, "--rawOutput");
  stub?.close();
  // The CLI prints the execution as JSON (at log level info); it may crash on its way out
  // after printing it, so the exit status is not read.
  const start = run.stdout.indexOf("{");
  let exec;
  try {
    exec = JSON.parse(run.stdout.slice(start));
  } catch {
    exec = null;
  }
  const out = {
    obtained: {
      n8n: version,
      command: "n8n import:workflow --input=<variant of " + name + ".json>; n8n execute --id=" + id + " --rawOutput (GENERIC_TIMEZONE=UTC)",
      by: "internal/importer/n8n/testdata/n8n-expected.mjs",
      input: existsSync(inputFile) ? basename(inputFile) : null,
    },
    status: exec?.status ?? "error",
    nodes: {},
  };
  if (stub) out.requests = stub.requests;
  if (timeDependent.length > 0) out.timeDependent = timeDependent;
  const resultData = exec?.data?.resultData;
  if (!resultData) {
    out.error = (run.stderr || "").split("\n").filter((l) => /error/i.test(l)).slice(0, 5).join("\n") || "n8n printed no execution";
  } else {
    if (resultData.error) out.error = resultData.error.message;
    for (const [node, runs] of Object.entries(resultData.runData ?? {})) {
      if (node === "__edgeflow_start") continue;
      out.nodes[node] = runs.map((r) => (r.data?.main ?? []).map((items) => (items ?? []).map((it) => it.json)));
    }
  }
  writeFileSync(file.replace(/\.json$/, ".expected.json"), JSON.stringify(out, null, 2) + "\n");
  console.log(name + ": " + out.status + (out.error ? " (" + out.error + ")" : ""));
}
rmSync(home, { recursive: true, force: true });
