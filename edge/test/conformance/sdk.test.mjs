// Conformance with the Cloudflare TypeScript SDK (`cloudflare` 7.x, its newest release, a devDependency), pointed at
// the edge with baseURL and acting with one account's own token, as a program of a user's would. Each case names the Cloudflare
// behaviour it checks (a documented limit, error code or field). It shares one edge and stays well under a minute.
// Run with `npm run test:wrangler` (all conformance suites) or `node --test test/conformance/sdk.test.mjs`.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import Cloudflare, { toFile } from "cloudflare";
import { asAccount, deployDemo, provision, startEdge, sweepRetention, waitFor, waitStatus } from "../helpers.mjs";

let root;
let edge; // the account the SDK acts as
let cf; // the SDK client, no retries
let account_id;

// rejects runs fn, expects the SDK to throw an API error and returns it.
async function rejects(fn) {
  try {
    await fn();
  } catch (err) {
    if (err instanceof Cloudflare.APIError && err.status !== undefined) return err;
    throw err;
  }
  assert.fail("the call succeeded; an API error was expected");
}

before(async () => {
  root = await startEdge();
  const mine = await provision(root, { name: "sdk", ref: "sdk" });
  assert.equal(mine.status, 201, JSON.stringify(mine.body));
  edge = asAccount(root, mine.body);
  account_id = mine.body.id;
  cf = new Cloudflare({ apiToken: mine.body.token, baseURL: root.ready.api, maxRetries: 0 });
});

after(async () => {
  await root?.stop();
});

test("token verify: a good token is active; a bad one is 401 with code 1000 Invalid API Token (what wrangler's whoami reads)", async () => {
  const ok = await cf.user.tokens.verify();
  assert.equal(ok.status, "active");
  const own = await cf.accounts.tokens.verify({ account_id });
  assert.equal(own.status, "active");
  const bad = new Cloudflare({ apiToken: "not-a-token", baseURL: root.ready.api, maxRetries: 0 });
  for (const call of [() => bad.user.tokens.verify(), () => bad.accounts.tokens.verify({ account_id })]) {
    const err = await rejects(call);
    assert.equal(err.status, 401);
    assert.deepEqual(err.errors, [{ code: 1000, message: "Invalid API Token" }]);
  }
  // every other route keeps 10000 Authentication error
  const other = await rejects(() => bad.kv.namespaces.list({ account_id }));
  assert.equal(other.errors[0].code, 10000);
});

test("accounts and memberships lists: per_page is 5..50 and `name` filters accounts (Cloudflare's GET /accounts, /memberships)", async () => {
  const all = await cf.accounts.list({ per_page: 5 });
  assert.deepEqual(
    all.result.map((a) => a.id),
    [account_id],
  );
  assert.equal((await cf.accounts.list({ name: "sdk" })).result.length, 1);
  assert.equal((await cf.accounts.list({ name: "someone-else" })).result.length, 0);
  for (const per_page of [1, 4, 51]) {
    const err = await rejects(() => cf.accounts.list({ per_page }));
    assert.equal(err.status, 400, `per_page ${per_page}`);
    assert.match(err.errors[0].message, /per_page must be between 5 and 50/);
  }
  const memberships = await cf.memberships.list({ per_page: 5 });
  assert.deepEqual(
    memberships.result.map((m) => m.account.id),
    [account_id],
  );
  const small = await rejects(() => cf.memberships.list({ per_page: 2 }));
  assert.equal(small.status, 400);
});

