import { describe, expect, it } from "vitest";
import {
  addNode,
  connect,
  copyNodes,
  idFromName,
  pasteNodes,
  removeElements,
  renameNode,
  setBranches,
  setEntry,
} from "./edit";
import type { NodeDefinition } from "./nodeDefs";
import type { WorkflowIR } from "./types";

const stepDef: NodeDefinition = {
  id: "step",
  name: "Step",
  description: "",
  category: "Code",
  version: "1.0.0",
  configSchema: { code: { type: "code", label: "Code", required: true } },
  outputSchema: {},
  allowedInFunctions: true,
  builtin: true,
};
const waitDef: NodeDefinition = {
  ...stepDef,
  id: "wait_for_event",
  name: "Wait for event",
  configSchema: {
    eventType: { type: "string", label: "Event type", required: true },
    timeout: { type: "string", label: "Timeout", default: "24 hours" },
  },
};

const empty: WorkflowIR = { metadata: { name: "x" }, nodes: [], edges: [], entryNodeId: "" };

describe("edits", () => {
  it("adds nodes with fresh ids and defaults; the first becomes the entry; Enter-after inserts into a chain", () => {
    let r = addNode(empty, stepDef, { position: { x: 0, y: 0 } });
    expect(r.id).toBe("step_1");
    expect(r.ir.entryNodeId).toBe("step_1");
    r = addNode(r.ir, stepDef, { position: { x: 240, y: 0 }, after: "step_1" });
    expect(r.id).toBe("step_2");
    expect(r.ir.edges).toEqual([{ id: "e_step_1_step_2_1", source: "step_1", target: "step_2" }]);
    const w = addNode(r.ir, waitDef, { position: { x: 100, y: 0 }, after: "step_1" });
    expect(w.ir.nodes[2]).toMatchObject({
      id: "wait_for_event_1",
      name: "Wait for event 1",
      data: { timeout: "24 hours" },
    });
    expect(w.ir.edges.map((e) => [e.source, e.target])).toEqual([
      ["step_1", "wait_for_event_1"],
      ["wait_for_event_1", "step_2"],
    ]);
    expect(w.ir.entryNodeId).toBe("step_1");
  });

  it("connects: a single outlet moves, parallel lanes add up, labels are kept", () => {
    const ir: WorkflowIR = {
      ...empty,
      nodes: ["a", "b", "c"]
        .map((id) => ({ id, type: "step", name: id, data: {} }))
        .concat([{ id: "p", type: "parallel", name: "p", data: {} }]),
      entryNodeId: "a",
    };
    let x = connect(ir, "a", "b", undefined);
    x = connect(x, "a", "c", undefined);
    expect(x.edges.map((e) => e.target)).toEqual(["c"]);
    x = connect(x, "p", "a", undefined);
    x = connect(x, "p", "b", undefined);
    x = connect(x, "p", "c", "then");
    expect(x.edges.filter((e) => e.source === "p").map((e) => [e.target, e.label])).toEqual([
      ["a", undefined],
      ["b", undefined],
      ["c", "then"],
    ]);
    expect(connect(x, "a", "a", undefined)).toBe(x);
  });

  it("removes nodes with their edges and passes the entry on", () => {
    let r = addNode(empty, stepDef, { position: { x: 0, y: 0 } });
    r = addNode(r.ir, stepDef, { position: { x: 0, y: 0 }, after: "step_1" });
    const x = removeElements(r.ir, new Set(["step_1"]), new Set());
    expect(x.nodes.map((n) => n.id)).toEqual(["step_2"]);
    expect(x.edges).toEqual([]);
    expect(x.entryNodeId).toBe("step_2");
    expect(setEntry(x, "step_2")).toBe(x);
  });

  it("pastes copies with fresh ids, their edges, and expressions that follow the new ids", () => {
    let r = addNode(empty, stepDef, { position: { x: 0, y: 0 } });
    r = addNode(r.ir, stepDef, { position: { x: 200, y: 0 }, after: "step_1" });
    const ir = {
      ...r.ir,
      nodes: r.ir.nodes.map((n) =>
        n.id === "step_2" ? { ...n, data: { code: "return {{step_1.v}} + {{step_10.v}};" } } : n,
      ),
    };
    const clip = copyNodes(ir, new Set(["step_1", "step_2"]));
    const p = pasteNodes(ir, clip, { x: 40, y: 40 });
    expect(p.ids).toEqual(["step_3", "step_4"]);
    expect(p.ir.nodes[3]).toMatchObject({
      id: "step_4",
      name: "Step 2 (copy)",
      position: { x: 240, y: 40 },
      data: { code: "return {{step_3.v}} + {{step_10.v}};" },
    });
    expect(p.ir.edges.at(-1)).toMatchObject({ source: "step_3", target: "step_4" });
    expect(p.ir.nodes).toHaveLength(4);
  });

  it("renaming an arm relabels its edge", () => {
    const ir: WorkflowIR = {
      ...empty,
      nodes: [
        { id: "b", type: "branch", name: "b", data: { branches: [{ label: "yes", condition: "1" }] } },
        { id: "s", type: "step", name: "s", data: {} },
      ],
      edges: [{ id: "e", source: "b", target: "s", label: "yes" }],
      entryNodeId: "b",
    };
    const x = setBranches(ir, 0, [{ label: "big", condition: "1" }]);
    expect(x.edges[0]!.label).toBe("big");
  });

  it("adds a node on a chosen outlet: an arm's node moves behind it, a lane is added, then is the default", () => {
    const ir: WorkflowIR = {
      ...empty,
      nodes: [
        { id: "b", type: "branch", name: "b", data: { branches: [{ label: "yes", condition: "1" }] } },
        { id: "s", type: "step", name: "s", data: {} },
        { id: "p", type: "parallel", name: "p", data: {} },
      ],
      edges: [
        { id: "e", source: "b", target: "s", label: "yes" },
        { id: "l", source: "p", target: "s" },
      ],
      entryNodeId: "b",
    };
    const arm = addNode(ir, stepDef, { position: { x: 0, y: 0 }, after: "b", outlet: "yes" });
    expect(arm.ir.edges.map((e) => [e.source, e.target, e.label])).toEqual([
      ["b", "step_1", "yes"],
      ["p", "s", undefined],
      ["step_1", "s", undefined],
    ]);
    const lane = addNode(ir, stepDef, { position: { x: 0, y: 0 }, after: "p", outlet: "" });
    expect(lane.ir.edges.filter((e) => e.source === "p").map((e) => e.target)).toEqual(["s", "step_1"]);
    const then = addNode(ir, stepDef, { position: { x: 0, y: 0 }, after: "b" });
    expect(then.ir.edges.at(-1)).toMatchObject({ source: "b", target: "step_1", label: "then" });
  });

  it("renames a node's id with its edges, the entry, the output node and every expression naming it", () => {
    const ir: WorkflowIR = {
      ...empty,
      nodes: [
        { id: "step_1", type: "step", name: "Load", data: { code: "return 1;" } },
        {
          id: "step_2",
          type: "step",
          name: "Use",
          data: { code: "return {{step_1.v}} + {{ step_1 }} + {{step_10.v}};", list: ["{{step_1.x}}"] },
          config: { rollback: { code: "undo({{step_1.v}})" } },
        },
        { id: "step_3", type: "step", name: "Other", data: { code: "return 2;" } },
      ],
      edges: [{ id: "e1", source: "step_1", target: "step_2" }],
      entryNodeId: "step_1",
      outputNodeId: "step_1",
    };
    const x = renameNode(ir, "step_1", "load");
    expect(x.nodes.map((n) => n.id)).toEqual(["load", "step_2", "step_3"]);
    expect(x.nodes[1]!.data).toEqual({
      code: "return {{load.v}} + {{ load }} + {{step_10.v}};",
      list: ["{{load.x}}"],
    });
    expect(x.nodes[1]!.config).toEqual({ rollback: { code: "undo({{load.v}})" } });
    expect(x.nodes[2]).toBe(ir.nodes[2]);
    expect(x.edges[0]).toMatchObject({ source: "load", target: "step_2" });
    expect([x.entryNodeId, x.outputNodeId]).toEqual(["load", "load"]);
    // a taken id or one that is no slug changes nothing
    expect(renameNode(ir, "step_1", "step_2")).toBe(ir);
    expect(renameNode(ir, "step_1", "has space")).toBe(ir);
    expect(idFromName(ir, "Load the order!", "step_1")).toBe("load_the_order");
    expect(idFromName(ir, "Step 2", "step_1")).toBe("step_2_1");
    expect(idFromName(ir, "!!!", "step_1")).toBeUndefined();
  });
});
