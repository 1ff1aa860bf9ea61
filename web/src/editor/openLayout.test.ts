import { describe, expect, it } from "vitest";
import type { WorkflowIR } from "../ir/types";
import { needsLayout, withPositions } from "./openLayout";

const ir = (positions: Array<{ x: number; y: number } | undefined>): WorkflowIR =>
  ({
    metadata: { name: "t" },
    entryNodeId: "a",
    edges: [],
    nodes: positions.map((p, i) => ({ id: `n${i}`, type: "step", name: `N${i}`, data: {}, position: p })),
  }) as unknown as WorkflowIR;

describe("needsLayout", () => {
  it("asks for a layout when a node has no position", () => {
    expect(needsLayout(ir([{ x: 0, y: 0 }, undefined]))).toBe(true);
  });
  it("asks for a layout when two nodes share a position", () => {
    expect(
      needsLayout(
        ir([
          { x: 5, y: 5 },
          { x: 5, y: 5 },
        ]),
      ),
    ).toBe(true);
  });
  it("keeps an IR whose nodes all have their own place", () => {
    expect(
      needsLayout(
        ir([
          { x: 0, y: 0 },
          { x: 240, y: 0 },
        ]),
      ),
    ).toBe(false);
    expect(needsLayout(ir([]))).toBe(false);
  });
});

describe("withPositions", () => {
  it("places the named nodes and keeps the others and the document's other keys", () => {
    const before = ir([undefined, { x: 1, y: 2 }]);
    const after = withPositions(before, new Map([["n0", { x: 10, y: 20 }]]));
    expect(after.nodes[0]!.position).toEqual({ x: 10, y: 20 });
    expect(after.nodes[1]).toBe(before.nodes[1]);
    expect(after.entryNodeId).toBe("a");
  });
});
