import { describe, expect, it } from "vitest";
import { irToCanvas, NODE_WIDTH, nodeHeight } from "../ir/canvas";
import type { WorkflowIR } from "../ir/types";
import { nodeAt, rectsPath } from "./lod";
import { nodesPath } from "./MiniMapPath";

const ir = (nodes: Array<{ id: string; x: number; y: number }>): WorkflowIR =>
  ({
    kind: "workflow",
    nodes: nodes.map((n) => ({ id: n.id, type: "step", name: n.id, position: { x: n.x, y: n.y }, data: {} })),
    edges: [],
    entryNodeId: nodes[0]?.id,
  }) as unknown as WorkflowIR;

describe("the minimap's one path", () => {
  it("draws a rectangle per node, measured or at its drawn size, and answers their bounds", () => {
    const c = irToCanvas(
      ir([
        { id: "a", x: 0, y: 0 },
        { id: "b", x: 300, y: 100 },
      ]),
    );
    c.nodes[1] = { ...c.nodes[1]!, measured: { width: 200, height: 80 } };
    const { d, bounds } = nodesPath(c.nodes);
    const h = nodeHeight(1);
    expect(d).toBe(`M0 0h${NODE_WIDTH}v${h}h-${NODE_WIDTH}zM300 100h200v80h-200z`);
    expect(bounds).toEqual({ x: 0, y: 0, width: 500, height: 180 });
  });

  it("leaves hidden nodes out and has no bounds without nodes", () => {
    const c = irToCanvas(ir([{ id: "a", x: 0, y: 0 }]));
    expect(nodesPath([{ ...c.nodes[0]!, hidden: true }])).toEqual({ d: "", bounds: null });
    expect(nodesPath([])).toEqual({ d: "", bounds: null });
  });
});

describe("the overview's hit test", () => {
  it("finds the node whose box holds a point, the last drawn first, and none between boxes", () => {
    const c = irToCanvas(
      ir([
        { id: "a", x: 0, y: 0 },
        { id: "b", x: 100, y: 10 },
        { id: "c", x: 1000, y: 0 },
      ]),
    );
    expect(nodeAt(c.nodes, 5, 5)?.id).toBe("a");
    expect(nodeAt(c.nodes, 150, 20)?.id).toBe("b");
    expect(nodeAt(c.nodes, 600, 5)).toBeUndefined();
    expect(rectsPath(c.nodes.slice(2))).toBe(`M1000 0h${NODE_WIDTH}v${nodeHeight(1)}h-${NODE_WIDTH}z`);
  });
});
