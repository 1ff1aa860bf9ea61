// Planning the groups of workerd (src/plan.mjs) from registry states, without starting anything: which group runs
// each worker and opens each KV namespace, R2 bucket and Workflow, what a worker's bindings become, and when a
// group's fingerprint changes (the running edge's groups are tested in groups.test.mjs).

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  GONE_PLUGIN,
  HOME_GROUP,
  MAX_COMPAT_DATE,
  SHARDWF_PLUGIN,
  canonicalWorkflows,
  planGroups,
  shardOf,
} from "../src/plan.mjs";

const ACCOUNT = "a".repeat(32);

// script is a deployed script of one version with the given bindings and code blob.
function script(name, bindings = [], { blob = `blob-${name}`, deployed = true } = {}) {
  const version = {
    id: `v-${name}`,
    metadata: { main_module: "index.js", compatibility_date: "2025-01-01", bindings },
    modules: [{ name: "index.js", type: "ESModule", blob }],
    format: "modules",
  };
  return { name, current: deployed ? version.id : null, versions: [version] };
}

// account is an account's state holding scripts (name -> script), KV namespaces, R2 buckets and Workflows.
function account({ scripts = [], kv = [], r2 = [], d1 = [], workflows = {} } = {}) {
  return {
    scripts: Object.fromEntries(scripts.map((s) => [s.name, s])),
    kv: Object.fromEntries(kv.map((id) => [id, { id, title: id }])),
    r2: Object.fromEntries(r2.map((name) => [name, { name }])),
    d1: Object.fromEntries(d1.map((uuid) => [uuid, { uuid, name: uuid }])),
    workflows,
    zones: {},
  };
}

// legacy is a registry state whose legacy account holds what account() is given; others are more accounts by id.
function legacy(parts = {}, others = {}) {
  return {
    accountId: ACCOUNT,
    ...account(parts),
    accounts: Object.fromEntries(Object.entries(others).map(([id, p]) => [id, { accountId: id, ...account(p) }])),
  };
}

const fresh = () => ({ placement: new Map(), nextGroup: 1 });

function plan(state, previous = fresh(), groupSize = 2) {
  const logs = [];
  const p = planGroups(state, previous, {
    d1URL: (databases) =>
      new URL(
        `http://127.0.0.1:1/secret/${Object.entries(databases)
          .map(([b, id]) => `${b}=${id}`)
          .join(",")}`,
      ),
    logger: (l) => logs.push(l),
    groupSize,
  });
  return { ...p, logs };
}

// members lists each group's workers: {group id: [workerd names]}.
function members(p) {
  return Object.fromEntries([...p.groups].map(([id, g]) => [id, g.workers.map((e) => e.name)]));
}

