/// <reference types="node" />
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { canvasToIr, fallbackPosition, irToCanvas } from "./canvas";
import { moveNodes } from "./edit";
import type { WorkflowIR } from "./types";

const root = resolve(process.cwd(), "..");

// corpus lists every IR of the repository's test corpus: the validator's cases, the examples and the benchmark
// inputs. A missing directory fails the test (it never skips).
function corpus(): Array<[string, string]> {
  const dirs: Array<[string, (f: string) => boolean]> = [
    ["internal/ir/testdata/cases", (f) => f.endsWith(".ir.json")],
    ["examples", (f) => f.endsWith(".json") && !f.endsWith(".params.json")],
    ["testdata/bench/ir", (f) => f.endsWith(".json")],
  ];
  const out: Array<[string, string]> = [];
  for (const [dir, keep] of dirs) {
    const files = readdirSync(join(root, dir)).filter(keep).sort();
    expect(files.length, dir).toBeGreaterThan(0);
    for (const f of files) out.push([`${dir}/${f}`, readFileSync(join(root, dir, f), "utf8")]);
  }
  return out;
}

const files = corpus();
const irs = files.flatMap(([name, text]) => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? [[name, text] as [string, string]] : [];
  } catch {
    return []; // json-malformed.ir.json is not JSON: the editor never gets it as an IR
  }
});

describe("IR ↔ canvas round trip", () => {
  it("covers the corpus", () => {
    expect(irs.length).toBeGreaterThan(90);
    expect(irs.some(([n]) => n.endsWith("mixed-5000.json"))).toBe(true);
  });

  it.each(irs)("%s is lossless", (_name, text) => {
    const ir = JSON.parse(text) as WorkflowIR;
    const canvas = irToCanvas(ir);
    expect(canvas.nodes).toHaveLength(ir.nodes.length);
    expect(canvas.edges).toHaveLength(ir.edges.length);
    // key for key and in the same key order
    expect(JSON.stringify(canvasToIr(canvas))).toBe(JSON.stringify(JSON.parse(text)));
    // canvas ids are unique even when the IR repeats ids
    expect(new Set(canvas.nodes.map((n) => n.id)).size).toBe(canvas.nodes.length);
    expect(new Set(canvas.edges.map((e) => e.id)).size).toBe(canvas.edges.length);
  });
});

const sample: WorkflowIR = {
  kind: "workflow",
  metadata: { name: "t" },
  nodes: [
    { id: "a", type: "step", name: "A", data: { code: "return 1;" } },
    {
      id: "b",
      type: "branch",
      name: "B",
      position: { x: 5, y: 6 },
      data: {
        branches: [
          { label: "yes", condition: "1" },
          { label: "no", condition: "" },
        ],
      },
    },
    { id: "c", type: "step", name: "C", position: { x: 1, y: 2 }, data: { code: "" }, extra: { keep: true } } as never,
  ],
  edges: [
    { id: "e1", source: "a", target: "b" },
    { id: "e2", source: "b", target: "c", label: "yes" },
  ],
  entryNodeId: "a",
  future: 1,
} as WorkflowIR;

describe("irToCanvas", () => {
  it("draws positions, labelled handles, the entry node and edge labels", () => {
    const c = irToCanvas(sample);
    expect(c.nodes[0]!.position).toEqual(fallbackPosition(0));
    expect(c.nodes[0]!.data.placed).toBe(false);
    expect(c.nodes[0]!.data.entry).toBe(true);
    expect(c.nodes[1]!.position).toEqual({ x: 5, y: 6 });
    expect(c.nodes[1]!.data.handles.map((h) => h.id)).toEqual(["l:yes", "l:no", "l:then"]);
    expect(c.nodes[0]!.data.handles.map((h) => h.id)).toEqual(["out"]);
    expect(c.edges[1]).toMatchObject({
      source: "b",
      target: "c",
      sourceHandle: "l:yes",
      targetHandle: "in",
      ariaLabel: "yes: b to c",
    });
  });

  it("keeps unchanged nodes as the same objects and redraws changed ones", () => {
    const c1 = irToCanvas(sample);
    c1.nodes[2] = { ...c1.nodes[2]!, selected: true };
    const moved = moveNodes(sample, new Map([["b", { x: 50, y: 60 }]]));
    const c2 = irToCanvas(moved, { ...c1 });
    expect(c2.nodes[0]).toBe(c1.nodes[0]);
    expect(c2.nodes[1]).not.toBe(c1.nodes[1]);
    expect(c2.nodes[1]!.position).toEqual({ x: 50, y: 60 });
    expect(c2.nodes[2]!.selected).toBe(true);
  });

  it("writes a fallback-placed node's position back only once it is moved", () => {
    const c = irToCanvas(sample);
    expect(canvasToIr(c).nodes[0]).toBe(sample.nodes[0]);
    c.nodes[0] = { ...c.nodes[0]!, position: { x: 300, y: 40 } };
    c.nodes[2] = { ...c.nodes[2]!, position: { x: 9, y: 9 } };
    const back = canvasToIr(c);
    expect(back.nodes[0]).toEqual({
      id: "a",
      type: "step",
      name: "A",
      data: { code: "return 1;" },
      position: { x: 300, y: 40 },
    });
    expect(Object.keys(back.nodes[2]!)).toEqual(["id", "type", "name", "position", "data", "extra"]);
    expect(back.nodes[2]!.position).toEqual({ x: 9, y: 9 });
    expect((back as unknown as { future: number }).future).toBe(1);
  });

  it("gives repeated node ids distinct canvas ids and draws edges to the first", () => {
    const ir = { ...sample, nodes: [...sample.nodes, { id: "a", type: "step", name: "A2", data: {} }] };
    const c = irToCanvas(ir);
    expect(c.nodes.map((n) => n.id)).toEqual(["a", "b", "c", "#node3:a"]);
    expect(JSON.stringify(canvasToIr(c))).toBe(JSON.stringify(ir));
  });
});
