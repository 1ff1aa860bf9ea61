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
// n8n runs with GENERIC_TIMEZONE=UTC.

import { spawnSync } from "node:child_process";
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

function n8n(...argv) {
  return spawnSync(bin, argv, { env, encoding: "utf8", maxBuffer: 256 << 20, timeout: 600_000 });
}

// variant is the workflow n8n runs: pinned data left out, a webhook trigger
// replaced by a Code node emitting the request item.
function variant(wf, request, id) {
  const w = structuredClone(wf);
  delete w.pinData;
  w.id = id;
  w.name = w.name || "edgeflow import corpus";
  w.active = false;
  for (const n of w.nodes) {
    if (n.type === "n8n-nodes-base.webhook") {
      n.type = "n8n-nodes-base.code";
      n.typeVersion = 2;
      n.parameters = {
        jsCode: "return [{ json: " + JSON.stringify({ headers: request.headers ?? {}, params: {}, query: request.query ?? {}, body: request.body ?? {} }) + " }];",
      };
      delete n.webhookId;
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
  writeFileSync(tmp, JSON.stringify(variant(wf, request, id)));
  // The CLI may crash on its way out after its work (its exit status is
  // not read); a failed import shows as an execution that does not start.
  n8n("import:workflow", "--input=" + tmp);
  const run = n8n("execute", "--id=" + id, "--rawOutput");
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
