// Conformance with the real wrangler 3 for issue 20, items 1, 2, 5 and 6: what a wrangler user meets on Cloudflare
// (secrets kept across deploys, secret bulk on a worker with bindings, Cloudflare's limits and codes, deleted
// resources, the data of R2 objects, D1 databases and workflow instances). The API-only parts are sent as plain
// HTTP. Run with `npm run test:wrangler` (wrangler is installed as in wrangler.test.mjs); EDGE_SKIP_WRANGLER=1
// skips it.

import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, test } from "node:test";
import { asAccount, provision, startEdge, tempDir, waitStatus } from "../helpers.mjs";
import { installWrangler, runWrangler, skip } from "./wrangler-cli.mjs";

let root;
let edge;
let project;
let home;
let kvId;
let dbId;

const SOURCE = `import { WorkflowEntrypoint, WorkflowEvent, WorkflowStep } from "cloudflare:workers";
type Env = { KV: KVNamespace; DB: D1Database; BUCKET: R2Bucket; GREETING: string; [k: string]: unknown };
export class FidelityWorkflow extends WorkflowEntrypoint<Env, { n?: number }> {
  async run(event: WorkflowEvent<{ n?: number }>, step: WorkflowStep) {
    return await step.do("double", async () => (event.payload.n ?? 1) * 2);
  }
}
export default {
  async fetch(req: Request, env: Env) {
    const url = new URL(req.url);
    if (url.pathname.endsWith("/d1")) {
      await env.DB.prepare("CREATE TABLE IF NOT EXISTS typed (a, b)").run();
      await env.DB.prepare("INSERT INTO typed VALUES (?, ?)").bind(7, true).run();
      const r = await env.DB.prepare("SELECT a, b, typeof(a) AS ta, typeof(b) AS tb FROM typed").first();
      return Response.json(r);
    }
    if (url.pathname.endsWith("/r2")) {
      const o = await env.BUCKET.get(url.searchParams.get("key") ?? "");
      if (o === null) return Response.json(null);
      const h = new Headers();
      o.writeHttpMetadata(h);
      return Response.json(Object.fromEntries(h));
    }
    if (url.pathname.endsWith("/gone")) {
      const out: Record<string, unknown> = {};
      const attempt = async (k: string, f: () => Promise<unknown>) => {
        try { out[k] = await f(); } catch (e) { out[k] = "error: " + (e as Error).message; }
      };
      await attempt("kv", () => env.KV.get("k"));
      await attempt("d1", async () => (await env.DB.prepare("SELECT 1 AS one").first<{ one: number }>())?.one);
      await attempt("r2", async () => ((await env.BUCKET.head("k")) === null ? "none" : "some"));
      return Response.json(out);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(env)) out[k] = typeof v === "string" ? v : typeof v;
    return Response.json(out);
  },
};
`;

function toml(extraVars = "") {
  return `name = "wr-fidelity"
main = "src/index.ts"
compatibility_date = "2025-01-01"

[vars]
GREETING = "hello"
${extraVars}
[[workflows]]
name = "wr-fidelity-wf"
binding = "WF"
class_name = "FidelityWorkflow"

[[kv_namespaces]]
binding = "KV"
id = "${kvId}"

[[d1_databases]]
binding = "DB"
database_name = "wr-fid-db"
database_id = "${dbId}"

[[r2_buckets]]
binding = "BUCKET"
bucket_name = "wr-fid-bucket"
`;
}

before(async () => {
  if (skip) return;
  installWrangler();
  root = await startEdge();
  const mine = await provision(root, { name: "fidelity", ref: "fidelity" });
  assert.equal(mine.status, 201, JSON.stringify(mine.body));
  edge = asAccount(root, mine.body);
  kvId = (await edge.call("POST", "/storage/kv/namespaces", { title: "wr-fid-kv" })).body.result.id;
  dbId = (await edge.call("POST", "/d1/database", { name: "wr-fid-db" })).body.result.uuid;
  await edge.call("POST", "/r2/buckets", { name: "wr-fid-bucket" });
  project = tempDir("edge-wrangler-fidelity-");
  home = tempDir("edge-wrangler-fidelity-home-");
  fs.mkdirSync(path.join(project, "src"));
  fs.writeFileSync(path.join(project, "src", "index.ts"), SOURCE);
  fs.writeFileSync(path.join(project, "wrangler.toml"), toml());
});

after(async () => {
  await root?.stop();
});

const wrangler = (args, { input } = {}) => runWrangler(args, { project, home, edge, input });

async function worker(p = "") {
  return (await fetch(`${edge.ready.workers}/${edge.subdomain}/wr-fidelity${p}`)).json();
}

