// `wrangler tail` against the edge with the real wrangler 3 CLI (installed as in wrangler.test.mjs, skipped with
// EDGE_SKIP_WRANGLER=1). Cloudflare's behaviour checked: POST /accounts/{id}/workers/scripts/{name}/tails answers
// {id, url, expires_at}; wrangler opens the url as a websocket with subprotocol trace-v1 and prints each message, one
// trace item per invocation: {outcome, scriptName, logs: [{message: [...], level, timestamp}], exceptions: [{name,
// message, timestamp}], eventTimestamp, event: {request: {url, method, headers}, response: {status}}}. A worker that
// does not exist is refused with code 10007 ("This Worker does not exist on your account").

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { asAccount, provision, startEdge, tempDir, upload, waitFor } from "../helpers.mjs";
import { installWrangler, skip, spawnWrangler } from "./wrangler-cli.mjs";

let root;
let edge;
let home;
let project;

before(async () => {
  if (skip) return;
  installWrangler();
  root = await startEdge();
  const mine = await provision(root, { name: "tailer", ref: "tailer" });
  assert.equal(mine.status, 201, JSON.stringify(mine.body));
  edge = asAccount(root, mine.body);
  home = tempDir("edge-wrangler-tail-home-");
  project = tempDir("edge-wrangler-tail-project-");
  const up = await upload(edge, "tailed", {
    source: `export default { async fetch(req) {
      const u = new URL(req.url);
      console.log("hello from", u.pathname);
      if (u.pathname === "/boom") throw new RangeError("tail me");
      return new Response("ok");
    } };`,
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  assert.equal((await edge.call("POST", "/workers/scripts/tailed/subdomain", { enabled: true })).status, 200);
});

after(async () => {
  await root?.stop();
});

const startWrangler = (args) => spawnWrangler(args, { project, home, edge, stdin: "ignore", timeoutMs: 60000 });

// jsonObjects reads the pretty-printed JSON objects wrangler's --format json writes one after another.
function jsonObjects(text) {
  const objs = [];
  let depth = 0;
  let start = -1;
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inStr) {
      if (ch === "\\") i++;
      else if (ch === '"') inStr = false;
      continue;
    }
    if (ch === '"') inStr = true;
    else if (ch === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (ch === "}" && depth > 0) {
      depth--;
      if (depth === 0) {
        try {
          objs.push(JSON.parse(text.slice(start, i + 1)));
        } catch {
          // not a trace item
        }
      }
    }
  }
  return objs;
}

test("wrangler tail prints each request's logs, exceptions and outcome", { skip }, async () => {
  const { child, out } = startWrangler(["tail", "tailed", "--format", "json"]);
  try {
    await waitFor(async () => (await edge.call("GET", "/workers/scripts/tailed/tails")).body.result.length === 1, {
      what: "the tail session",
    });
    // The websocket opens just after the session exists: send requests until the first one shows.
    const items = await waitFor(
      async () => {
        await fetch(`${edge.ready.workers}/${edge.subdomain}/tailed/boom`).catch(() => {});
        const objs = jsonObjects(out.text).filter((o) => o.outcome);
        return objs.length > 0 && objs;
      },
      { what: `a trace item from wrangler tail (output: ${out.text.slice(-500)})`, intervalMs: 500, timeoutMs: 30000 },
    );
    const item = items[0];
    assert.equal(item.scriptName, "tailed");
    assert.equal(item.outcome, "exception");
    assert.equal(item.event.request.method, "GET");
    assert.match(item.event.request.url, /\/boom$/);
    assert.deepEqual(
      item.logs.map((l) => [l.level, ...l.message]),
      [["log", "hello from", "/boom"]],
    );
    assert.deepEqual(
      item.exceptions.map((e) => [e.name, e.message]),
      [["RangeError", "tail me"]],
    );
    assert.equal(typeof item.eventTimestamp, "number");
  } finally {
    child.kill("SIGINT");
    await waitFor(() => out.code !== null || child.exitCode !== null || child.signalCode !== null, {
      what: "wrangler to stop",
      timeoutMs: 15000,
    }).catch(() => child.kill("SIGKILL"));
  }
});

test("wrangler tail of a worker that does not exist fails with Cloudflare's 10007", { skip }, async () => {
  const { out } = startWrangler(["tail", "no-such-worker", "--format", "json"]);
  await waitFor(() => out.code !== null, { what: "wrangler to exit", timeoutMs: 45000 });
  assert.notEqual(out.code, 0);
  assert.match(out.text, /10007|does not exist/);
});
