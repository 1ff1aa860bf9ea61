import { describe, expect, it, vi } from "vitest";
import type { WorkflowIR } from "../ir/types";
import { ProblemStore, nodeIdOfProblem, problemsByNode } from "./problemStore";

const ir: WorkflowIR = {
  metadata: { name: "x" },
  nodes: [
    { id: "a", type: "step", name: "A", data: {} },
    { id: "b", type: "sleep", name: "B", data: {} },
  ],
  edges: [],
  entryNodeId: "a",
};

describe("problems on nodes", () => {
  it("pins a problem to its nodeId, else to the node its path points into", () => {
    expect(nodeIdOfProblem(ir, { path: "/nodes/1/data/duration", message: "m", rule: "node-data" })).toBe("b");
    expect(nodeIdOfProblem(ir, { path: "/edges/0", message: "m", rule: "edge-ends", nodeId: "a" })).toBe("a");
    expect(nodeIdOfProblem(ir, { path: "/metadata/name", message: "m", rule: "metadata" })).toBeUndefined();
    const by = problemsByNode(ir, [
      { path: "/nodes/1/data/duration", message: "required", rule: "node-data" },
      { path: "/nodes/1", message: "unreachable", rule: "reachable" },
      { path: "", message: "doc", rule: "json" },
    ]);
    expect([...by.keys()]).toEqual(["b"]);
    expect(by.get("b")).toHaveLength(2);
  });

  it("tells only when a node's problems change", () => {
    const store = new ProblemStore();
    const fn = vi.fn();
    store.subscribe(fn);
    store.set(problemsByNode(ir, [{ path: "/nodes/0/data/code", message: "required", rule: "node-data" }]));
    expect(fn).toHaveBeenCalledTimes(1);
    const first = store.get("a");
    store.set(problemsByNode(ir, [{ path: "/nodes/0/data/code", message: "required", rule: "node-data" }]));
    expect(fn).toHaveBeenCalledTimes(1);
    expect(store.get("a")).toBe(first);
    store.set(new Map());
    expect(fn).toHaveBeenCalledTimes(2);
    expect(store.get("a")).toEqual([]);
  });
});
