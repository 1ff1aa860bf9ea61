// Conformance with the current wrangler 4 (installed into ~/.cache/edgeflow/wrangler4 on first use, as wrangler 3 is
// into its own directory; see wrangler-cli.mjs): every command a user runs against an account, each against the
// edge with one account's own token. wrangler 3.114 keeps its own suites (wrangler.test.mjs and the others). Run with
// `npm run test:wrangler`; EDGE_SKIP_WRANGLER=1 skips it. What wrangler 4 shows differently from Cloudflare is in
// docs/edge.md, "Differences from Cloudflare".

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { asAccount, provision, startEdge, tempDir, waitFor, waitStatus } from "../helpers.mjs";
import { installWrangler, runWrangler, spawnWrangler, skip } from "./wrangler-cli.mjs";

let root;
let edge;
let other;
let project;
let home;
let kvId;
let dbId;
let version;

const SOURCE = `import { WorkflowEntrypoint, WorkflowEvent, WorkflowStep } from "cloudflare:workers";
type Env = { KV: KVNamespace; DB: D1Database; BUCKET: R2Bucket; GREETING: string; MY_SECRET?: string; OTHER_SECRET?: string };
export class DemoWorkflow extends WorkflowEntrypoint<Env, { n?: number; waitFor?: string }> {
  async run(event: WorkflowEvent<{ n?: number; waitFor?: string }>, step: WorkflowStep) {
    const doubled = await step.do("double", async () => (event.payload.n ?? 1) * 2);
    if (event.payload.waitFor) await step.waitForEvent("wait", { type: event.payload.waitFor, timeout: "1 hour" });
    return await step.do("store", async () => {
      await this.env.KV.put("last", String(doubled));
      return { doubled, greeting: this.env.GREETING };
    });
  }
}
export default {
  async fetch(req: Request, env: Env) {
    const u = new URL(req.url);
    console.log("request", u.pathname);
    const r = await env.DB.prepare("SELECT 1 AS one").first();
    return Response.json({ greeting: env.GREETING, secret: env.MY_SECRET ?? null, other: env.OTHER_SECRET ?? null, d1: r, marker: "MARK" });
  },
};
`;

before(async () => {
  if (skip) return;
  version = installWrangler(4);
  root = await startEdge();
  const mine = await provision(root, { name: "wrangler4", ref: "wrangler4" });
  assert.equal(mine.status, 201, JSON.stringify(mine.body));
  edge = asAccount(root, mine.body);
  other = asAccount(root, (await provision(root, { name: "other4", ref: "other4" })).body);
  await other.call("POST", "/storage/kv/namespaces", { title: "other4-kv" });
  project = tempDir("edge-wrangler4-project-");
  home = tempDir("edge-wrangler4-home-");
  kvId = (await edge.call("POST", "/storage/kv/namespaces", { title: "w4-kv" })).body.result.id;
  dbId = (await edge.call("POST", "/d1/database", { name: "w4-db" })).body.result.uuid;
  await edge.call("POST", "/r2/buckets", { name: "w4-bucket" });
  fs.mkdirSync(path.join(project, "src"));
  fs.writeFileSync(path.join(project, "src", "index.ts"), SOURCE.replace("MARK", "v1"));
  fs.writeFileSync(
    path.join(project, "wrangler.toml"),
    `name = "w4-demo"
main = "src/index.ts"
compatibility_date = "2026-11-17"
workers_dev = true

[vars]
GREETING = "hello from wrangler 4"

[[workflows]]
name = "w4-workflow"
binding = "MY_WORKFLOW"
class_name = "DemoWorkflow"

[[kv_namespaces]]
binding = "KV"
id = "${kvId}"

[[d1_databases]]
binding = "DB"
database_name = "w4-db"
database_id = "${dbId}"

[[r2_buckets]]
binding = "BUCKET"
bucket_name = "w4-bucket"
`,
  );
});

after(async () => {
  await root?.stop();
});

const wrangler = (args, { input, fail, accountId = edge.accountId } = {}) =>
  runWrangler(args, { project, home, edge, accountId, input, fail, major: 4 });
const json = async (args) => JSON.parse(await wrangler([...args, "--json"]));
const serve = async () => (await fetch(`${edge.ready.workers}/${edge.subdomain}/w4-demo/hi`)).json();
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

