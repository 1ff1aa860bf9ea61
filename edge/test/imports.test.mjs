// The edge's modules import each other without cycles, as Go forbids them between packages: a cycle makes the
// order in which modules run their top-level code depend on which module is loaded first, and in such a chain a
// class or constant may be read before its module has defined it. This test reads every static import of edge/src
// (`import … from "./x.mjs"`, `import "./x.mjs"`, `export … from "./x.mjs"`) and fails naming each cycle it finds.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { EDGE_DIR } from "./helpers.mjs";

const SRC = path.join(EDGE_DIR, "src");

// IMPORT matches a static import or re-export of a relative module, over several lines when its list is long.
const IMPORT = /^[ \t]*(?:import|export)\s+(?:[\w*${}\s,]*?\s*from\s*)?["'](\.{1,2}\/[^"']+)["']/gm;

// sourceFiles lists the JavaScript modules under dir, as paths relative to it.
function sourceFiles(dir, prefix = "") {
  const out = [];
  for (const e of fs.readdirSync(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(dir, rel));
    else if (/\.(mjs|js)$/.test(e.name)) out.push(rel);
  }
  return out.sort();
}

// importsOf lists the relative modules a module's text imports, as paths relative to SRC.
export function importsOf(file, text) {
  const out = [];
  for (const m of text.matchAll(IMPORT)) out.push(path.normalize(path.join(path.dirname(file), m[1])));
  return out;
}

// cycles returns every import cycle of graph (module -> modules it imports) as a list of modules, the first
// repeated at the end, each cycle once (started at its smallest module).
export function cycles(graph) {
  const found = new Map();
  const state = new Map(); // module -> "open" while on the path, "done" once all it reaches is explored
  const stack = [];
  const visit = (m) => {
    state.set(m, "open");
    stack.push(m);
    for (const next of graph.get(m) ?? []) {
      if (state.get(next) === "open") {
        const loop = stack.slice(stack.indexOf(next));
        const start = loop.indexOf([...loop].sort()[0]);
        const key = [...loop.slice(start), ...loop.slice(0, start)];
        found.set(key.join(" → "), [...key, key[0]]);
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(m, "done");
  };
  for (const m of [...graph.keys()].sort()) if (!state.has(m)) visit(m);
  return [...found.values()];
}

function edgeGraph() {
  const graph = new Map();
  for (const file of sourceFiles(SRC)) graph.set(file, importsOf(file, fs.readFileSync(path.join(SRC, file), "utf8")));
  return graph;
}

test("edge/src has no import cycle", () => {
  const graph = edgeGraph();
  const found = cycles(graph).map((c) => c.join(" → "));
  assert.deepEqual(found, [], `import cycles in edge/src:\n${found.join("\n")}`);
});

test("every relative import names a module that exists", () => {
  const missing = [];
  for (const [file, imports] of edgeGraph()) {
    for (const m of imports) if (!fs.existsSync(path.join(SRC, m))) missing.push(`${file} imports ${m}`);
  }
  assert.deepEqual(missing, []);
});

test("errors.mjs is a leaf: it imports nothing", () => {
  assert.deepEqual(edgeGraph().get("errors.mjs"), []);
});

test("the reader finds the imports of every form, and the check names a cycle it is given", () => {
  const text = [
    'import fs from "node:fs";',
    'import { a, b } from "./a.mjs";',
    "import {",
    "  c,",
    "  d as e,",
    '} from "../c.mjs";',
    'import * as f from "./f.mjs";',
    'import "./side.mjs";',
    'export { g } from "./g.mjs";',
    'export * from "./h.mjs";',
    "const source = `",
    "export default {};", // module text inside a string: not an import
    "`;",
    'const later = import("./dynamic.mjs");', // dynamic: not a static import
  ].join("\n");
  assert.deepEqual(importsOf("api/x.mjs", text), [
    "api/a.mjs",
    "c.mjs",
    "api/f.mjs",
    "api/side.mjs",
    "api/g.mjs",
    "api/h.mjs",
  ]);

  const acyclic = new Map([
    ["a", ["b", "c"]],
    ["b", ["c"]],
    ["c", []],
  ]);
  assert.deepEqual(cycles(acyclic), []);
  const cyclic = new Map([
    ["accounts.mjs", ["http.mjs"]],
    ["http.mjs", ["runtime.mjs"]],
    ["runtime.mjs", ["accounts.mjs"]],
    ["x.mjs", ["x.mjs"]],
  ]);
  assert.deepEqual(cycles(cyclic), [
    ["accounts.mjs", "http.mjs", "runtime.mjs", "accounts.mjs"],
    ["x.mjs", "x.mjs"],
  ]);
});
