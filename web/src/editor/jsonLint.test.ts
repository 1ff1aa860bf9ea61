import { json } from "@codemirror/lang-json";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import type { WorkflowIR } from "../ir/types";
import { lineOf, NOT_AN_IR, nodeIndexOf, parseText, problemDiagnostics, valueAt } from "./jsonLint";

const ir: WorkflowIR = {
  metadata: { name: "Lint" },
  nodes: [
    { id: "a", type: "step", name: "A", position: { x: 0, y: 0 }, data: { code: "return 1;" } },
    { id: "b", type: "step", name: "B", position: { x: 260, y: 0 }, data: { code: "return 2;" } },
  ],
  edges: [{ id: "e1", source: "a", target: "b" }],
  entryNodeId: "a",
} as WorkflowIR;

const stateOf = (text: string) => EditorState.create({ doc: text, extensions: [json()] });
const lineText = (s: EditorState, pos: number) => s.doc.lineAt(pos).text;

describe("the JSON view's diagnostics", () => {
  it("reads a valid IR", () => {
    const p = parseText(stateOf(JSON.stringify(ir, null, 2)));
    expect(p.problem).toBeUndefined();
    expect(p.ir).toEqual(ir);
  });

  it("places a syntax error at its line", () => {
    const text = JSON.stringify(ir, null, 2).replace('"name": "B",', '"name": "B"');
    const s = stateOf(text);
    const p = parseText(s);
    expect(p.problem).toBeDefined();
    expect(p.problem!.message).toMatch(/JSON/);
    // the error is where the comma is missing: right after "B", on its line
    expect(s.sliceDoc(0, p.problem!.from).endsWith('"name": "B"')).toBe(true);
    expect(lineText(s, p.problem!.from)).toContain('"name": "B"');
  });

  it("places an unfinished text's error at its end", () => {
    const s = stateOf('{\n  "nodes": [\n');
    const p = parseText(s);
    expect(p.problem).toBeDefined();
    expect(lineOf(s, p.problem!.from).line).toBeGreaterThanOrEqual(2);
  });

  it("says when the JSON is no IR", () => {
    expect(parseText(stateOf('{"nodes": []}')).problem?.message).toBe(NOT_AN_IR);
    expect(parseText(stateOf("[1, 2]")).problem?.message).toBe(NOT_AN_IR);
  });

  it("follows JSON pointers through the text", () => {
    const s = stateOf(JSON.stringify(ir, null, 2));
    const code = valueAt(s, "/nodes/1/data/code")!;
    expect(code.complete).toBe(true);
    expect(s.sliceDoc(code.value.from, code.value.to)).toBe('"return 2;"');
    const missing = valueAt(s, "/nodes/1/data/nope")!;
    expect(missing.complete).toBe(false);
    expect(s.sliceDoc(missing.key!.from, missing.key!.to)).toBe('"data"');
    expect(nodeIndexOf(s, "b")).toBe(1);
    expect(nodeIndexOf(s, "zz")).toBe(-1);
  });

  it("puts a node's problem at its node's line wherever the node now stands", () => {
    // the checked IR had b first; the text has it second, laid out on one line each
    const checked = { ...ir, nodes: [ir.nodes[1]!, ir.nodes[0]!] };
    const text = `{"metadata": {"name": "Lint"},\n"nodes": [\n${ir.nodes.map((n) => JSON.stringify(n)).join(",\n")}\n],\n"edges": []}`;
    const s = stateOf(text);
    const d = problemDiagnostics(
      s,
      [
        { path: "/nodes/0/data/code", message: "code does not compile", rule: "code" },
        { path: "/nodes/1", nodeId: "a", message: "a is lonely", rule: "graph" },
        { path: "/nodes/0", nodeId: "gone", message: "not in the text any more", rule: "graph" },
        { path: "/entryNodeId", message: "no entry", rule: "entry" },
      ],
      checked,
    );
    expect(d).toHaveLength(3);
    expect(lineText(s, d[0]!.from)).toContain('"id":"b"');
    expect(s.sliceDoc(d[0]!.from, d[0]!.to)).toBe('"return 2;"');
    expect(d[0]!.message).toBe("code does not compile (/nodes/0/data/code)");
    expect(lineText(s, d[1]!.from)).toContain('"id":"a"');
    // a path the text does not hold is marked at the deepest part it does: here the whole document's start
    expect(d[2]!.from).toBe(0);
  });
});
