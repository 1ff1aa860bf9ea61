import { describe, expect, it } from "vitest";
import type { RunStep } from "../api/models";
import { nodeStates, restartable } from "./steps";

const step = (nodeId: string, state: RunStep["state"]): RunStep => ({
  nodeId,
  name: nodeId,
  type: "step",
  state,
  attempts: 1,
  startedAt: null,
  endedAt: null,
  output: null,
  outputTruncated: false,
  error: null,
});

describe("run graph states", () => {
  it("take each node's last step", () => {
    const m = nodeStates([step("load", "replayed"), step("check", "errored"), step("loop", "complete"), step("loop", "running"), step("", "complete")]);
    expect(Object.fromEntries(m)).toEqual({ load: "replayed", check: "failed", loop: "running" });
  });
  it("offer restarts only from nodes that run as steps", () => {
    expect(restartable({ type: "step" })).toBe(true);
    expect(restartable({ type: "wait_for_event" })).toBe(true);
    expect(restartable({ type: "branch" })).toBe(false);
    expect(restartable({ type: "loop" })).toBe(false);
  });
});
