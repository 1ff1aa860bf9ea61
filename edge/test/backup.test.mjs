// POST /__edge/backup (src/backup.mjs): the root token only; the tar holds the registry, KV values and R2 objects and
// leaves the token and the edge's secret key out; the edge serves its workers and stores during and after the copy.
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { after, before, describe, test } from "node:test";
import { deployDemo, startEdge } from "./helpers.mjs";

let edge;
before(async () => {
  edge = await startEdge();
});
after(async () => {
  await edge?.stop();
});

const backupURL = () => edge.ready.api.replace("/client/v4", "/__edge/backup");

// untar reads a ustar stream (with PAX path records) into a Map of name → Buffer.
function untar(buf) {
  const out = new Map();
  let off = 0;
  let paxPath;
  while (off + 512 <= buf.length) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const name = h.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(h.subarray(124, 136).toString("utf8").replace(/\0.*$/s, "").trim(), 8);
    const type = String.fromCharCode(h[156]);
    const body = buf.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === "x") {
      paxPath = /\d+ path=(.*)\n/.exec(body.toString("utf8"))?.[1];
      continue;
    }
    out.set(paxPath ?? name, Buffer.from(body));
    paxPath = undefined;
  }
  return out;
}

describe("POST /__edge/backup", () => {
  test("refuses a request without the root token, and another method", async () => {
    for (const headers of [{}, { authorization: "Bearer not-the-token" }]) {
      const r = await fetch(backupURL(), { method: "POST", headers });
      assert.equal(r.status, 401, JSON.stringify(headers));
    }
    const r = await fetch(backupURL(), { headers: { authorization: `Bearer ${edge.token}` } });
    assert.equal(r.status, 405);
  });

  test("copies the registry, KV and R2 and leaves credentials out; the edge serves during and after it", async () => {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "backup-kv" })).body.result.id;
    // overwritten: the first value's blob is not named by the index any more and is not in the copy
    assert.equal((await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/greeting`, "hi")).status, 200);
    assert.equal((await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/greeting`, "hello")).status, 200);
    assert.equal((await edge.call("POST", "/r2/buckets", { name: "backup-bucket" })).status, 200);
    assert.equal(
      (
        await edge.call("PUT", "/r2/buckets/backup-bucket/objects/a.txt", "object a", {
          headers: { "content-type": "text/plain" },
        })
      ).status,
      200,
    );
    await deployDemo(edge, "backupdemo");
    const hit = async () => (await fetch(`${edge.ready.workers}/backupdemo/`)).status;
    assert.equal(await hit(), 200);
    const workerdPid = () => fs.readFileSync(path.join(edge.dataDir, "workerd.pid"), "utf8").trim();
    const pidBefore = workerdPid();

    // A worker request and a KV read sent while the copy is taken both answer (they wait for the workerds at most).
    const during = Promise.all([
      hit(),
      edge.call("GET", `/storage/kv/namespaces/${ns}/values/greeting`, undefined, { raw: true }).then((r) => r.text()),
    ]);
    const res = await fetch(backupURL(), { method: "POST", headers: { authorization: `Bearer ${edge.token}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/x-tar");
    const members = untar(Buffer.from(await res.arrayBuffer()));
    assert.deepEqual(await during, [200, "hello"]);

    const names = [...members.keys()];
    assert.equal(names[0], "edge-manifest.json");
    const manifest = JSON.parse(members.get("edge-manifest.json"));
    assert.ok(
      manifest.scripts >= 1 && manifest.kv_namespaces >= 1 && manifest.r2_buckets >= 1,
      JSON.stringify(manifest),
    );
    assert.ok(manifest.stores.kv.rows >= 1 && manifest.stores.r2.rows >= 1, JSON.stringify(manifest.stores));
    // copied while workerd ran (decision 640): not stopped, not restarted
    assert.equal(manifest.paused_ms, 0, JSON.stringify(manifest));
    assert.equal(workerdPid(), pidBefore);
    assert.ok(names.includes("registry.json"), names.join(" "));
    const registry = JSON.parse(members.get("registry.json"));
    assert.ok(registry.kv?.[ns], "the registry names the namespace");
    const blobs = names.filter((n) => n.split("/").includes("blobs")).map((n) => members.get(n).toString("utf8"));
    assert.ok(blobs.includes("hello") && blobs.includes("object a"), `blobs: ${blobs.length}`);
    assert.ok(!blobs.includes("hi"), "the overwritten value's blob is left out");
    const kvBlobs = names.filter((n) => n.startsWith("miniflare/kv/") && n.split("/").includes("blobs"));
    assert.equal(kvBlobs.length, manifest.stores.kv.rows, "one blob per KV key");
    for (const n of names) {
      assert.ok(
        !["token", "secrets.key", "edge.lock", "workerd.pid"].includes(n) &&
          !n.startsWith("run/") &&
          !n.startsWith(".backup-"),
        n,
      );
      assert.ok(!members.get(n).includes(Buffer.from(edge.token)), `${n} holds the root token`);
    }

    // After it, the workers and stores answer as before, and the staging copy is gone.
    assert.equal(await hit(), 200);
    const got = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/greeting`, undefined, { raw: true });
    assert.equal(await got.text(), "hello");
    assert.deepEqual(
      fs.readdirSync(edge.dataDir).filter((n) => n.startsWith(".backup-")),
      [],
    );
  });

  test("KV and R2 written during the copy: every key and object the archive's indexes name has its blob in it", async (t) => {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "busy-kv" })).body.result.id;
    assert.equal((await edge.call("POST", "/r2/buckets", { name: "busy-bucket" })).status, 200);
    // five keys and five objects overwritten over and over while the backup runs
    let stop = false;
    let writes = 0;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        const kv = await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/k${i % 5}`, `value ${i}`);
        const r2 = await edge.call("PUT", `/r2/buckets/busy-bucket/objects/o${i % 5}`, `object ${i}`, {
          headers: { "content-type": "text/plain" },
        });
        assert.deepEqual([kv.status, r2.status], [200, 200]);
        writes++;
      }
    })();
    while (writes < 10) await new Promise((resolve) => setImmediate(resolve));
    const res = await fetch(backupURL(), { method: "POST", headers: { authorization: `Bearer ${edge.token}` } });
    assert.equal(res.status, 200);
    const members = untar(Buffer.from(await res.arrayBuffer()));
    const writesByEnd = writes;
    stop = true;
    await writer;
    const manifest = JSON.parse(members.get("edge-manifest.json"));
    t.diagnostic(
      `writes before the backup answered: ${writesByEnd}; indexes copied again: ${manifest.index_copies_again}; workerd stopped: ${manifest.paused_ms} ms`,
    );

    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "backup-index-"));
    try {
      const named = { kv: new Set(), r2: new Set() };
      for (const [name, body] of members) {
        const [top, store] = name.split("/");
        if (top !== "miniflare" || !(store in named) || !name.endsWith(".sqlite")) continue;
        const f = path.join(tmp, `${named[store].size}-${path.basename(name)}`);
        fs.writeFileSync(f, body);
        const db = new DatabaseSync(f, { readOnly: true });
        for (const { name: t } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all()) {
          if (!db.prepare("SELECT 1 FROM pragma_table_info(?) WHERE name = 'blob_id'").get(t)) continue;
          for (const r of db.prepare(`SELECT blob_id FROM "${t}" WHERE blob_id IS NOT NULL`).all())
            named[store].add(r.blob_id);
        }
        db.close();
      }
      for (const store of ["kv", "r2"]) {
        const have = new Set(
          [...members.keys()]
            .filter((n) => n.startsWith(`miniflare/${store}/`) && n.split("/")[3] === "blobs")
            .map((n) => n.split("/")[4]),
        );
        assert.ok(named[store].size >= 5, `${store}: ${named[store].size} blobs named`);
        for (const id of named[store]) assert.ok(have.has(id), `${store} blob ${id} is named but not in the archive`);
        assert.equal(have.size, named[store].size, `${store}: only the named blobs are in the archive`);
      }
      assert.ok(writesByEnd >= 10);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
