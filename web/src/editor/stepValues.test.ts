import { describe, expect, it } from "vitest";
import type { TestResult } from "../api/models";
import { preview, stepValuesOf, valueAt, withValues } from "./stepValues";

const result: TestResult = {
  status: "complete",
  output: { receipt: "R-7" },
  error: null,
  logs: [],
  durationMs: 12,
  pinned: ["charge"],
  steps: [
    step("load", "complete", { total: 42, items: [{ sku: "A-1" }] }),
    step("charge", "mocked", { charged: 7 }),
    { ...step("notify", "errored", null), error: { name: "Error", message: "mail server down" } },
  ],
};

function step(
  nodeId: string,
  state: TestResult["steps"][number]["state"],
  output: unknown,
): TestResult["steps"][number] {
  return {
    nodeId,
    name: nodeId,
    type: "step",
    state,
    attempts: 1,
    startedAt: null,
    endedAt: null,
    output,
    outputTruncated: false,
    error: null,
  };
}

describe("stepValuesOf", () => {
  it("keys the steps by node, marks pinned ones and writes errors", () => {
    const v = stepValuesOf(result);
    expect(v.get("load")).toEqual({
      state: "complete",
      output: { total: 42, items: [{ sku: "A-1" }] },
      error: null,
      pinned: false,
    });
    expect(v.get("charge")?.pinned).toBe(true);
    expect(v.get("notify")?.error).toBe("Error: mail server down");
  });
});

describe("stepValuesOf a run", () => {
  it("takes a run's steps, leaving out outputs the server cut", () => {
    const v = stepValuesOf({
      steps: [step("load", "complete", { total: 4 }), { ...step("big", "complete", null), outputTruncated: true }],
    });
    expect(v.get("load")).toEqual({ state: "complete", output: { total: 4 }, error: null, pinned: false });
    expect(v.has("big")).toBe(false);
    expect(stepValuesOf({}).size).toBe(0);
  });
});

describe("valueAt", () => {
  const v = stepValuesOf(result);
  it("reads fields and indexes", () => {
    expect(valueAt(v, "load.total")).toEqual({ found: true, value: 42 });
    expect(valueAt(v, "load.items[0].sku")).toEqual({ found: true, value: "A-1" });
    expect(valueAt(v, "load")).toEqual({ found: true, value: { total: 42, items: [{ sku: "A-1" }] } });
  });
  it("finds nothing where the path leads nowhere, the node errored or has no value", () => {
    expect(valueAt(v, "load.missing").found).toBe(false);
    expect(valueAt(v, "load.total.deeper").found).toBe(false);
    expect(valueAt(v, "notify").found).toBe(false);
    expect(valueAt(v, "event.payload").found).toBe(false);
    expect(valueAt(v, "load.constructor").found).toBe(false);
  });
});

describe("withValues", () => {
  it("gives the suggested paths their value from the last test", () => {
    const opts = withValues(
      [
        { path: "load", detail: "Load (Step)" },
        { path: "load.total", detail: "returned by Load" },
        { path: "event.payload", detail: "the trigger payload" },
      ],
      stepValuesOf(result),
    );
    expect(opts[1]).toEqual({ path: "load.total", detail: "returned by Load", value: "42" });
    expect(opts[0]!.value).toBe('{"total":42,"items":[{"sku":"A-1"}]}');
    expect(opts[2]!.value).toBeUndefined();
  });
  it("leaves the options as they are before any test", () => {
    const opts = [{ path: "load", detail: "Load" }];
    expect(withValues(opts, new Map())).toBe(opts);
  });
});

describe("preview", () => {
  it("cuts long values with an ellipsis", () => {
    expect(preview("x".repeat(100), 10)).toBe('"xxxxxxxx…');
    expect(preview(undefined)).toBe("undefined");
    expect(preview(null)).toBe("null");
  });
});