describe("placement", () => {
  test("no script: the home group alone, holding the storage no worker binds", () => {
    const p = plan(legacy({ kv: ["ns1"], r2: ["bucket-1"] }));
    assert.deepEqual(members(p), { [HOME_GROUP]: [] });
    assert.deepEqual(p.groups.get(HOME_GROUP).kv, ["ns1"]);
    assert.deepEqual(p.groups.get(HOME_GROUP).r2, ["bucket-1"]);
    assert.equal(p.owner.kv.get("ns1"), HOME_GROUP);
    assert.equal(p.nextGroup, 1);
    assert.match(p.groups.get(HOME_GROUP).fingerprint, /^[0-9a-f]{64}$/);
  });

  test("unbound workers fill the smallest group with room, then a new one", () => {
    const p = plan(legacy({ scripts: [script("a"), script("b"), script("c")] }));
    assert.deepEqual(members(p), { [HOME_GROUP]: [], g1: ["a", "b"], g2: ["c"] });
    assert.equal(p.nextGroup, 3);
    assert.equal(p.placement.get("c"), "g2");
  });

  test("a service binding, a Workflow of another script and a shared KV namespace keep workers together", () => {
    const p = plan(
      legacy({
        kv: ["shared"],
        scripts: [
          script("a", [{ type: "service", name: "SVC", service: "b" }]),
          script("b"),
          script("c", [{ type: "kv_namespace", name: "KV", namespace_id: "shared" }]),
          script("d", [{ type: "kv_namespace", name: "KV", namespace_id: "shared" }]),
          script("e", [{ type: "workflow", name: "WF", workflow_name: "flow", class_name: "Flow", script_name: "f" }]),
          script("f"),
        ],
      }),
    );
    const group = (n) => p.placement.get(n);
    assert.equal(group("a"), group("b"));
    assert.equal(group("c"), group("d"));
    assert.equal(group("e"), group("f"));
    assert.equal(new Set(["a", "c", "e"].map(group)).size, 3, JSON.stringify(members(p)));
    assert.equal(
      p.owner.kv.get("shared"),
      group("c"),
      "the namespace is opened by the group of the workers that bind it",
    );
    assert.equal(p.owner.wf.get("flow"), group("f"), "a Workflow runs in the group of its script");
  });

  test("a component larger than a group is one group", () => {
    const chain = ["a", "b", "c"].map((n, i, all) =>
      script(n, i + 1 < all.length ? [{ type: "service", name: "NEXT", service: all[i + 1] }] : []),
    );
    assert.deepEqual(members(plan(legacy({ scripts: chain }))), { [HOME_GROUP]: [], g1: ["a", "b", "c"] });
  });

  test("workers keep their groups; a component spread over groups moves into the lowest-numbered one", () => {
    const previous = {
      placement: new Map([
        ["a", "g2"],
        ["b", "g10"],
        ["c", "g10"],
      ]),
      nextGroup: 11,
    };
    const p = plan(
      legacy({
        scripts: [script("a", [{ type: "service", name: "SVC", service: "b" }]), script("b"), script("c"), script("d")],
      }),
      previous,
      4,
    );
    assert.equal(p.placement.get("a"), "g2");
    assert.equal(p.placement.get("b"), "g2", "g2 comes before g10");
    assert.equal(p.placement.get("c"), "g10");
    assert.equal(p.placement.get("d"), "g10", "a new worker fills the smallest group with room");
    assert.equal(p.nextGroup, 11);
  });

  test("the accounts' workers are named apart in workerd, and a binding resolves inside its own account", () => {
    const other = "b".repeat(32);
    const p = plan(
      legacy(
        { scripts: [script("api"), script("web", [{ type: "service", name: "API", service: "api" }])], r2: ["files"] },
        {
          [other]: {
            scripts: [script("api"), script("web", [{ type: "service", name: "API", service: "api" }])],
            r2: ["files"],
          },
        },
      ),
      fresh(),
      4,
    );
    const names = [...p.placement.keys()].sort();
    assert.deepEqual(names, ["api", `${other}.api`, `${other}.web`, "web"]);
    const web = [...p.groups.values()].flatMap((g) => g.workers).find((e) => e.name === `${other}.web`);
    assert.deepEqual(web.w.serviceBindings, { API: `${other}.api` });
    assert.deepEqual([...p.owner.r2.keys()].sort(), [`${other}.files`, "files"]);
  });
});

describe("worker options", () => {
  test("a binding to a deleted resource fails its operations; one to a script not deployed waits for it", () => {
    const p = plan(
      legacy({
        kv: ["live"],
        scripts: [
          script("w", [
            { type: "kv_namespace", name: "GONE", namespace_id: "deleted" },
            { type: "kv_namespace", name: "LIVE", namespace_id: "live" },
            { type: "d1", name: "DB", id: "db-1" },
            { type: "d1", name: "OTHER", database_id: "db-2" },
            { type: "service", name: "LATER", service: "not-yet" },
            { type: "plain_text", name: "GREETING", text: "hi" },
          ]),
        ],
        d1: ["db-1", "db-2"],
      }),
    );
    const w = p.groups.get("g1").workers[0].w;
    assert.deepEqual(w.unsafeBindings, [
      { name: "GONE", type: GONE_PLUGIN.name, plugin: GONE_PLUGIN, options: { kind: "kv", id: "deleted" } },
    ]);
    assert.deepEqual(w.kvNamespaces, { LIVE: "live" });
    // one remote-binding address for the worker (miniflare takes one), naming each binding's database
    assert.equal(String(w.d1Databases.DB.remoteProxyConnectionString), "http://127.0.0.1:1/secret/DB=db-1,OTHER=db-2");
    assert.equal(w.d1Databases.OTHER.remoteProxyConnectionString, w.d1Databases.DB.remoteProxyConnectionString);
    assert.deepEqual([w.d1Databases.DB.id, w.d1Databases.OTHER.id], ["db-1", "db-2"]);
    assert.deepEqual(w.serviceBindings, {});
    assert.deepEqual(w.bindings, { GREETING: "hi" });
    assert.equal(p.logs.length, 2, p.logs.join("\n"));
    assert.match(p.logs[0], /binding GONE names kv 'deleted', which was deleted/);
    assert.match(p.logs[1], /service binding LATER waits for script not-yet/);
  });

  test("a compatibility date newer than workerd's is clamped", () => {
    const s = script("w");
    s.versions[0].metadata.compatibility_date = "2099-01-01";
    const w = plan(legacy({ scripts: [s] })).groups.get("g1").workers[0].w;
    assert.equal(w.compatibilityDate, MAX_COMPAT_DATE);
  });
});

