// Secrets at rest: secret bindings are sealed in the registry with the key the edge gets on stdin (or its key
// file when started by hand), every file the edge writes is the owner's alone, an older plaintext registry is
// rewritten sealed, and worker code sees neither the edge's token nor its key.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { startEdge, tempDir, upload } from "./helpers.mjs";

const SECRET = "s3cr3t-plaintext-value-9f8e";
const KEY = randomBytes(32).toString("hex");

// The snoop worker answers its secret and everything it can find in its environment and globals.
const SNOOP = `
export default {
  async fetch(request, env) {
    const seen = [];
    for (const [k, v] of Object.entries(env)) seen.push(k + "=" + (typeof v === "string" ? v : typeof v));
    if (typeof process !== "undefined") seen.push(JSON.stringify(process.env ?? {}), JSON.stringify(process.argv ?? []));
    for (const k of Object.getOwnPropertyNames(globalThis)) {
      const v = globalThis[k];
      if (typeof v === "string") seen.push(k + "=" + v);
    }
    return Response.json({ secret: env.API_KEY, seen: seen.join("\\n") });
  },
};
`;

const edges = [];
after(async () => {
  for (const e of edges) await e.stop();
});

async function start(dataDir, key = KEY) {
  const edge = await startEdge({ dataDir, args: key === null ? [] : ["--key-stdin"], stdin: key === null ? undefined : `${key}\n` });
  edges.push(edge);
  return edge;
}

async function snoop(edge) {
  const r = await fetch(`${edge.ready.workers}/snoop`);
  assert.equal(r.status, 200);
  return r.json();
}

function walk(dir, out = []) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    out.push(p);
    if (e.isDirectory()) walk(p, out);
  }
  return out;
}

describe("secrets at rest", () => {
  const dataDir = tempDir();
  let edge;

  test("legit: a secret binding reaches its worker; on disk it is sealed and every file is 0600/0700", async () => {
    edge = await start(dataDir);
    const up = await upload(edge, "snoop", {
      source: SNOOP,
      bindings: [{ type: "secret_text", name: "API_KEY", text: SECRET }],
      extra: { compatibility_flags: ["nodejs_compat"] },
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal((await edge.call("POST", "/workers/scripts/snoop/subdomain", { enabled: true })).status, 200);
    assert.equal((await snoop(edge)).secret, SECRET);
    const registry = fs.readFileSync(path.join(dataDir, "registry.json"), "utf8");
    assert.ok(!registry.includes(SECRET), "the registry holds the secret in plaintext");
    assert.match(registry, /"sealed":"v1\./);
    for (const p of [dataDir, ...walk(dataDir)]) {
      const st = fs.statSync(p);
      assert.equal(st.mode & 0o077, 0, `${path.relative(dataDir, p) || "."} has mode ${(st.mode & 0o777).toString(8)}`);
    }
    assert.ok(!fs.existsSync(path.join(dataDir, "secrets.key")), "an edge given its key on stdin keeps no key file");
  });

  test("attack: worker code finds neither the edge's token nor its key in env, process.env or globals", async () => {
    const { seen } = await snoop(edge);
    assert.ok(seen.length > 0);
    assert.ok(!seen.includes(edge.token), "the worker sees the edge's token");
    assert.ok(!seen.toLowerCase().includes(KEY.toLowerCase()), "the worker sees the edge's key");
  });

  test("legit: after a restart with the same key the worker has its secret", async () => {
    await edge.stop();
    edge = await start(dataDir);
    assert.equal((await snoop(edge)).secret, SECRET);
  });

  test("legit: a registry with plaintext secrets (an older edge) is read and written back sealed", async () => {
    await edge.stop();
    const file = path.join(dataDir, "registry.json");
    const state = JSON.parse(fs.readFileSync(file, "utf8"));
    for (const s of Object.values(state.scripts)) {
      for (const v of s.versions) {
        for (const b of v.metadata.bindings ?? []) {
          if (b.type === "secret_text") {
            delete b.sealed;
            b.text = SECRET;
          }
        }
      }
    }
    fs.writeFileSync(file, JSON.stringify(state));
    fs.chmodSync(file, 0o644);
    edge = await start(dataDir);
    assert.equal((await snoop(edge)).secret, SECRET);
    assert.ok(!fs.readFileSync(file, "utf8").includes(SECRET));
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
  });

  test("attack: the edge started with another key refuses to start and says why", async () => {
    await edge.stop();
    await assert.rejects(start(dataDir, randomBytes(32).toString("hex")), /sealed with another key/);
  });
});

test("legit: an edge started by hand keeps its key in secrets.key (0600)", async () => {
  const dataDir = tempDir();
  const edge = await start(dataDir, null);
  const up = await upload(edge, "snoop", { source: SNOOP, bindings: [{ type: "secret_text", name: "API_KEY", text: SECRET }] });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const keyFile = path.join(dataDir, "secrets.key");
  assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
  assert.ok(!fs.readFileSync(path.join(dataDir, "registry.json"), "utf8").includes(SECRET));
});