// rawGet sends the path as written (fetch and URL would resolve %2E%2E before sending).
function rawGet(p) {
  return new Promise((resolve, reject) => {
    const u = new URL(edge.account);
    const req = http.request(
      { host: u.hostname, port: u.port, path: `${u.pathname}${p}`, headers: { authorization: `Bearer ${edge.token}` } },
      (res) => {
        let body = "";
        res.on("data", (d) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode, body: JSON.parse(body) }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

test(
  "wrangler@3: Cloudflare's behaviour for secrets, limits, deleted resources and the data of answers",
  { skip, timeout: 600000 },
  async (t) => {
    // Cloudflare keeps a worker's secrets across `wrangler deploy`, whose upload names none (no keep_bindings).
    await t.test("deploy keeps the worker's secrets", async () => {
      await wrangler(["deploy"]);
      await wrangler(["secret", "put", "MY_SECRET"], { input: "kept\n" });
      await wrangler(["deploy"]);
      const env = await worker();
      assert.equal(env.MY_SECRET, "kept");
      assert.equal(env.GREETING, "hello");
      const list = await edge.call("GET", "/workers/scripts/wr-fidelity/secrets");
      assert.deepEqual(list.body.result, [{ name: "MY_SECRET", type: "secret_text" }]);
    });

    // Cloudflare: the settings PATCH of `wrangler secret bulk` lists every other binding as {type, name}, which keeps it.
    await t.test("secret bulk on a worker with vars, KV, D1, R2 and workflow bindings", async () => {
      const file = path.join(project, "secrets.json");
      fs.writeFileSync(file, JSON.stringify({ BULK_A: "a", BULK_B: "b" }));
      const out = await wrangler(["secret", "bulk", file]);
      assert.match(out, /BULK_A/);
      const env = await worker();
      assert.deepEqual(
        { ...env },
        {
          GREETING: "hello",
          KV: "object",
          DB: "object",
          BUCKET: "object",
          WF: "object",
          MY_SECRET: "kept",
          BULK_A: "a",
          BULK_B: "b",
        },
      );
    });

    // Cloudflare error 10053 "Binding name already in use": a secret may not take a var's name, nor a var a secret's.
    await t.test("a secret may not shadow a var, in either order (10053)", async () => {
      await assert.rejects(wrangler(["secret", "put", "GREETING"], { input: "x\n" }), /10053|already in use/);
      fs.writeFileSync(path.join(project, "wrangler.toml"), toml('MY_SECRET = "a var now"\n'));
      try {
        await assert.rejects(wrangler(["deploy"]), /10053|already in use/);
      } finally {
        fs.writeFileSync(path.join(project, "wrangler.toml"), toml());
      }
      const env = await worker();
      assert.equal(env.MY_SECRET, "kept");
      assert.equal(env.GREETING, "hello");
    });

    // Cloudflare's D1 binds whole numbers as INTEGER and booleans as 1/0.
    await t.test("D1: integers and booleans bound by the worker are integers", async () => {
      assert.deepEqual(await worker("/d1"), { a: 7, b: 1, ta: "integer", tb: "integer" });
    });

    // Cloudflare's `d1 info` shows the number of tables and the database size.
    await t.test("d1 info has the table count and the size", async () => {
      const info = JSON.parse(await wrangler(["d1", "info", "wr-fid-db", "--json"]));
      assert.equal(info.num_tables, 1);
      assert.ok(info.database_size >= 8192, JSON.stringify(info));
    });

    // Cloudflare keeps an R2 object's HTTP metadata and serves it through the API and the binding.
    await t.test("r2 object put keeps cache-control, content-disposition and the other HTTP metadata", async () => {
      const file = path.join(project, "report.csv");
      fs.writeFileSync(file, "a,b\n1,2\n");
      await wrangler([
        "r2",
        "object",
        "put",
        "wr-fid-bucket/report.csv",
        "--file",
        file,
        "--content-type",
        "text/csv",
        "--content-disposition",
        'attachment; filename="report.csv"',
        "--cache-control",
        "max-age=60",
        "--content-language",
        "de-CH",
        "--expires",
        "Wed, 21 Oct 2037 07:28:00 GMT",
      ]);
      const got = await edge.call("GET", "/r2/buckets/wr-fid-bucket/objects/report.csv", undefined, { raw: true });
      assert.equal(got.headers.get("cache-control"), "max-age=60");
      assert.equal(got.headers.get("content-disposition"), 'attachment; filename="report.csv"');
      assert.equal(got.headers.get("content-type"), "text/csv");
      await got.arrayBuffer();
      const seen = await worker("/r2?key=report.csv");
      assert.equal(seen["cache-control"], "max-age=60");
      assert.equal(seen["content-disposition"], 'attachment; filename="report.csv"');
      assert.equal(seen["content-language"], "de-CH");
      assert.equal(seen.expires, "Wed, 21 Oct 2037 07:28:00 GMT");
    });

    // Cloudflare's KV limit is 25 MiB of value: with metadata, wrangler sends a multipart body a little larger.
    await t.test("kv key put of a 25 MiB value with metadata", async () => {
      const file = path.join(project, "big.bin");
      fs.writeFileSync(file, Buffer.alloc(25 << 20, 120));
      await wrangler([
        "kv",
        "key",
        "put",
        "--namespace-id",
        kvId,
        "big",
        "--path",
        file,
        "--metadata",
        '{"owner":"me"}',
      ]);
      fs.rmSync(file);
      const r = await edge.call("GET", `/storage/kv/namespaces/${kvId}/values/big`, undefined, { raw: true });
      assert.equal((await r.arrayBuffer()).byteLength, 25 << 20);
      const md = await edge.call("GET", `/storage/kv/namespaces/${kvId}/metadata/big`);
      assert.deepEqual(md.body.result, { owner: "me" });
    });

    // Cloudflare gives a workflow a new version with each deploy; an instance shows the version it started on; a
    // finished instance has its end.
    await t.test("workflow versions follow deploys; instances describe shows the version and the end", async () => {
      await edge.call("POST", "/workflows/wr-fidelity-wf/instances", { instance_id: "before", params: { n: 2 } });
      await waitStatus(edge, "wr-fidelity-wf", "before", "complete");
      await wrangler(["deploy"]);
      await edge.call("POST", "/workflows/wr-fidelity-wf/instances", { instance_id: "after", params: { n: 3 } });
      await waitStatus(edge, "wr-fidelity-wf", "after", "complete");
      const versions = (await edge.call("GET", "/workflows/wr-fidelity-wf/versions")).body.result.map((v) => v.id);
      assert.ok(versions.length >= 2, JSON.stringify(versions));
      const before = await wrangler(["workflows", "instances", "describe", "wr-fidelity-wf", "before"]);
      const afterDeploy = await wrangler(["workflows", "instances", "describe", "wr-fidelity-wf", "after"]);
      const versionOf = (out) => out.match(/Version Id:?\s*([0-9a-f-]{36})/)?.[1];
      assert.equal(versionOf(afterDeploy), versions[0], afterDeploy);
      assert.notEqual(versionOf(before), versions[0], before);
      assert.ok(versions.includes(versionOf(before)), before);
      assert.match(before, /End:/);
    });

    // API only: Cloudflare refuses instance params over 1 MiB (wrangler cannot pass such an argument).
    await t.test("instance params over 1 MiB are refused", async () => {
      const r = await edge.call("POST", "/workflows/wr-fidelity-wf/instances", {
        instance_id: "big",
        params: { s: "x".repeat(1 << 20) },
      });
      assert.equal(r.status, 413);
      assert.equal(r.body.success, false);
      assert.match(r.body.errors[0].message, /1 MiB/);
    });

    // API only: a KV GET of an invalid key answers Cloudflare's error envelope (wrangler's client resolves "..").
    await t.test("a KV GET of an invalid key answers the error envelope", async () => {
      const r = await rawGet(`/storage/kv/namespaces/${kvId}/values/%2E%2E`);
      assert.equal(r.status, 400);
      assert.equal(r.body.success, false);
      assert.equal(r.body.errors[0].code, 10019);
    });

    // Cloudflare: once a KV namespace, D1 database or R2 bucket is deleted, the operations of workers bound to it fail.
    await t.test("deleted KV namespace, D1 database and R2 bucket stop working in the bound worker", async () => {
      assert.deepEqual(await worker("/gone"), { kv: null, d1: 1, r2: "none" });
      await wrangler(["kv", "namespace", "delete", "--namespace-id", kvId]);
      await edge.call("DELETE", "/r2/buckets/wr-fid-bucket/objects/report.csv");
      await wrangler(["r2", "bucket", "delete", "wr-fid-bucket"]);
      await wrangler(["d1", "delete", "wr-fid-db", "--skip-confirmation"]);
      const gone = await worker("/gone");
      assert.match(gone.kv, /^error: KV GET failed: 404 Not Found/);
      assert.match(gone.d1, /^error: D1_ERROR: The database .* could not be found/);
      assert.match(gone.r2, /^error: head: The specified bucket does not exist\. \(10006\)/);
    });
  },
);
