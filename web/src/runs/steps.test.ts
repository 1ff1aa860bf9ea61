import { describe, expect, it } from "vitest";
import type { RunStep } from "../api/models";
import { containerEntries, containerStates, nodeStates, outputSource, restartable } from "./steps";

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
    const m = nodeStates([
      step("load", "replayed"),
      step("check", "errored"),
      step("loop", "complete"),
      step("loop", "running"),
      step("", "complete"),
    ]);
    expect(Object.fromEntries(m)).toEqual({ load: "replayed", check: "failed", loop: "running" });
  });
  it("offer restarts only from nodes that run as steps", () => {
    expect(restartable({ type: "step" })).toBe(true);
    expect(restartable({ type: "wait_for_event" })).toBe(true);
    expect(restartable({ type: "branch" })).toBe(false);
    expect(restartable({ type: "loop" })).toBe(false);
  });
});

describe("containers on the run graph", () => {
  // score → grade (branch: high → praise → settle, low → note)
  const nodes = [
    { id: "score", type: "step" },
    { id: "grade", type: "branch" },
    { id: "praise", type: "step" },
    { id: "note", type: "step" },
    { id: "settle", type: "sleep" },
  ];
  const edges = [
    { source: "score", target: "grade" },
    { source: "grade", target: "praise", label: "high" },
    { source: "grade", target: "note", label: "low" },
    { source: "praise", target: "settle" },
  ];
  it("take the state of their lanes and name the arm taken", () => {
    const { states, taken } = containerStates(
      nodes,
      edges,
      nodeStates([step("score", "complete"), step("praise", "complete"), step("settle", "complete")]),
    );
    expect(states.get("grade")).toBe("done");
    expect(taken.get("grade")).toEqual(["high"]);
  });
  it("show a failure inside a lane", () => {
    const { states } = containerStates(nodes, edges, nodeStates([step("score", "complete"), step("note", "errored")]));
    expect(states.get("grade")).toBe("failed");
  });
  it("stay not run before a lane ran", () => {
    const { states, taken } = containerStates(nodes, edges, nodeStates([step("score", "running")]));
    expect(states.has("grade")).toBe(false);
    expect(taken.size).toBe(0);
  });
  it("are listed with their state, the arm taken and the first step of their lanes", () => {
    const named = nodes.map((n) => ({ ...n, name: n.id === "grade" ? "Grade" : n.id }));
    const steps = [step("score", "complete"), step("praise", "complete"), step("settle", "complete")];
    expect(containerEntries(named, edges, steps)).toEqual([
      {
        id: "grade",
        name: "Grade",
        type: "branch",
        state: "done",
        arms: ["high"],
        firstStep: { index: 1, nodeId: "praise" },
      },
    ]);
    const before = containerEntries(named, edges, [step("score", "running")]);
    expect(before).toEqual([{ id: "grade", name: "Grade", type: "branch", state: "not-run", arms: [] }]);
  });
});

describe("the node a run's output came from", () => {
  it("is outputNodeId when the IR names one", () => {
    expect(outputSource("score", [step("score", "complete"), step("praise", "complete")])).toBe("score");
  });
  it("is the last completed step with a value otherwise, never a sleep", () => {
    const sleep = { ...step("settle", "complete"), type: "sleep" };
    expect(outputSource(undefined, [step("score", "complete"), step("praise", "complete"), sleep])).toBe("praise");
    expect(outputSource(undefined, [])).toBeUndefined();
  });
});