describe("fingerprints", () => {
  test("the same state plans the same fingerprints; new code changes its own group's only", () => {
    const state = () => legacy({ scripts: [script("a"), script("b"), script("c")] });
    const one = plan(state());
    const two = plan(state(), { placement: one.placement, nextGroup: one.nextGroup });
    for (const [id, g] of one.groups) assert.equal(two.groups.get(id).fingerprint, g.fingerprint, id);
    const changed = state();
    changed.scripts.c = script("c", [], { blob: "new-code" });
    const three = plan(changed, { placement: one.placement, nextGroup: one.nextGroup });
    assert.equal(three.groups.get("g1").fingerprint, one.groups.get("g1").fingerprint);
    assert.equal(three.groups.get(HOME_GROUP).fingerprint, one.groups.get(HOME_GROUP).fingerprint);
    assert.notEqual(three.groups.get("g2").fingerprint, one.groups.get("g2").fingerprint);
  });
});

describe("canonicalWorkflows", () => {
  test("the registry's workflow first, then a binding in the owning script, then one naming another script", () => {
    const st = account({
      scripts: [
        script("owner", [
          { type: "workflow", name: "A", workflow_name: "registered", class_name: "FromBinding" },
          { type: "workflow", name: "B", workflow_name: "own", class_name: "Own" },
        ]),
        script("caller", [
          { type: "workflow", name: "C", workflow_name: "own", class_name: "Other", script_name: "owner" },
          { type: "workflow", name: "D", workflow_name: "remote", class_name: "Remote", script_name: "owner" },
          { type: "workflow", name: "E", workflow_name: "missing", class_name: "M", script_name: "nowhere" },
        ]),
        script("gone", [], { deployed: false }),
      ],
      workflows: {
        registered: { name: "registered", script_name: "owner", class_name: "FromRegistry" },
        orphan: { name: "orphan", script_name: "gone", class_name: "X" },
      },
    });
    assert.deepEqual(canonicalWorkflows(st), {
      registered: { className: "FromRegistry", scriptName: "owner" },
      own: { className: "Own", scriptName: "owner" },
      remote: { className: "Remote", scriptName: "owner" },
    });
  });
});