test("KV bulk write: a pair Cloudflare refuses (expiration_ttl < 60, metadata > 1024 bytes, expiration in the past) fails the request, naming each pair, and nothing is written", async () => {
  const ns = await cf.kv.namespaces.create({ account_id, title: "sdk-bulk" });
  const now = Math.floor(Date.now() / 1000);
  const err = await rejects(() =>
    cf.kv.namespaces.bulkUpdate(ns.id, {
      account_id,
      body: [
        { key: "good", value: "v" },
        { key: "short-ttl", value: "v", expiration_ttl: 10 },
        { key: "big-md", value: "v", metadata: { pad: "x".repeat(1100) } },
        { key: "past", value: "v", expiration: now - 10 },
        { key: "soon", value: "v", expiration: now + 30 },
      ],
    }),
  );
  assert.equal(err.status, 400);
  const messages = err.errors.map((e) => e.message);
  assert.deepEqual(messages, [
    "[1] (key 'short-ttl'): Invalid expiration_ttl of 10. Expiration TTL must be at least 60.",
    `[2] (key 'big-md'): Metadata length of ${JSON.stringify({ pad: "x".repeat(1100) }).length} exceeds limit of 1024.`,
    `[3] (key 'past'): Invalid expiration of ${now - 10}. Please specify integer greater than the current number of seconds since the UNIX epoch.`,
    `[4] (key 'soon'): Invalid expiration of ${now + 30}. Expiration times must be at least 60 seconds in the future.`,
  ]);
  const got = await cf.kv.namespaces.bulkGet(ns.id, { account_id, keys: ["good", "short-ttl"] });
  assert.deepEqual(got.values, { good: null, "short-ttl": null }, "nothing of a refused bulk write is stored");

  // Cloudflare: at most 10,000 pairs per bulk write and 10,000 keys per bulk delete
  const many = Array.from({ length: 10001 }, (_, i) => ({ key: `k${i}`, value: "v" }));
  const tooMany = await rejects(() => cf.kv.namespaces.bulkUpdate(ns.id, { account_id, body: many }));
  assert.equal(tooMany.status, 400);
  assert.match(tooMany.errors[0].message, /at most 10000 pairs/);
  const tooManyDeletes = await rejects(() =>
    cf.kv.namespaces.bulkDelete(ns.id, { account_id, body: many.map((p) => p.key) }),
  );
  assert.equal(tooManyDeletes.status, 400);
  assert.match(tooManyDeletes.errors[0].message, /at most 10000 keys/);

  // a body over 10 MiB (the old cap) but under Cloudflare's 100 MB is written
  const big = "x".repeat(1 << 20);
  const put = await cf.kv.namespaces.bulkUpdate(ns.id, {
    account_id,
    body: Array.from({ length: 12 }, (_, i) => ({ key: `big${i}`, value: big })),
  });
  assert.deepEqual(put, { successful_key_count: 12, unsuccessful_keys: [] });
});

test("KV: bulk get (POST …/bulk/get, at most 100 keys, type json, withMetadata with expiration) and a value read carries the expiration header", async () => {
  const ns = await cf.kv.namespaces.create({ account_id, title: "sdk-get" });
  const now = Math.floor(Date.now() / 1000);
  const put = await cf.kv.namespaces.bulkUpdate(ns.id, {
    account_id,
    body: [
      { key: "plain", value: "hello" },
      { key: "doc", value: JSON.stringify({ a: 1 }), metadata: { tag: "t" }, expiration_ttl: 3600 },
      { key: "bin", value: Buffer.from("raw bytes").toString("base64"), base64: true, expiration: now + 7200 },
    ],
  });
  assert.equal(put.successful_key_count, 3);
  const text = await cf.kv.namespaces.bulkGet(ns.id, { account_id, keys: ["plain", "doc", "missing"] });
  assert.deepEqual(text.values, { plain: "hello", doc: '{"a":1}', missing: null });
  const json = await cf.kv.namespaces.bulkGet(ns.id, { account_id, keys: ["doc"], type: "json", withMetadata: true });
  assert.deepEqual(json.values.doc.value, { a: 1 });
  assert.deepEqual(json.values.doc.metadata, { tag: "t" });
  assert.ok(Math.abs(json.values.doc.expiration - (now + 3600)) <= 5, `expiration ${json.values.doc.expiration}`);
  const notJson = await rejects(() => cf.kv.namespaces.bulkGet(ns.id, { account_id, keys: ["plain"], type: "json" }));
  assert.equal(notJson.status, 400);
  const tooMany = await rejects(() =>
    cf.kv.namespaces.bulkGet(ns.id, { account_id, keys: Array.from({ length: 101 }, (_, i) => `k${i}`) }),
  );
  assert.match(tooMany.errors[0].message, /at most 100 keys/);

  const res = await cf.kv.namespaces.values.get("bin", { account_id, namespace_id: ns.id });
  assert.equal(await res.text(), "raw bytes");
  assert.equal(res.headers.get("expiration"), String(now + 7200));
  const plain = await cf.kv.namespaces.values.get("plain", { account_id, namespace_id: ns.id });
  assert.equal(plain.headers.get("expiration"), null, "a key that never expires has no expiration header");
});

test("409 answers no retry can fix carry x-should-retry: false, so the SDK fails at once instead of retrying", async () => {
  let calls = 0;
  const counting = new Cloudflare({
    apiToken: edge.token,
    baseURL: root.ready.api,
    maxRetries: 2,
    fetch: (url, init) => {
      calls++;
      return fetch(url, init);
    },
  });
  await counting.r2.buckets.create({ account_id, name: "sdk-twice" });
  calls = 0;
  const err = await rejects(() => counting.r2.buckets.create({ account_id, name: "sdk-twice" }));
  assert.equal(err.status, 409);
  assert.equal(err.headers.get("x-should-retry"), "false");
  assert.equal(calls, 1, "one request, no retries");
});

