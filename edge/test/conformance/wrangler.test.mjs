// Conformance with the real wrangler CLI (wrangler@3, the last major that runs on Node 20), installed into a
// cache directory outside the repository and pointed at the edge with CLOUDFLARE_API_BASE_URL.
// EDGE_SKIP_WRANGLER=1 skips it (for machines without the npm registry). It is not part of `npm test` (which stays
// under a minute); run it with `npm run test:wrangler`. wrangler runs with one account's own token, as an
// organization's would: it sees that account only, and is refused on another (see docs/edge.md, "Accounts").

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { asAccount, provision, startEdge, tempDir, waitStatus } from "../helpers.mjs";
import { installWrangler, runWrangler, skip } from "./wrangler-cli.mjs";

let root; // the edge with its root token
let edge; // the account wrangler acts as
let other; // another account on the same edge
let otherKv;
let project;
let home;
let kvId;
let dbId;

before(async () => {
  if (skip) return;
  installWrangler();
  root = await startEdge();
  const mine = await provision(root, { name: "wrangler", ref: "wrangler" });
  assert.equal(mine.status, 201, JSON.stringify(mine.body));
  edge = asAccount(root, mine.body);
  const theirs = await provision(root, { name: "other", ref: "other" });
  other = asAccount(root, theirs.body);
  otherKv = (await other.call("POST", "/storage/kv/namespaces", { title: "other-kv" })).body.result.id;
  await other.call("POST", "/d1/database", { name: "other-db" });
  await other.call("POST", "/r2/buckets", { name: "other-bucket" });
  project = tempDir("edge-wrangler-project-");
  home = tempDir("edge-wrangler-home-");
  kvId = (await edge.call("POST", "/storage/kv/namespaces", { title: "wr-kv" })).body.result.id;
  await edge.call("PUT", `/storage/kv/namespaces/${kvId}/values/${encodeURIComponent("k 1/x")}`, "value-of-k1");
  dbId = (await edge.call("POST", "/d1/database", { name: "wr-db" })).body.result.uuid;
  await edge.call("POST", "/r2/buckets", { name: "wr-bucket" });
  fs.mkdirSync(path.join(project, "src"));
  fs.writeFileSync(
    path.join(project, "src", "index.ts"),
    `import { WorkflowEntrypoint, WorkflowEvent, WorkflowStep } from "cloudflare:workers";
type Env = { KV: KVNamespace; DB: D1Database; GREETING: string; MY_SECRET?: string };
export class DemoWorkflow extends WorkflowEntrypoint<Env, { n?: number; waitFor?: string }> {
  async run(event: WorkflowEvent<{ n?: number; waitFor?: string }>, step: WorkflowStep) {
    const doubled = await step.do("double", async () => (event.payload.n ?? 1) * 2);
    if (event.payload.waitFor) await step.waitForEvent("wait", { type: event.payload.waitFor, timeout: "1 hour" });
    const stored = await step.do("store", async () => {
      await this.env.KV.put("last", String(doubled));
      return { doubled, greeting: this.env.GREETING };
    });
    return stored;
  }
}
export default {
  async fetch(req: Request, env: Env) {
    const r = await env.DB.prepare("SELECT 1 AS one").first();
    return Response.json({ greeting: env.GREETING, secret: env.MY_SECRET ?? null, d1: r });
  },
};
`,
  );
  fs.writeFileSync(
    path.join(project, "wrangler.toml"),
    `name = "wr-demo"
main = "src/index.ts"
compatibility_date = "2025-01-01"

[vars]
GREETING = "hello from wrangler"

[[workflows]]
name = "wr-workflow"
binding = "MY_WORKFLOW"
class_name = "DemoWorkflow"

[[kv_namespaces]]
binding = "KV"
id = "${kvId}"

[[d1_databases]]
binding = "DB"
database_name = "wr-db"
database_id = "${dbId}"

[[r2_buckets]]
binding = "BUCKET"
bucket_name = "wr-bucket"
`,
  );
});

after(async () => {
  await root?.stop();
});

// wrangler runs the CLI as the account (or, with accountId, naming another account with this account's token).
const wrangler = (args, { input, accountId = edge.accountId } = {}) =>
  runWrangler(args, { project, home, edge, accountId, input });

