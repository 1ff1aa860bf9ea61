import { describe, expect, it } from "vitest";
import { expressionOptions, openExpression, returnKeys } from "./expressions";
import type { NodeDefinition } from "./nodeDefs";
import type { WorkflowIR } from "./types";

describe("returnKeys", () => {
  it("reads the keys of the returned object literal", () => {
    expect(
      returnKeys("const x = 1;\nreturn { total: x, 'quoted': 2, short, nested: { inner: 1 }, ...rest, fn() {} };"),
    ).toEqual(["total", "quoted", "short", "nested", "fn"]);
    expect(returnKeys("return 5;")).toEqual([]);
    expect(returnKeys("if (a) return { a: 1 };\nreturn { b: `x,${y}` };")).toEqual(["b"]);
  });
});

describe("openExpression", () => {
  it("finds the expression being typed", () => {
    expect(openExpression("return {{fet")).toEqual({ from: 9, typed: "fet" });
    expect(openExpression("return {{")).toEqual({ from: 9, typed: "" });
    expect(openExpression("return {{a.b}} + 1")).toBeNull();
  });
});

const http: NodeDefinition = {
  id: "http_request",
  name: "HTTP request",
  description: "",
  category: "HTTP",
  version: "1.0.0",
  configSchema: {},
  outputSchema: { status: { type: "number" }, body: { type: "any", description: "parsed JSON" } },
  allowedInFunctions: true,
  builtin: true,
};

// start → fetch → branch b (yes: big, no: small) → then: after; a loop l whose body is item_step
const ir: WorkflowIR = {
  metadata: { name: "x" },
  entryNodeId: "start",
  nodes: [
    { id: "start", type: "step", name: "Start", data: { code: "return { items: [1], count: 1 };" } },
    { id: "fetch", type: "http_request", name: "Fetch", data: {} },
    {
      id: "b",
      type: "branch",
      name: "B",
      data: {
        branches: [
          { label: "yes", condition: "1" },
          { label: "no", condition: "" },
        ],
      },
    },
    { id: "big", type: "step", name: "Big", data: { code: "return { big: true };" } },
    { id: "small", type: "step", name: "Small", data: { code: "" } },
    { id: "after", type: "loop", name: "Loop", data: { loopType: "forEach", collection: "{{start.items}}" } },
    { id: "item_step", type: "step", name: "Item", data: { code: "" } },
  ],
  edges: [
    { id: "1", source: "start", target: "fetch" },
    { id: "2", source: "fetch", target: "b" },
    { id: "3", source: "b", target: "big", label: "yes" },
    { id: "4", source: "b", target: "small", label: "no" },
    { id: "5", source: "b", target: "after", label: "then" },
    { id: "6", source: "after", target: "item_step", label: "body" },
  ],
};
const defs = new Map([["http_request", http]]);

describe("expressionOptions", () => {
  it("offers upstream nodes only, with their fields", () => {
    const paths = expressionOptions(ir, "small", defs).map((o) => o.path);
    expect(paths).toEqual([
      "start",
      "start.items",
      "start.count",
      "fetch",
      "fetch.status",
      "fetch.body",
      "b",
      "event.payload",
      "event.timestamp",
      "event.instanceId",
      "run.id",
      "step.attempt",
      "step.count",
    ]);
    expect(paths).not.toContain("big"); // another arm
    expect(expressionOptions(ir, "start", defs).map((o) => o.path)).toEqual([
      "event.payload",
      "event.timestamp",
      "event.instanceId",
      "run.id",
      "step.attempt",
      "step.count",
    ]);
  });

  it("offers the step context only where a durable step evaluates the field, and not over a node of that id", () => {
    const at = (id: string, graph: WorkflowIR = ir) => expressionOptions(graph, id, defs).map((o) => o.path);
    expect(at("after")).toContain("run.id"); // a loop: the run, but no step of its own
    expect(at("after")).not.toContain("step.attempt");
    expect(at("fetch")).toContain("step.count");
    const named: WorkflowIR = { ...ir, nodes: [...ir.nodes, { id: "run", type: "step", name: "Run", data: {} }] };
    expect(at("small", named)).not.toContain("run.id");
    expect(expressionOptions(ir, "small", defs, { kind: "script" }).map((o) => o.path)).not.toContain("run.id");
  });

  it("offers a loop's item and index inside its body, and env vars; functions get payload only", () => {
    const paths = expressionOptions(ir, "item_step", defs, { kind: "script", envVars: ["API_TOKEN"] }).map(
      (o) => o.path,
    );
    expect(paths).toContain("after.item");
    expect(paths).toContain("after.index");
    expect(paths).toContain("env.API_TOKEN");
    expect(paths).not.toContain("big");
    expect(paths).not.toContain("event.timestamp");
  });
});