test("R2: bucket create keeps storageClass, locationHint and jurisdiction (cf-r2-jurisdiction); PATCH changes the storage class (cf-r2-storage-class)", async () => {
  const b = await cf.r2.buckets.create({
    account_id,
    name: "sdk-eu",
    locationHint: "weur",
    storageClass: "InfrequentAccess",
    "cf-r2-jurisdiction": "eu",
  });
  assert.deepEqual(
    { ...b, creation_date: undefined },
    {
      name: "sdk-eu",
      creation_date: undefined,
      location: "WEUR",
      storage_class: "InfrequentAccess",
      jurisdiction: "eu",
    },
  );
  const got = await cf.r2.buckets.get("sdk-eu", { account_id, "cf-r2-jurisdiction": "eu" });
  assert.equal(got.storage_class, "InfrequentAccess");
  // Cloudflare: a bucket of the eu jurisdiction is found only with that jurisdiction
  const missing = await rejects(() => cf.r2.buckets.get("sdk-eu", { account_id }));
  assert.equal(missing.status, 404);
  assert.equal(missing.errors[0].code, 10006);
  const listed = await cf.r2.buckets.list({ account_id, "cf-r2-jurisdiction": "eu" });
  assert.deepEqual(
    listed.buckets.map((x) => x.name),
    ["sdk-eu"],
  );
  const edited = await cf.r2.buckets.edit("sdk-eu", {
    account_id,
    "cf-r2-jurisdiction": "eu",
    storage_class: "Standard",
  });
  assert.equal(edited.storage_class, "Standard");
  assert.equal(
    (await cf.r2.buckets.get("sdk-eu", { account_id, "cf-r2-jurisdiction": "eu" })).storage_class,
    "Standard",
  );
  const badClass = await rejects(() =>
    cf.r2.buckets.edit("sdk-eu", { account_id, "cf-r2-jurisdiction": "eu", storage_class: "Glacier" }),
  );
  assert.equal(badClass.status, 400);
  const badHint = await rejects(() => cf.r2.buckets.create({ account_id, name: "sdk-mars", locationHint: "mars" }));
  assert.equal(badHint.status, 400);
  const plain = await cf.r2.buckets.create({ account_id, name: "sdk-plain" });
  assert.equal(plain.storage_class, "Standard");
  assert.equal(plain.jurisdiction, "default");
});

test("D1: read_replication is set by PUT and PATCH and shown on get; query meta has served_by_region, served_by_primary and timings", async () => {
  const db = await cf.d1.database.create({ account_id, name: "sdk-db" });
  assert.deepEqual((await cf.d1.database.get(db.uuid, { account_id })).read_replication, { mode: "disabled" });
  const put = await cf.d1.database.update(db.uuid, { account_id, read_replication: { mode: "auto" } });
  assert.deepEqual(put.read_replication, { mode: "auto" });
  assert.deepEqual((await cf.d1.database.get(db.uuid, { account_id })).read_replication, { mode: "auto" });
  const patched = await cf.d1.database.edit(db.uuid, { account_id, read_replication: { mode: "disabled" } });
  assert.deepEqual(patched.read_replication, { mode: "disabled" });
  const bad = await rejects(() =>
    cf.d1.database.update(db.uuid, { account_id, read_replication: { mode: "sometimes" } }),
  );
  assert.equal(bad.status, 400);
  const page = await cf.d1.database.query(db.uuid, { account_id, sql: "SELECT 1 AS one" });
  const [r] = page.result;
  assert.deepEqual(r.results, [{ one: 1 }]);
  assert.equal(r.meta.served_by_primary, true);
  assert.equal(r.meta.served_by_region, "ENAM");
  assert.equal(typeof r.meta.timings.sql_duration_ms, "number");
});

const SCRIPT = `export default {
  async fetch(request, env) { return new Response("hi " + (env.TOKEN ?? "")); },
  async scheduled(event, env, ctx) {},
};
`;

// uploadScript uploads a module worker through the SDK's own request (its put): workers.scripts.update of the 7.x
// SDK sends the multipart body under Content-Type application/javascript with the metadata flattened into form
// fields, which Cloudflare refuses (the module fails to parse: cloudflare-typescript issue 2799), and so does the
// edge (see the next test).
async function uploadScript(name, extra = {}) {
  const form = new FormData();
  form.append(
    "metadata",
    new Blob([JSON.stringify({ main_module: "index.mjs", compatibility_date: "2025-01-01", ...extra })], {
      type: "application/json",
    }),
  );
  form.append("index.mjs", new File([SCRIPT], "index.mjs", { type: "application/javascript+module" }));
  const r = await cf.put(`/accounts/${account_id}/workers/scripts/${name}`, { body: form });
  return r.result;
}