test("wrangler 4 against the local edge", { skip, timeout: 1800000 }, async (t) => {
  t.diagnostic(`wrangler ${version}`);

  await t.test("whoami shows the token's own account only", async () => {
    const who = await wrangler(["whoami"]);
    assert.match(who, new RegExp(edge.accountId));
    assert.doesNotMatch(who, new RegExp(`${other.accountId}|${root.ready.accountId}`));
  });

  await t.test("deploy (first and second) and the worker serves", async () => {
    const first = await wrangler(["deploy"]);
    assert.match(first, /Current Version ID/);
    assert.deepEqual((await serve()).greeting, "hello from wrangler 4");
    assert.equal((await edge.call("GET", "/workflows/w4-workflow")).body.result.script_name, "w4-demo");
    fs.writeFileSync(path.join(project, "src", "index.ts"), SOURCE.replace("MARK", "v2"));
    await wrangler(["deploy"]);
    assert.equal((await serve()).marker, "v2");
  });

  await t.test("versions list, view, upload and deploy; deployments list and status; rollback", async () => {
    const versions = await json(["versions", "list"]);
    assert.ok(versions.length >= 2, JSON.stringify(versions).slice(0, 300));
    const latest = versions.at(-1);
    const view = await json(["versions", "view", latest.id]);
    assert.equal(view.id, latest.id);
    fs.writeFileSync(path.join(project, "src", "index.ts"), SOURCE.replace("MARK", "v3"));
    const uploaded = await wrangler(["versions", "upload", "--message", "third"]);
    const v3 = UUID.exec(/Worker Version ID: (\S+)/.exec(uploaded)?.[1] ?? "")?.[0];
    assert.ok(v3, uploaded);
    assert.equal((await serve()).marker, "v2", "an uploaded version does not serve yet");
    await wrangler(["versions", "deploy", `${v3}@100%`, "--yes", "--message", "deploy third"]);
    assert.equal((await serve()).marker, "v3");
    const deployments = await json(["deployments", "list"]);
    assert.ok(deployments.length >= 3);
    const status = await json(["deployments", "status"]);
    assert.equal(status.versions[0].version_id, v3);
    const previous = deployments.at(-2).versions[0].version_id;
    await wrangler(["rollback", previous, "--message", "back", "--yes"]);
    assert.equal((await serve()).marker, "v2");
    assert.equal((await json(["deployments", "status"])).versions[0].version_id, previous);
  });

  await t.test("secret put, list, bulk and delete; the worker sees them", async () => {
    await wrangler(["secret", "put", "MY_SECRET"], { input: "s3cr3t\n" });
    const list = await json(["secret", "list", "--format", "json"]).catch(async () =>
      JSON.parse(await wrangler(["secret", "list", "--format", "json"])),
    );
    assert.ok(
      list.some((s) => s.name === "MY_SECRET"),
      JSON.stringify(list),
    );
    const file = path.join(project, "secrets.json");
    fs.writeFileSync(file, JSON.stringify({ OTHER_SECRET: "bulk-1" }));
    await wrangler(["secret", "bulk", file]);
    let res = await serve();
    assert.deepEqual([res.secret, res.other], ["s3cr3t", "bulk-1"]);
    await wrangler(["secret", "delete", "OTHER_SECRET", "--force"]).catch(() =>
      wrangler(["secret", "delete", "OTHER_SECRET"], { input: "y\n" }),
    );
    res = await serve();
    assert.equal(res.other, null);
    assert.equal(res.secret, "s3cr3t");
  });

  await t.test(
    "kv namespace create, list, delete; kv key put, get, list, delete; kv bulk put, get, delete",
    async () => {
      const created = await wrangler(["kv", "namespace", "create", "w4-made"]);
      const madeId = /"?id"?\s*[=:]\s*"([0-9a-f]{32})"/.exec(created)?.[1];
      assert.ok(madeId, created);
      const namespaces = await wrangler(["kv", "namespace", "list"]);
      assert.match(namespaces, new RegExp(kvId));
      assert.match(namespaces, new RegExp(madeId));
      assert.doesNotMatch(namespaces, /other4-kv/);
      await wrangler(["kv", "key", "put", "--namespace-id", kvId, "k 1/x", "value-of-k1", "--remote"]);
      assert.equal(
        (await wrangler(["kv", "key", "get", "--namespace-id", kvId, "k 1/x", "--remote", "--text"]))
          .trim()
          .split("\n")
          .at(-1),
        "value-of-k1",
      );
      assert.match(
        await wrangler(["kv", "key", "list", "--namespace-id", kvId, "--prefix", "k", "--remote"]),
        /k 1\/x/,
      );
      await wrangler(["kv", "key", "delete", "--namespace-id", kvId, "k 1/x", "--remote"]);
      assert.equal(
        (await edge.call("GET", `/storage/kv/namespaces/${kvId}/values/${encodeURIComponent("k 1/x")}`)).status,
        404,
      );
      const bulk = path.join(project, "bulk.json");
      fs.writeFileSync(
        bulk,
        JSON.stringify([
          { key: "b1", value: "one" },
          { key: "b2", value: "two" },
        ]),
      );
      await wrangler(["kv", "bulk", "put", bulk, "--namespace-id", kvId, "--remote"]);
      const keys = path.join(project, "keys.json");
      fs.writeFileSync(keys, JSON.stringify(["b1", "b2"]));
      const got = await wrangler(["kv", "bulk", "get", keys, "--namespace-id", kvId, "--remote"]);
      assert.match(got, /one/);
      assert.match(got, /two/);
      await wrangler(["kv", "bulk", "delete", keys, "--namespace-id", kvId, "--remote", "--force"]);
      assert.equal((await edge.call("GET", `/storage/kv/namespaces/${kvId}/values/b1`)).status, 404);
      await wrangler(["kv", "namespace", "delete", "--namespace-id", madeId, "--skip-confirmation"]).catch(() =>
        wrangler(["kv", "namespace", "delete", "--namespace-id", madeId], { input: "y\n" }),
      );
      assert.equal((await edge.call("GET", `/storage/kv/namespaces/${madeId}`)).status, 404);
    },
  );

  await t.test("d1 create, list, execute --remote (command and file), export, time-travel", async () => {
    const created = await wrangler(["d1", "create", "w4-made-db"]);
    assert.match(created, UUID);
    const dbs = await json(["d1", "list"]);
    assert.deepEqual(dbs.map((d) => d.name).sort(), ["w4-db", "w4-made-db"]);
    await wrangler([
      "d1",
      "execute",
      "w4-db",
      "--remote",
      "--command",
      "CREATE TABLE IF NOT EXISTS w (x INTEGER); INSERT INTO w VALUES (7)",
    ]);
    const out = await wrangler([
      "d1",
      "execute",
      "w4-db",
      "--remote",
      "--command",
      "SELECT x * 6 AS answer FROM w",
      "--json",
    ]);
    assert.match(out, /"answer": 42/);
    fs.writeFileSync(
      path.join(project, "seed.sql"),
      "CREATE TABLE seeded (a TEXT);\nINSERT INTO seeded VALUES ('from a file');\n",
    );
    await wrangler(["d1", "execute", "w4-db", "--remote", "--file", "seed.sql", "--yes"]);
    assert.match(
      await wrangler(["d1", "execute", "w4-db", "--remote", "--command", "SELECT a FROM seeded", "--json"]),
      /from a file/,
    );
    await wrangler(["d1", "export", "w4-db", "--remote", "--output", "dump.sql"]);
    assert.match(fs.readFileSync(path.join(project, "dump.sql"), "utf8"), /INSERT INTO "?seeded"?/);
    const tt = await wrangler(["d1", "time-travel", "info", "w4-db"], { fail: true });
    assert.notEqual(tt.code, 0);
    assert.match(tt.out, /Time Travel is not available on the local edge/);
  });

  await t.test("r2 bucket create, list, delete; r2 object put, get, delete", async () => {
    await wrangler(["r2", "bucket", "create", "w4-made-bucket"]);
    const buckets = await wrangler(["r2", "bucket", "list"]);
    assert.match(buckets, /w4-bucket/);
    assert.match(buckets, /w4-made-bucket/);
    const src = path.join(project, "object.txt");
    fs.writeFileSync(src, "r2 bytes");
    await wrangler([
      "r2",
      "object",
      "put",
      "w4-bucket/dir/o.txt",
      "--file",
      src,
      "--content-type",
      "text/plain",
      "--remote",
    ]);
    const dst = path.join(project, "got.txt");
    await wrangler(["r2", "object", "get", "w4-bucket/dir/o.txt", "--file", dst, "--remote"]);
    assert.equal(fs.readFileSync(dst, "utf8"), "r2 bytes");
    await wrangler(["r2", "object", "delete", "w4-bucket/dir/o.txt", "--remote"]);
    assert.equal((await edge.call("GET", "/r2/buckets/w4-bucket/objects/dir/o.txt")).status, 404);
    await wrangler(["r2", "bucket", "delete", "w4-made-bucket"]);
    assert.doesNotMatch(await wrangler(["r2", "bucket", "list"]), /w4-made-bucket/);
  });

  await t.test(
    "workflows list, describe, trigger; instances list, describe, send-event, pause, resume, terminate, restart, delete",
    async () => {
      assert.match(await wrangler(["workflows", "list"]), /w4-workflow/);
      assert.match(await wrangler(["workflows", "describe", "w4-workflow"]), /DemoWorkflow/);
      await wrangler(["workflows", "trigger", "w4-workflow", '{"n":21}', "--id", "w4-1"]);
      const done = await waitStatus(edge, "w4-workflow", "w4-1", "complete");
      assert.deepEqual(done.output, { doubled: 42, greeting: "hello from wrangler 4" });
      const desc = await wrangler(["workflows", "instances", "describe", "w4-workflow", "w4-1"]);
      assert.match(desc, /double/);
      assert.match(desc, /Completed/);
      const list = await json(["workflows", "instances", "list", "w4-workflow"]);
      assert.ok(
        list.some((i) => i.id === "w4-1"),
        JSON.stringify(list).slice(0, 300),
      );
      await wrangler(["workflows", "trigger", "w4-workflow", '{"waitFor":"go"}', "--id", "w4-2"]);
      await waitStatus(edge, "w4-workflow", "w4-2", "waiting");
      await wrangler(["workflows", "instances", "pause", "w4-workflow", "w4-2"]);
      await waitStatus(edge, "w4-workflow", "w4-2", "paused");
      await wrangler(["workflows", "instances", "resume", "w4-workflow", "w4-2"]);
      await waitStatus(edge, "w4-workflow", "w4-2", "waiting");
      await wrangler([
        "workflows",
        "instances",
        "send-event",
        "w4-workflow",
        "w4-2",
        "--type",
        "go",
        "--payload",
        '{"ok":true}',
      ]);
      await waitStatus(edge, "w4-workflow", "w4-2", "complete");
      await wrangler(["workflows", "instances", "restart", "w4-workflow", "w4-2", "--from-step-name", "double"]);
      await waitFor(
        async () => (await edge.call("GET", "/workflows/w4-workflow/instances/w4-2")).body.result.status === "waiting",
        { what: "w4-2 to run again from double and wait" },
      );
      await wrangler(["workflows", "instances", "terminate", "w4-workflow", "w4-2"]);
      await waitStatus(edge, "w4-workflow", "w4-2", "terminated");
      await wrangler(["workflows", "instances", "delete", "w4-workflow", "w4-1", "w4-2"]);
      for (const id of ["w4-1", "w4-2"])
        assert.equal((await edge.call("GET", `/workflows/w4-workflow/instances/${id}`)).status, 404);
      const missing = await wrangler(["workflows", "instances", "delete", "w4-workflow", "never-was"], { fail: true });
      assert.notEqual(missing.code, 0);
      assert.match(missing.out, /instance\.not_found/);
    },
  );

  await t.test("workflows instances terminate-all", async () => {
    await wrangler(["workflows", "trigger", "w4-workflow", '{"waitFor":"never"}', "--id", "w4-all"]);
    await waitStatus(edge, "w4-workflow", "w4-all", "waiting");
    assert.match(
      await wrangler(["workflows", "instances", "terminate-all", "w4-workflow"]),
      /job to terminate instances/,
    );
    await waitStatus(edge, "w4-workflow", "w4-all", "terminated");
  });

  await t.test("a trigger of an id that exists is refused with instance.already_exists", async () => {
    await wrangler(["workflows", "trigger", "w4-workflow", "{}", "--id", "w4-dup"]);
    const again = await wrangler(["workflows", "trigger", "w4-workflow", "{}", "--id", "w4-dup"], { fail: true });
    assert.notEqual(again.code, 0);
    assert.match(again.out, /instance\.already_exists|10405/);
  });

  await t.test("tail prints the worker's requests", async () => {
    const { child, out } = spawnWrangler(["tail", "w4-demo", "--format", "json"], {
      project,
      home,
      edge,
      stdin: "ignore",
      timeoutMs: 60000,
      major: 4,
    });
    try {
      await waitFor(async () => (await edge.call("GET", "/workers/scripts/w4-demo/tails")).body.result.length === 1, {
        what: "the tail session",
      });
      await waitFor(
        async () => {
          await serve().catch(() => {});
          return /"outcome"\s*:\s*"ok"/.test(out.text) && /request/.test(out.text);
        },
        {
          what: `a trace item from wrangler tail (output: ${out.text.slice(-300)})`,
          intervalMs: 500,
          timeoutMs: 30000,
        },
      );
    } finally {
      child.kill("SIGINT");
      await waitFor(() => out.code !== null || child.exitCode !== null || child.signalCode !== null, {
        what: "wrangler to stop",
        timeoutMs: 15000,
      }).catch(() => child.kill("SIGKILL"));
    }
  });

  await t.test("workflows delete, then delete the worker", async () => {
    await wrangler(["workflows", "delete", "w4-workflow"]).catch(() =>
      wrangler(["workflows", "delete", "w4-workflow"], { input: "y\n" }),
    );
    assert.equal((await edge.call("GET", "/workflows/w4-workflow")).status, 404);
    await wrangler(["delete", "--force"]);
    assert.equal((await edge.call("GET", "/workers/services/w4-demo")).status, 404);
  });

  await t.test("attack: the account's token on another account is refused", async () => {
    for (const accountId of [other.accountId, root.ready.accountId]) {
      await assert.rejects(wrangler(["kv", "namespace", "list"], { accountId }), /Unauthorized|9109|403/);
    }
    assert.deepEqual((await other.call("GET", "/workers/scripts")).body.result, []);
  });
});
