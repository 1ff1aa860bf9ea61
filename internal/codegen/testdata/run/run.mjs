// Runs compiled edgeflow bundles on workerd through miniflare for the Go
// behaviour tests: node run.mjs <plan.json>.
//
// plan.json: {"workers": [{"name", "bundle" (path of the bundled ES module),
//   "workflowName"?, "className"?, "vars"?}],
//   "cases": [{"worker", "method"?, "path"?, "body"?, "headers"?, "events"?: [{"type", "payload"}]}]}
//
// Each case sends one request to its worker's fetch handler (path, e.g.
// "?instanceId=x", is appended to the worker's URL). For a workflow (a
// worker with a className) the handler's {"instanceId"} answer is then
// polled through the handler's GET ?instanceId= until the instance finishes;
// while it waits, the case's events are delivered one by one through the
// handler's POST {instanceId, eventType, payload}. Polls and events carry
// the worker's EDGEFLOW_WORKER_TOKEN var as a bearer token. Prints one JSON
// line per case: {"status", "body", "instance"?}.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(join(here, "package.json"));
const { Miniflare } = require("miniflare");

const plan = JSON.parse(readFileSync(process.argv[2], "utf8"));
const final = new Set(["complete", "errored", "terminated"]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const mf = new Miniflare({
  workers: plan.workers.map((w) => ({
    name: w.name,
    modules: [{ type: "ESModule", path: join(dirname(w.bundle), "index.js"), contents: readFileSync(w.bundle, "utf8") }],
    modulesRoot: dirname(w.bundle),
    compatibilityDate: "2025-04-01",
    routes: [`${w.name}.test/*`],
    bindings: w.vars ?? {},
    workflows: {
      ...(w.className ? { WORKFLOW: { name: w.workflowName, className: w.className } } : {}),
      ...(w.workflows ?? {}),
    },
  })),
});

async function call(worker, method, body, headers, path) {
  const res = await mf.dispatchFetch(`http://${worker}.test/${path ?? ""}`, {
    method,
    headers: { "content-type": "application/json", ...(headers ?? {}) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed = text;
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { status: res.status, body: parsed, headers: Object.fromEntries(res.headers) };
}

try {
  for (const c of plan.cases) {
    const method = c.method ?? "POST";
    const first = await call(c.worker, method, method === "GET" ? undefined : c.body ?? {}, c.headers, c.path);
    const result = { status: first.status, body: first.body };
    if (c.header) result.header = first.headers[c.header.toLowerCase()] ?? null;
    const w = plan.workers.find((x) => x.name === c.worker);
    const auth = { authorization: `Bearer ${w.vars?.EDGEFLOW_WORKER_TOKEN ?? ""}` };
    if (w.className && method === "POST" && first.body && first.body.instanceId) {
      const id = first.body.instanceId;
      const events = [...(c.events ?? [])];
      const deadline = Date.now() + (c.timeoutMs ?? 30000);
      let status;
      let nextEvent = Date.now() + 200;
      for (;;) {
        const s = await mf.dispatchFetch(`http://${c.worker}.test/?instanceId=${encodeURIComponent(id)}`, { headers: auth });
        status = await s.json();
        if (final.has(status.status)) break;
        // Events go out one by one while the instance runs (Workflows keep an
        // event sent before the step waits for it).
        if (events.length > 0 && Date.now() >= nextEvent) {
          nextEvent = Date.now() + 300;
          const ev = events.shift();
          await call(c.worker, "POST", { instanceId: id, eventType: ev.type, payload: ev.payload }, auth);
        }
        if (Date.now() > deadline) break;
        await sleep(100);
      }
      result.instance = { status: status.status, output: status.output ?? null, error: status.error?.message ?? null };
    }
    process.stdout.write(JSON.stringify(result) + "\n");
  }
} finally {
  await mf.dispose();
}