test("workers: the 7.x SDK's scripts.update is refused as Cloudflare refuses it (the module does not parse), and nothing is deployed", async () => {
  const err = await rejects(() =>
    cf.workers.scripts.update("sdk-broken", {
      account_id,
      metadata: { main_module: "index.mjs", compatibility_date: "2025-01-01" },
      files: [toFile(Buffer.from(SCRIPT), "index.mjs", { type: "application/javascript+module" })],
    }),
  );
  assert.equal(err.status, 400);
  assert.equal(err.errors[0].code, 10021);
  assert.match(err.errors[0].message, /SyntaxError/);
  assert.equal((await edge.call("GET", "/workers/scripts/sdk-broken")).status, 404);
});

test("workers: scripts have handlers, placement_mode only when smart and tail_consumers as an array; scripts-search finds them", async () => {
  const up = await uploadScript("sdk-worker", {
    placement: { mode: "smart" },
    tail_consumers: [{ service: "sdk-tail" }],
  });
  assert.deepEqual(up.handlers, ["fetch", "scheduled"]);
  assert.equal(up.placement_mode, "smart");
  assert.deepEqual(up.tail_consumers, [{ service: "sdk-tail" }]);
  await uploadScript("sdk-other");
  const scripts = [];
  for await (const s of cf.workers.scripts.list({ account_id })) scripts.push(s);
  const other = scripts.find((s) => s.id === "sdk-other");
  assert.deepEqual(other.handlers, ["fetch", "scheduled"]);
  assert.equal("placement_mode" in other, false, "no placement_mode without smart placement");
  assert.deepEqual(other.tail_consumers, []);
  const settings = await cf.workers.scripts.scriptAndVersionSettings.get("sdk-worker", { account_id });
  assert.deepEqual(settings.tail_consumers, [{ service: "sdk-tail" }]);
  assert.deepEqual(settings.placement, { mode: "smart" });
  // the 7.x SDK's edit flattens settings into form fields too (issue 2799): refused, as Cloudflare refuses it; the
  // same change as one JSON settings part goes through
  const flattened = await rejects(() =>
    cf.workers.scripts.scriptAndVersionSettings.edit("sdk-other", {
      account_id,
      settings: { placement: { mode: "smart" } },
    }),
  );
  assert.equal(flattened.status, 400);
  const form = new FormData();
  form.append("settings", new Blob([JSON.stringify({ placement: { mode: "smart" } })], { type: "application/json" }));
  const edited = (await cf.patch(`/accounts/${account_id}/workers/scripts/sdk-other/settings`, { body: form })).result;
  assert.deepEqual(edited.placement, { mode: "smart" });
  const relisted = [];
  for await (const s of cf.workers.scripts.list({ account_id })) relisted.push(s);
  assert.equal(relisted.find((s) => s.id === "sdk-other").placement_mode, "smart");

  // Cloudflare's GET …/workers/scripts-search: name matches part of a name, id a tag exactly, order_by name
  const found = await cf.workers.scripts.search({ account_id, name: "sdk-", order_by: "name" });
  assert.deepEqual(
    found.map((s) => s.script_name),
    ["sdk-other", "sdk-worker"],
  );
  const byTag = await cf.workers.scripts.search({ account_id, id: found[1].script_tag });
  assert.deepEqual(
    byTag.map((s) => s.script_name),
    ["sdk-worker"],
  );
  const badOrder = await rejects(() => cf.workers.scripts.search({ account_id, order_by: "size" }));
  assert.equal(badOrder.status, 400);
});