test("wrangler@3 against the local edge", { skip, timeout: 600000 }, async (t) => {
  await t.test("deploy (first and second) and the worker serves", async () => {
    await wrangler(["deploy"]);
    let r = await edge.call("GET", "/workers/services/wr-demo");
    assert.equal(r.status, 200);
    assert.equal(r.body.result.default_environment.script.last_deployed_from, "wrangler");
    r = await edge.call("GET", "/workflows/wr-workflow");
    assert.equal(r.body.result.script_name, "wr-demo");
    const res = await (await fetch(`${edge.ready.workers}/${edge.subdomain}/wr-demo`)).json();
    assert.deepEqual(res, { greeting: "hello from wrangler", secret: null, d1: { one: 1 } });
    await wrangler(["deploy"]); // the versions + deployments path
    const d = await edge.call("GET", "/workers/scripts/wr-demo/deployments");
    assert.ok(d.body.result.deployments.length >= 2);
  });

  await t.test("workflows trigger, instances describe, pause, resume, terminate", async () => {
    await wrangler(["workflows", "trigger", "wr-workflow", '{"n":21}', "--id", "wr-1"]);
    const done = await waitStatus(edge, "wr-workflow", "wr-1", "complete");
    assert.deepEqual(done.output, { doubled: 42, greeting: "hello from wrangler" });
    const desc = await wrangler(["workflows", "instances", "describe", "wr-workflow", "wr-1"]);
    assert.match(desc, /double/);
    assert.match(desc, /Completed|complete/i);
    await wrangler(["workflows", "trigger", "wr-workflow", '{"waitFor":"go"}', "--id", "wr-2"]);
    await waitStatus(edge, "wr-workflow", "wr-2", "waiting");
    await wrangler(["workflows", "instances", "pause", "wr-workflow", "wr-2"]);
    await waitStatus(edge, "wr-workflow", "wr-2", "paused");
    await wrangler(["workflows", "instances", "resume", "wr-workflow", "wr-2"]);
    await waitStatus(edge, "wr-workflow", "wr-2", "waiting");
    await wrangler(["workflows", "instances", "terminate", "wr-workflow", "wr-2"]);
    await waitStatus(edge, "wr-workflow", "wr-2", "terminated");
    const list = await wrangler(["workflows", "list"]);
    assert.match(list, /wr-workflow/);
    const kv = await edge.call("GET", `/storage/kv/namespaces/${kvId}/values/last`, undefined, { raw: true });
    assert.equal(await kv.text(), "42");
  });

  await t.test("kv namespace list, kv key list, kv key get", async () => {
    const namespaces = await wrangler(["kv", "namespace", "list"]);
    assert.match(namespaces, new RegExp(kvId));
    assert.doesNotMatch(namespaces, new RegExp(`${otherKv}|other-kv`));
    const keys = await wrangler(["kv", "key", "list", "--namespace-id", kvId, "--prefix", "k"]);
    assert.match(keys, /k 1\/x/);
    assert.match(await wrangler(["kv", "key", "get", "--namespace-id", kvId, "k 1/x"]), /value-of-k1/);
  });

  await t.test("d1 list, d1 execute --remote", async () => {
    const dbs = await wrangler(["d1", "list"]);
    assert.match(dbs, /wr-db/);
    assert.doesNotMatch(dbs, /other-db/);
    await wrangler([
      "d1",
      "execute",
      "wr-db",
      "--remote",
      "--command",
      "CREATE TABLE IF NOT EXISTS w (x INTEGER); INSERT INTO w VALUES (7)",
    ]);
    const out = await wrangler([
      "d1",
      "execute",
      "wr-db",
      "--remote",
      "--command",
      "SELECT x * 6 AS answer FROM w",
      "--json",
    ]);
    assert.match(out, /"answer": 42/);
  });

  await t.test("r2 bucket list", async () => {
    const buckets = await wrangler(["r2", "bucket", "list"]);
    assert.match(buckets, /wr-bucket/);
    assert.doesNotMatch(buckets, /other-bucket/);
  });

  await t.test("secret put, secret list; the worker sees it", async () => {
    await wrangler(["secret", "put", "MY_SECRET"], { input: "s3cr3t\n" });
    assert.match(await wrangler(["secret", "list"]), /MY_SECRET/);
    const res = await (await fetch(`${edge.ready.workers}/${edge.subdomain}/wr-demo`)).json();
    assert.equal(res.secret, "s3cr3t");
  });

  await t.test("whoami shows the token's own account only", async () => {
    const who = await wrangler(["whoami"]);
    assert.match(who, new RegExp(edge.accountId));
    assert.doesNotMatch(who, new RegExp(`${other.accountId}|${root.ready.accountId}`));
  });

  await t.test("attack: the account's token on another account is refused", async () => {
    for (const accountId of [other.accountId, root.ready.accountId]) {
      await assert.rejects(wrangler(["kv", "namespace", "list"], { accountId }), /Unauthorized|9109|403/);
    }
    // and the other account's own data is untouched and unseen
    const r = await other.call("GET", "/workers/scripts");
    assert.deepEqual(r.body.result, []);
  });

  await t.test("delete", async () => {
    await wrangler(["delete", "--force"]);
    const r = await edge.call("GET", "/workers/services/wr-demo");
    assert.equal(r.status, 404);
  });
});
