// detectHandlers (scripts.mjs): the `handlers` a script shows, read from its main module's text (decision 264).

import assert from "node:assert/strict";
import { test } from "node:test";
import { detectHandlers } from "../src/scripts.mjs";

const handlers = (text, format = "modules") => detectHandlers({ format, modules: [{ bytes: Buffer.from(text) }] });

test("methods and properties of a module worker's default export are its handlers", () => {
  assert.deepEqual(
    handlers(`export default { async fetch(req, env) { return fetch(req); }, scheduled: async (e) => {} };`),
    ["fetch", "scheduled"],
  );
  // wrangler's esbuild output: the object is built first and exported by name
  assert.deepEqual(
    handlers(
      `var src_default = {\n  async fetch(request, env, ctx) {\n    return new Response("x");\n  },\n  async queue(batch) {}\n};\nexport {\n  src_default as default\n};\n`,
    ),
    ["fetch", "queue"],
  );
  assert.deepEqual(
    handlers(
      `const handler = () => new Response("");\nexport default {\n  fetch: handler,\n  email: function (m) {}\n}`,
    ),
    ["email", "fetch"],
  );
  assert.deepEqual(
    handlers(
      `export default class extends WorkerEntrypoint { async fetch(req) { return new Response(""); } tail(events) {} }`,
    ),
    ["fetch", "tail"],
  );
});

test("calls are not handlers, and a module without any has none", () => {
  assert.deepEqual(
    handlers(
      `export class W extends WorkflowEntrypoint { async run(e, step) { const r = await fetch("https://example.com"); if (r.ok) { return 1; } } }`,
    ),
    [],
  );
  assert.deepEqual(handlers(`const x = fetch(url).then((r) => r.json());`), []);
  assert.deepEqual(handlers(""), []);
});

test("a service worker's handlers are its addEventListener calls", () => {
  assert.deepEqual(
    handlers(
      `addEventListener("fetch", (e) => e.respondWith(fetch(e.request)));\naddEventListener('scheduled', (e) => {});`,
      "service-worker",
    ),
    ["fetch", "scheduled"],
  );
  assert.deepEqual(handlers(`self.fetch = 1;`, "service-worker"), []);
});
