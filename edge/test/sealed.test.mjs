// Secrets at rest: secret bindings are sealed in the registry with the key the edge gets on stdin (or its key
// file when started by hand), every file the edge writes is the owner's alone, an older plaintext registry is
// rewritten sealed, and worker code sees neither the edge's token nor its key.

import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { openState } from "../src/sealed.mjs";
import { asAccount, provision, startEdge, tempDir, upload } from "./helpers.mjs";

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
  const edge = await startEdge({
    dataDir,
    args: key === null ? [] : ["--key-stdin"],
    stdin: key === null ? undefined : `${key}\n`,
  });
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
  const up = await upload(edge, "snoop", {
    source: SNOOP,
    bindings: [{ type: "secret_text", name: "API_KEY", text: SECRET }],
  });
  assert.equal(up.status, 200, JSON.stringify(up.body));
  const keyFile = path.join(dataDir, "secrets.key");
  assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
  assert.ok(!fs.readFileSync(path.join(dataDir, "registry.json"), "utf8").includes(SECRET));
});

// Every copy of a secret the edge keeps on disk is sealed: the versions of every account (the legacy one and the
// provisioned ones edgeflow uses), secret puts, undeployed versions, settings patches and the versions a rollback
// deploys again. The attack reads every file under the data dir, binary ones too, for each secret's bytes.
describe("every copy of a secret on disk", () => {
  const dataDir = tempDir();
  const ENV = `export default { fetch(request, env) { const out = {}; for (const [k, v] of Object.entries(env)) if (typeof v === "string") out[k] = v; return Response.json(out); } };`;
  const secret = (what) => `${what}-${randomBytes(12).toString("hex")}`;
  const secrets = [];
  let edge;
  let clients; // [{client, url(script), first: {API_KEY, EDGEFLOW_WORKER_TOKEN}}]

  async function env(url) {
    const r = await fetch(url);
    assert.equal(r.status, 200, url);
    return r.json();
  }

  // rollOut writes secrets every way the API offers into script `roll` of client c and rolls back to the first
  // version; it answers the secrets of that first version.
  async function rollOut(c) {
    const first = { API_KEY: secret("first-key"), EDGEFLOW_WORKER_TOKEN: secret("first-token") };
    const second = { API_KEY: secret("second-key"), EDGEFLOW_WORKER_TOKEN: secret("second-token") };
    const put = secret("put"),
      draft = secret("draft"),
      bulk = secret("bulk");
    secrets.push(...Object.values(first), ...Object.values(second), put, draft, bulk);
    const asBindings = (s) => Object.entries(s).map(([name, text]) => ({ type: "secret_text", name, text }));
    const up1 = await upload(c, "roll", {
      source: ENV,
      bindings: [{ type: "plain_text", name: "VAR", text: "one" }, ...asBindings(first)],
    });
    assert.equal(up1.status, 200, JSON.stringify(up1.body));
    assert.equal((await c.call("POST", "/workers/scripts/roll/subdomain", { enabled: true })).status, 200);
    const v1 = (await c.call("GET", "/workers/scripts/roll/deployments")).body.result.deployments[0].versions[0]
      .version_id;
    // wrangler secret put
    const sp = await c.call("PUT", "/workers/scripts/roll/secrets", {
      name: "PUT_SECRET",
      text: put,
      type: "secret_text",
    });
    assert.equal(sp.status, 200, JSON.stringify(sp.body));
    // the second deploy, with new secret values (PUT_SECRET is kept)
    const up2 = await upload(c, "roll", {
      source: ENV,
      bindings: [{ type: "plain_text", name: "VAR", text: "two" }, ...asBindings(second)],
    });
    assert.equal(up2.status, 200, JSON.stringify(up2.body));
    // wrangler secret bulk: a settings patch naming the kept bindings and a new secret
    const names = ["VAR", "API_KEY", "EDGEFLOW_WORKER_TOKEN", "PUT_SECRET"].map((name) => ({
      type: name === "VAR" ? "plain_text" : "secret_text",
      name,
    }));
    const patch = await c.call("PATCH", "/workers/scripts/roll/settings", {
      bindings: [...names, { type: "secret_text", name: "BULK", text: bulk }],
    });
    assert.equal(patch.status, 200, JSON.stringify(patch.body));
    // a version uploaded and not deployed
    const fd = new FormData();
    fd.set(
      "metadata",
      JSON.stringify({
        main_module: "index.js",
        compatibility_date: "2025-01-01",
        bindings: [{ type: "secret_text", name: "API_KEY", text: draft }],
      }),
    );
    fd.append("files", new Blob([ENV], { type: "application/javascript+module" }), "index.js");
    const ver = await c.call("POST", "/workers/scripts/roll/versions", fd);
    assert.equal(ver.status, 200, JSON.stringify(ver.body));
    const live = await env(c.url("roll"));
    assert.equal(live.API_KEY, second.API_KEY);
    assert.equal(live.BULK, bulk);
    // the rollback: the first version deployed again
    const back = await c.call("POST", "/workers/scripts/roll/deployments", {
      versions: [{ version_id: v1, percentage: 100 }],
    });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    return first;
  }

  function leaks() {
    const found = [];
    for (const p of walk(dataDir)) {
      if (!fs.statSync(p).isFile()) continue;
      const bytes = fs.readFileSync(p);
      for (const s of secrets) {
        for (const form of [
          Buffer.from(s),
          Buffer.from(s, "utf16le"),
          Buffer.from(Buffer.from(s).toString("base64")),
        ]) {
          if (bytes.includes(form)) found.push(`${path.relative(dataDir, p)}: ${s}`);
        }
      }
    }
    return found;
  }

  test("attack: after deploys, secret puts, a bulk patch, an undeployed version and a rollback no file under the data dir holds a secret", async () => {
    edge = await start(dataDir);
    const p = await provision(edge, { name: "Org", ref: "org-sealed" });
    assert.equal(p.status, 201, JSON.stringify(p.body));
    const acct = asAccount(edge, p.body);
    clients = [
      { client: edge, url: (s) => `${edge.ready.workers}/${s}` },
      { client: acct, url: (s) => `${edge.ready.workers}/${p.body.subdomain}/${s}` },
    ];
    for (const c of clients) {
      c.client.url = c.url;
      c.first = await rollOut(c.client);
      const seen = await env(c.url("roll"));
      assert.deepEqual(
        { API_KEY: seen.API_KEY, EDGEFLOW_WORKER_TOKEN: seen.EDGEFLOW_WORKER_TOKEN, VAR: seen.VAR },
        { ...c.first, VAR: "one" },
      );
    }
    assert.deepEqual(leaks(), [], "while the edge runs");
    await edge.stop();
    assert.deepEqual(leaks(), [], "after it stopped");
  });

  test("legit: after a restart each worker sees the secrets of the version rolled back to; the secrets API lists names only", async () => {
    edge = await start(dataDir);
    for (const c of clients) {
      c.client =
        c.client === clients[0].client
          ? edge
          : asAccount(edge, { id: c.client.accountId, token: c.client.token, subdomain: c.client.subdomain });
      const seen = await env(c.url("roll"));
      assert.equal(seen.API_KEY, c.first.API_KEY);
      assert.equal(seen.EDGEFLOW_WORKER_TOKEN, c.first.EDGEFLOW_WORKER_TOKEN);
      assert.equal(seen.PUT_SECRET, undefined, "the first version had no PUT_SECRET");
      const list = await c.client.call("GET", "/workers/scripts/roll/secrets");
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.result.map((s) => s.name).sort(), ["API_KEY", "EDGEFLOW_WORKER_TOKEN"]);
      assert.ok(!JSON.stringify(list.body).includes(c.first.API_KEY));
      const versions = await c.client.call("GET", "/workers/scripts/roll/versions");
      assert.equal(versions.status, 200);
      for (const s of secrets) assert.ok(!JSON.stringify(versions.body).includes(s), "a version answer holds a secret");
    }
    assert.deepEqual(leaks(), []);
  });

  test("legit: a registry of an earlier edge, with the accounts' secrets in plaintext, is resealed on start and still serves", async () => {
    await edge.stop();
    const file = path.join(dataDir, "registry.json");
    const state = JSON.parse(fs.readFileSync(file, "utf8"));
    openState(state, Buffer.from(KEY, "hex"), file); // what an edge before decision 320 wrote for an account
    fs.writeFileSync(file, JSON.stringify(state));
    assert.notDeepEqual(leaks(), []);
    edge = await start(dataDir);
    assert.deepEqual(leaks(), []);
    for (const c of clients) {
      const seen = await env(c.url("roll"));
      assert.equal(seen.API_KEY, c.first.API_KEY);
      assert.equal(seen.EDGEFLOW_WORKER_TOKEN, c.first.EDGEFLOW_WORKER_TOKEN);
    }
  });
});