describe("shards", () => {
  const wfBinding = (name) => ({ type: "workflow", name: "WF", workflow_name: name, class_name: "Flow" });
  const state = () =>
    legacy({
      scripts: [
        script("plain", [wfBinding("plain")]),
        script("kvuser", [wfBinding("kvuser"), { type: "kv_namespace", name: "STORE", namespace_id: "ns1" }]),
        script("bucket", [wfBinding("bucket"), { type: "r2_bucket", name: "B", bucket_name: "b1" }]),
        script("objects", [
          wfBinding("objects"),
          { type: "durable_object_namespace", name: "DO", class_name: "Counter" },
        ]),
      ],
      kv: ["ns1"],
      r2: ["b1"],
      workflows: Object.fromEntries(
        ["plain", "kvuser", "bucket", "objects"].map((n) => [n, { script_name: n, class_name: "Flow" }]),
      ),
    });
  const shardsPlan = (n) =>
    planGroups(state(), fresh(), {
      d1URL: (map) => new URL(`http://127.0.0.1:1/secret/${Buffer.from(JSON.stringify(map)).toString("base64url")}`),
      logger: () => {},
      groupSize: 1,
      shardsOf: () => n,
    });

  test("a group of Workflows gets n-1 shard groups running its workers; Durable Objects and home do not", () => {
    const p = shardsPlan(3);
    const byWorker = (w) => p.placement.get(w);
    for (const w of ["plain", "kvuser", "bucket"]) {
      const gid = byWorker(w);
      assert.deepEqual(p.shards.get(w), [gid, `${gid}~1`, `${gid}~2`]);
      for (const k of [1, 2]) {
        const s = p.groups.get(`${gid}~${k}`);
        assert.equal(s.shard, k);
        assert.deepEqual(s.kv, []);
        assert.deepEqual(s.r2, []);
        assert.deepEqual(
          s.workers.map((e) => e.name),
          [w],
        );
        assert.equal(s.fingerprint, `${p.groups.get(gid).fingerprint}.s${k}`);
      }
    }
    assert.equal(p.shards.has("objects"), false);
    assert.equal([...p.groups.keys()].filter((g) => g.startsWith(`${HOME_GROUP}~`)).length, 0);
    assert.equal(shardsPlan(1).shards.size, 0);
  });

  test("a shard's KV binding is a remote binding to the group that holds the namespace; shard 0 opens it", () => {
    const p = shardsPlan(2);
    const gid = p.placement.get("kvuser");
    assert.deepEqual(p.groups.get(gid).kv, ["ns1"]);
    assert.equal(p.groups.get(gid).workers[0].w.kvNamespaces.STORE, "ns1");
    const shardW = p.groups.get(`${gid}~1`).workers[0].w;
    assert.equal(shardW.kvNamespaces.STORE.id, "ns1");
    const url = shardW.kvNamespaces.STORE.remoteProxyConnectionString;
    const map = JSON.parse(Buffer.from(url.pathname.split("/")[2], "base64url").toString("utf8"));
    assert.deepEqual(map, { STORE: { kv: "ns1" } });
  });

  test("a shard's R2 binding is a remote binding to the group that holds the bucket; shard 0 opens it", () => {
    const p = shardsPlan(2);
    const gid = p.placement.get("bucket");
    assert.deepEqual(p.groups.get(gid).r2, ["b1"]);
    assert.equal(p.groups.get(gid).workers[0].w.r2Buckets.B, "b1");
    const shardW = p.groups.get(`${gid}~1`).workers[0].w;
    assert.equal(shardW.r2Buckets.B.id, "b1");
    const url = shardW.r2Buckets.B.remoteProxyConnectionString;
    const map = JSON.parse(Buffer.from(url.pathname.split("/")[2], "base64url").toString("utf8"));
    assert.deepEqual(map, { B: { r2: "b1" } });
  });

  test("a Workflow that may shard is bound through the edge in every shard, from shard 0 on; one that may not keeps miniflare's", () => {
    const planned = (mayShard) =>
      planGroups(state(), fresh(), {
        d1URL: (map) => new URL(`http://127.0.0.1:1/secret/${Buffer.from(JSON.stringify(map)).toString("base64url")}`),
        logger: () => {},
        groupSize: 1,
        shardsOf: () => 1,
        mayShard: () => mayShard,
      });
    const p = planned(true);
    const gid = p.placement.get("plain");
    const w = p.groups.get(gid).workers[0].w;
    assert.equal(w.workflows.WF, undefined);
    const [b] = w.unsafeBindings;
    assert.equal(b.name, "WF");
    assert.equal(b.plugin, SHARDWF_PLUGIN);
    assert.equal(b.options.workflow, "plain");
    assert.equal(b.options.address, "127.0.0.1:1");
    const map = JSON.parse(Buffer.from(b.options.path.split("/")[2], "base64url").toString("utf8"));
    assert.deepEqual(map, { WF: { wf: "plain" } });
    // a group with Durable Objects never shards: its binding stays miniflare's
    const objects = p.groups.get(p.placement.get("objects")).workers[0].w;
    assert.equal(objects.workflows.WF.name, "objects");
    assert.deepEqual(objects.unsafeBindings, []);
    // the fingerprint of shard 0 does not change when the Workflow grows (its workers' options are the same)
    const grown = planGroups(state(), fresh(), {
      d1URL: (map) => new URL(`http://127.0.0.1:1/secret/${Buffer.from(JSON.stringify(map)).toString("base64url")}`),
      logger: () => {},
      groupSize: 1,
      shardsOf: () => 2,
      mayShard: () => true,
    });
    assert.equal(grown.groups.get(gid).fingerprint, p.groups.get(gid).fingerprint);
    assert.equal(grown.groups.get(`${gid}~1`).workers[0].w.unsafeBindings[0].name, "WF");
    assert.equal(planned(false).groups.get(gid).workers[0].w.workflows.WF.name, "plain");
    // a worker edgeflow deployed (it binds its token) keeps miniflare's binding: the edge routes its requests by id
    const ours = planGroups(
      legacy({
        scripts: [script("gen", [wfBinding("gen"), { type: "secret_text", name: "EDGEFLOW_WORKER_TOKEN", text: "t" }])],
        workflows: { gen: { script_name: "gen", class_name: "Flow" } },
      }),
      fresh(),
      { d1URL: () => new URL("http://127.0.0.1:1/s/e30"), logger: () => {}, shardsOf: () => 1, mayShard: () => true },
    );
    const genW = ours.groups.get(ours.placement.get("gen")).workers[0].w;
    assert.equal(genW.workflows.WF.name, "gen");
    assert.deepEqual(genW.unsafeBindings, []);
  });

  test("shardOf is stable and spreads ids", () => {
    assert.equal(shardOf("abc", 1), 0);
    assert.equal(shardOf("abc", 4), shardOf("abc", 4));
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[shardOf(`id-${i}`, 4)]++;
    for (const c of counts) assert.ok(c > 800 && c < 1200, String(counts));
  });
});