test("workers: deployments are read and deleted by id (not the latest); versions.list({deployable}) lists every deployable version without pages", async () => {
  await uploadScript("sdk-deploys");
  await uploadScript("sdk-deploys");
  const { deployments } = (await cf.workers.scripts.deployments.list("sdk-deploys", { account_id })).result;
  assert.equal(deployments.length, 2);
  const [latest, older] = deployments;
  const got = await cf.workers.scripts.deployments.get(older.id, { account_id, script_name: "sdk-deploys" });
  assert.deepEqual(got, older);
  const refuse = await rejects(() =>
    cf.workers.scripts.deployments.delete(latest.id, { account_id, script_name: "sdk-deploys" }),
  );
  assert.equal(refuse.status, 400);
  assert.match(refuse.errors[0].message, /latest deployment/);
  await cf.workers.scripts.deployments.delete(older.id, { account_id, script_name: "sdk-deploys" });
  const gone = await rejects(() =>
    cf.workers.scripts.deployments.get(older.id, { account_id, script_name: "sdk-deploys" }),
  );
  assert.equal(gone.status, 404);
  assert.equal((await cf.workers.scripts.deployments.list("sdk-deploys", { account_id })).result.deployments.length, 1);

  const page = await cf.workers.scripts.versions.list("sdk-deploys", { account_id, per_page: 1 });
  assert.equal(page.result.items.length, 1);
  const deployable = await cf.workers.scripts.versions.list("sdk-deploys", {
    account_id,
    deployable: true,
    per_page: 1,
  });
  assert.equal(deployable.result.items.length, 2, "deployable ignores pagination");
});

test("workers secrets: secret_text is kept; a secret_key is checked as Cloudflare checks it, then refused with 10021 saying what to do", async () => {
  await uploadScript("sdk-secrets");
  const text = await cf.workers.scripts.secrets.update("sdk-secrets", {
    account_id,
    name: "TOKEN",
    text: "s3cret",
    type: "secret_text",
  });
  assert.deepEqual(text, { name: "TOKEN", type: "secret_text" });
  const malformed = await rejects(() =>
    cf.workers.scripts.secrets.update("sdk-secrets", {
      account_id,
      name: "KEY",
      type: "secret_key",
      format: "pem",
      algorithm: { name: "HMAC" },
      usages: ["sign"],
    }),
  );
  assert.equal(malformed.status, 400);
  assert.match(malformed.errors[0].message, /format must be one of raw, pkcs8, spki, jwk/);
  const key = await rejects(() =>
    cf.workers.scripts.secrets.update("sdk-secrets", {
      account_id,
      name: "KEY",
      type: "secret_key",
      format: "raw",
      algorithm: { name: "HMAC", hash: "SHA-256" },
      usages: ["sign", "verify"],
      key_base64: Buffer.alloc(32, 7).toString("base64"),
    }),
  );
  assert.equal(key.status, 400);
  assert.equal(key.errors[0].code, 10021);
  assert.match(key.errors[0].message, /secret_key, which the local edge cannot bind .* store the key as a secret_text/);
  const list = [];
  for await (const s of cf.workers.scripts.secrets.list("sdk-secrets", { account_id })) list.push(s);
  assert.deepEqual(list, [{ name: "TOKEN", type: "secret_text" }]);
});

