import { describe, expect, it } from "vitest";
import type { WorkflowIR } from "../ir/types";
import { writeInSlices } from "./liveChecks";

describe("writing an IR out in slices", () => {
  it("writes the text JSON.stringify writes, for a small and a large IR", async () => {
    const nodes = Array.from({ length: 2500 }, (_, i) => ({
      id: `s${i}`,
      type: "step",
      name: `Step ${i}`,
      position: { x: i, y: 0 },
      data: { code: `return ${i};`, gone: undefined },
    }));
    const edges = nodes.slice(1).map((n, i) => ({ id: `e${i}`, source: `s${i}`, target: n.id }));
    const large = {
      metadata: { name: "Big" },
      nodes,
      edges,
      entryNodeId: "s0",
      skipped: undefined,
    } as unknown as WorkflowIR;
    expect(await writeInSlices(large)).toBe(JSON.stringify(large));
    const small = { metadata: { name: "Small" }, nodes: nodes.slice(0, 3), edges: [] } as unknown as WorkflowIR;
    expect(await writeInSlices(small)).toBe(JSON.stringify(small));
  });
});
