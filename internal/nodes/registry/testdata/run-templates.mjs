// Runs marketplace node templates on workerd (through miniflare) for the Go
// behaviour test: node run-templates.mjs <harness dir> <plan.json>.
//
// plan.json: {"templates": {"<id>@<version>": "<path of template.ts>"},
//             "cases": [{"key", "config", "env", "seed", "after"}]}
// Prints one JSON line per case: {"ok", "output"} or {"ok": false, "error"},
// with "state" holding the KV, R2 and D1 state the case asked about.
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [harness, planPath] = process.argv.slice(2);
const require = createRequire(join(harness, "package.json"));
const ts = require("typescript");
const { Miniflare } = require("miniflare");

const plan = JSON.parse(readFileSync(planPath, "utf8"));
const dir = mkdtempSync(join(tmpdir(), "edgeflow-nodes-"));
try {
  const keys = Object.keys(plan.templates).sort();
  const imports = [];
  const entries = [];
  const modules = [];
  keys.forEach((key, i) => {
    const src = readFileSync(plan.templates[key], "utf8");
    const out = ts.transpileModule(src, {
      compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ES2022 },
      fileName: plan.templates[key],
    });
    modules.push({ type: "ESModule", path: join(dir, `t${i}.mjs`), contents: out.outputText });
    imports.push(`import t${i} from "./t${i}.mjs";`);
    entries.push(`${JSON.stringify(key)}: t${i}`);
  });
  const worker = `${imports.join("\n")}
const templates = { ${entries.join(", ")} };
export default {
  async fetch(request, env) {
    const c = await request.json();
    const run = templates[c.key];
    try {
      const output = await run({ config: c.config, env: { ...env, ...c.env } });
      return Response.json({ ok: true, output: output === undefined ? null : output });
    } catch (e) {
      return Response.json({ ok: false, error: e instanceof Error ? e.message : String(e) });
    }
  },
};
`;
  modules.unshift({ type: "ESModule", path: join(dir, "worker.mjs"), contents: worker });
  const mf = new Miniflare({
    modules,
    modulesRoot: dir,
    compatibilityDate: "2025-01-01",
    kvNamespaces: ["KV"],
    r2Buckets: ["BUCKET"],
    d1Databases: ["DB"],
    kvPersist: false,
    r2Persist: false,
    d1Persist: false,
  });
  try {
    const kv = await mf.getKVNamespace("KV");
    const r2 = await mf.getR2Bucket("BUCKET");
    const d1 = await mf.getD1Database("DB");
    for (const c of plan.cases) {
      for (const { name } of (await kv.list()).keys) await kv.delete(name);
      for (const { key } of (await r2.list()).objects) await r2.delete(key);
      const seed = c.seed ?? {};
      for (const [k, v] of Object.entries(seed.kv ?? {})) await kv.put(k, v);
      for (const [k, o] of Object.entries(seed.r2 ?? {})) {
        await r2.put(k, o.text, o.contentType ? { httpMetadata: { contentType: o.contentType } } : undefined);
      }
      for (const sql of seed.d1 ?? []) await d1.prepare(sql).run();

      const res = await mf.dispatchFetch("http://worker/", {
        method: "POST",
        body: JSON.stringify({ key: c.key, config: c.config, env: c.env ?? {} }),
      });
      const result = await res.json();

      const after = c.after;
      if (after) {
        const state = {};
        if (after.kv) {
          state.kv = {};
          for (const { name } of (await kv.list()).keys) state.kv[name] = await kv.get(name);
        }
        if (after.r2) {
          state.r2 = {};
          for (const { key } of (await r2.list({ include: ["httpMetadata"] })).objects) {
            const o = await r2.get(key);
            state.r2[key] = { text: await o.text(), contentType: o.httpMetadata?.contentType ?? null };
          }
        }
        if (after.d1) {
          state.d1 = [];
          for (const q of after.d1) state.d1.push((await d1.prepare(q.sql).all()).results);
        }
        result.state = state;
      }
      process.stdout.write(JSON.stringify(result) + "\n");
    }
  } finally {
    await mf.dispose();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