test("workflows: instance lists honour date_start, date_end and cursor; modified_on/started_on/ended_on follow the run; a sleeping step has end and error; a duplicate id is a 409 not retried", async () => {
  await deployDemo(edge, "sdk-wf");
  const before = new Date(Date.now() - 1000).toISOString();
  const ids = ["i1", "i2", "i3"];
  for (const id of ids)
    await cf.workflows.instances.create("sdk-wf", { account_id, instance_id: id, params: { n: 1 } });
  const sleeper = await cf.workflows.instances.create("sdk-wf", {
    account_id,
    instance_id: "sleeper",
    params: { sleepMs: 60000 },
  });
  for (const id of ids) await waitStatus(edge, "sdk-wf", id, "complete");

  const all = await cf.workflows.instances.list("sdk-wf", { account_id, direction: "asc" });
  assert.deepEqual(
    all.result.map((x) => x.id),
    [...ids, "sleeper"],
  );
  const done = all.result.find((x) => x.id === "i1");
  assert.ok(done.started_on && done.started_on >= done.created_on, JSON.stringify(done));
  assert.ok(done.ended_on && done.ended_on >= done.started_on, JSON.stringify(done));
  assert.ok(done.modified_on > done.created_on, `modified_on moves: ${JSON.stringify(done)}`);

  const future = new Date(Date.now() + 3600_000).toISOString();
  assert.equal((await cf.workflows.instances.list("sdk-wf", { account_id, date_start: future })).result.length, 0);
  assert.equal((await cf.workflows.instances.list("sdk-wf", { account_id, date_end: before })).result.length, 0);
  assert.equal((await cf.workflows.instances.list("sdk-wf", { account_id, date_start: before })).result.length, 4);
  const badDate = await rejects(() => cf.workflows.instances.list("sdk-wf", { account_id, date_start: "yesterday" }));
  assert.equal(badDate.status, 400);

  // cursor paging: each page starts after the last instance of the one before
  const seen = [];
  let cursor = "";
  do {
    const res = await edge.call(
      "GET",
      `/workflows/sdk-wf/instances?per_page=1&direction=asc${cursor ? `&cursor=${cursor}` : ""}`,
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    seen.push(...res.body.result.map((x) => x.id));
    cursor = res.body.result_info.cursor;
  } while (cursor);
  assert.deepEqual(seen, [...ids, "sleeper"]);

  const sleeping = await waitFor(async () => {
    const d = await cf.workflows.instances.get(sleeper.id, { account_id, workflow_name: "sdk-wf" });
    return d.steps.find((s) => s.type === "sleep") ? d : false;
  });
  const nap = sleeping.steps.find((s) => s.type === "sleep");
  assert.equal(nap.finished, false);
  assert.ok("end" in nap && "error" in nap, JSON.stringify(nap));
  assert.equal(nap.error, null);
  assert.equal(nap.end, null, "the demo sleeps for a duration from its params, which the edge cannot know");

  // Cloudflare: an instance id is taken once; the 409 says no retry helps
  const dup = await rejects(() => cf.workflows.instances.create("sdk-wf", { account_id, instance_id: "i1" }));
  assert.equal(dup.status, 409);
  assert.equal(dup.headers.get("x-should-retry"), "false");
  assert.equal(dup.errors[0].code, 10405);
  const finished = await rejects(() =>
    cf.workflows.instances.status.edit("i1", { account_id, workflow_name: "sdk-wf", status: "terminate" }),
  );
  assert.equal(finished.status, 409);
  assert.equal(finished.headers.get("x-should-retry"), "false");
});

test("workflows: instance_retention is checked (ms or a duration, at most 30 days) and honoured: a finished instance past it is gone", async () => {
  await deployDemo(edge, "sdk-ret");
  const bad = await rejects(() =>
    cf.workflows.instances.create("sdk-ret", { account_id, instance_retention: { success_retention: "forever" } }),
  );
  assert.equal(bad.status, 400);
  const tooLong = await rejects(() =>
    cf.workflows.instances.create("sdk-ret", { account_id, instance_retention: { success_retention: "31 days" } }),
  );
  assert.equal(tooLong.status, 400);
  await cf.workflows.instances.create("sdk-ret", {
    account_id,
    instance_id: "short",
    instance_retention: { success_retention: 1000, error_retention: "1 day" },
  });
  await cf.workflows.instances.create("sdk-ret", {
    account_id,
    instance_id: "kept",
    instance_retention: { success_retention: "1 hour" },
  });
  await waitStatus(edge, "sdk-ret", "kept", "complete");
  await waitFor(
    async () => {
      const r = await edge.call("GET", "/workflows/sdk-ret/instances/short");
      return r.status === 404 ? r : false;
    },
    { what: "instance 'short' to be gone after its retention" },
  );
  const list = await cf.workflows.instances.list("sdk-ret", { account_id });
  assert.deepEqual(
    list.result.map((x) => x.id),
    ["kept"],
  );
  const gone = await rejects(() =>
    cf.workflows.instances.status.edit("short", { account_id, workflow_name: "sdk-ret", status: "restart" }),
  );
  assert.equal(gone.status, 404);
  const wf = await cf.workflows.get("sdk-ret", { account_id });
  assert.equal(wf.instances.complete, 1, "counts leave the expired instance out");
});

test("workflows: a running sleep's end is when it wakes (Cloudflare shows the wake time), read from a literal duration in the code", async () => {
  const source = `import { WorkflowEntrypoint } from "cloudflare:workers";
export class DemoWorkflow extends WorkflowEntrypoint {
  async run(event, step) {
    await step.do("before", async () => 1);
    await step.sleep("long nap", "1 hour");
    return 2;
  }
}
export default { async fetch() { return new Response("nap"); } };
`;
  await deployDemo(edge, "sdk-nap", { source });
  const { id } = await cf.workflows.instances.create("sdk-nap", { account_id });
  const d = await waitFor(async () => {
    const r = await cf.workflows.instances.get(id, { account_id, workflow_name: "sdk-nap" });
    return r.steps.find((s) => s.type === "sleep") ? r : false;
  });
  assert.equal(d.status, "waiting");
  const nap = d.steps.find((s) => s.type === "sleep");
  assert.deepEqual(nap, {
    name: "long nap",
    start: nap.start,
    end: new Date(Date.parse(nap.start) + 3600_000).toISOString(),
    finished: false,
    type: "sleep",
    error: null,
  });
  await cf.workflows.instances.status.edit(id, { account_id, workflow_name: "sdk-nap", status: "terminate" });
});

// saga deploys the 2026 fixture (rollbacks, a sensitive step, a retry delay function, a stream output) as sdk-saga.
async function saga() {
  const fs = await import("node:fs");
  const path = await import("node:path");
  const { FIXTURES } = await import("../helpers.mjs");
  const kv = await cf.kv.namespaces.create({ account_id, title: "sdk-saga" });
  const form = new FormData();
  form.append(
    "metadata",
    new Blob(
      [
        JSON.stringify({
          main_module: "index.mjs",
          compatibility_date: "2026-11-17",
          bindings: [
            { type: "workflow", name: "WF", workflow_name: "sdk-saga", class_name: "Saga" },
            { type: "kv_namespace", name: "KV", namespace_id: kv.id },
          ],
        }),
      ],
      { type: "application/json" },
    ),
  );
  form.append(
    "index.mjs",
    new File([fs.readFileSync(path.join(FIXTURES, "saga.mjs"), "utf8")], "index.mjs", {
      type: "application/javascript+module",
    }),
  );
  await cf.put(`/accounts/${account_id}/workers/scripts/sdk-saga`, { body: form });
  await cf.workflows.update("sdk-saga", { account_id, class_name: "Saga", script_name: "sdk-saga" });
}

test("workflows 2026: a step's full output (instances.step), [REDACTED] for a sensitive step, octet-stream for a stream output; rollback in the details", async () => {
  await saga();
  await cf.workflows.instances.create("sdk-saga", { account_id, instance_id: "s1" });
  await waitStatus(edge, "sdk-saga", "s1", "complete");
  const charge = await cf.workflows.instances.step("s1", {
    account_id,
    workflow_name: "sdk-saga",
    name: "charge",
    type: "step",
  });
  assert.deepEqual(charge, { status: "complete", error: null, output: { amount: 20 } });
  const token = await cf.workflows.instances.step("s1", {
    account_id,
    workflow_name: "sdk-saga",
    name: "token",
    type: "step",
  });
  assert.equal(token.output, "[REDACTED]");
  const attempt = await cf.workflows.instances.step("s1", {
    account_id,
    workflow_name: "sdk-saga",
    name: "flaky",
    type: "step",
    attempt: 1,
  });
  assert.deepEqual(attempt, { status: "errored", error: { name: "Error", message: "again" }, output: null });
  const raw = await cf.workflows.instances
    .step("s1", { account_id, workflow_name: "sdk-saga", name: "bytes", type: "step" })
    .asResponse();
  assert.equal(raw.headers.get("content-type"), "application/octet-stream");
  assert.equal(await raw.text(), "hello stream");

  await cf.workflows.instances.create("sdk-saga", { account_id, instance_id: "s-fail", params: { fail: true } });
  await waitStatus(edge, "sdk-saga", "s-fail", "errored");
  const failed = await cf.workflows.instances.get("s-fail", { account_id, workflow_name: "sdk-saga" });
  assert.deepEqual(failed.rollback, { outcome: "complete", error: null });
  assert.deepEqual(
    failed.steps.filter((s) => s.type === "rollback").map((s) => s.name),
    ["charge", "reserve"],
  );
});

test("workflows 2026: status.edit restarts from a step ({from}) and terminates with rollback", async () => {
  await cf.workflows.instances.create("sdk-saga", { account_id, instance_id: "s-rs" });
  const first = await waitStatus(edge, "sdk-saga", "s-rs", "complete");
  const startOf = (d, n) => d.steps.find((s) => s.name === n).start;
  const r = await cf.workflows.instances.status.edit("s-rs", {
    account_id,
    workflow_name: "sdk-saga",
    status: "restart",
    from: { name: "token", count: 1, type: "do" },
  });
  assert.ok(["queued", "running", "complete", "waiting"].includes(r.status), JSON.stringify(r));
  const again = await waitFor(async () => {
    const d = await cf.workflows.instances.get("s-rs", { account_id, workflow_name: "sdk-saga" });
    return d.status === "complete" && startOf(d, "token") !== startOf(first, "token") ? d : false;
  });
  assert.equal(startOf(again, "charge"), startOf(first, "charge"), "the steps before token were kept");

  await cf.workflows.instances.create("sdk-saga", { account_id, instance_id: "s-tr", params: { waitFor: "never" } });
  await waitStatus(edge, "sdk-saga", "s-tr", "waiting");
  await cf.workflows.instances.status.edit("s-tr", {
    account_id,
    workflow_name: "sdk-saga",
    status: "terminate",
    rollback: true,
  });
  const t = await waitStatus(edge, "sdk-saga", "s-tr", "terminated");
  assert.deepEqual(t.rollback, { outcome: "complete", error: null });
});

test("workflows 2026: create of an id that exists is 409 instance.already_exists; bulk (array form) and the object form through the SDK's request", async () => {
  const dup = await rejects(() => cf.workflows.instances.create("sdk-saga", { account_id, instance_id: "s1" }));
  assert.equal(dup.status, 409);
  assert.equal(dup.errors[0].code, 10405);
  const arr = [];
  for await (const x of cf.workflows.instances.bulk("sdk-saga", {
    account_id,
    body: [{ instance_id: "s-b1" }, { instance_id: "s-b2" }],
  }))
    arr.push(x.id);
  assert.deepEqual(arr, ["s-b1", "s-b2"]);
  const obj = await cf.post(`/accounts/${account_id}/workflows/sdk-saga/instances/batch`, {
    body: { instances: [{ instance_id: "s-b1" }, { instance_id: "s-b3" }] },
  });
  assert.deepEqual(
    obj.result.created.map((x) => x.id),
    ["s-b3"],
  );
  assert.deepEqual(obj.result.errors, [
    { index: 0, id: "s-b1", code: 10405, message: "workflows.api.error.instance.already_exists" },
  ]);
  const count = await cf.post(`/accounts/${account_id}/workflows/sdk-saga/instances/batch`, {
    body: { count: 2, params: { seats: 1 } },
  });
  assert.equal(count.result.created.length, 2);
});

test("workflows 2026: instances deleted one by one (DELETE …/instances/{id}) and in a batch, through the SDK's request", async () => {
  await waitStatus(edge, "sdk-saga", "s-b3", "complete");
  const one = await cf.delete(`/accounts/${account_id}/workflows/sdk-saga/instances/s-b3`);
  assert.deepEqual(one.result, { success: true });
  const gone = await rejects(() => cf.workflows.instances.get("s-b3", { account_id, workflow_name: "sdk-saga" }));
  assert.equal(gone.status, 404);
  const batch = await cf.post(`/accounts/${account_id}/workflows/sdk-saga/instances/batch/delete`, {
    body: { instances: ["s-b1", "s-b2", "s-b3"] },
  });
  assert.deepEqual(batch.result.deleted, [{ id: "s-b1" }, { id: "s-b2" }]);
  assert.deepEqual(
    batch.result.errors.map((e) => [e.id, e.code]),
    [["s-b3", 10400]],
  );
});

test("workflows 2026: the instance event stream (GET …/subscribe) through the SDK's request: history from a cursor, filter", async () => {
  const res = await cf
    .get(`/accounts/${account_id}/workflows/sdk-saga/instances/s-fail/subscribe`, {
      query: { filter: "rollback_step_completed,workflow_errored" },
    })
    .asResponse();
  assert.equal(res.headers.get("content-type"), "text/event-stream");
  const text = await res.text();
  const events = text
    .split("\n\n")
    .filter((b) => b.includes("data: "))
    .map((b) => JSON.parse(b.slice(b.indexOf("data: ") + 6)));
  assert.deepEqual(
    events.map((e) => e.type),
    ["rollback_step_completed", "rollback_step_completed", "workflow_errored"],
  );
  const after = await cf
    .get(`/accounts/${account_id}/workflows/sdk-saga/instances/s-fail/subscribe`, {
      query: { cursor: events[1].eventId },
    })
    .asResponse();
  const rest = (await after.text())
    .split("\n\n")
    .filter((b) => b.includes("data: "))
    .map((b) => JSON.parse(b.slice(b.indexOf("data: ") + 6)));
  assert.ok(rest.every((e) => e.eventId > events[1].eventId));
  assert.equal(rest.at(-1).type, "workflow_errored");
});

test("workflows 2026: default_retention on the Workflow (workflows.update) hides an expired instance; the sweep deletes it", async () => {
  const wf = await cf.workflows.update("sdk-saga", {
    account_id,
    class_name: "Saga",
    script_name: "sdk-saga",
    default_retention: { success_retention: 1000 },
  });
  assert.ok(wf.id);
  await cf.workflows.instances.create("sdk-saga", { account_id, instance_id: "s-ret" });
  await waitFor(async () => (await edge.call("GET", "/workflows/sdk-saga/instances/s-ret")).status === 404, {
    what: "s-ret to expire",
  });
  const deleted = await sweepRetention(root);
  assert.ok(
    deleted.some((d) => d.id === "s-ret" && d.workflow === "sdk-saga"),
    JSON.stringify(deleted),
  );
  await cf.workflows.update("sdk-saga", {
    account_id,
    class_name: "Saga",
    script_name: "sdk-saga",
    default_retention: {},
  });
});
