// What a run's steps say about its graph: the state of each node (its last step's), and which nodes a restart can
// start from.
import type { RunStep } from "../api/models";
import type { IrNode } from "../ir/types";

export type NodeRunState = "done" | "replayed" | "failed" | "running" | "stopped" | "not-run";

// nodeStateOfStep names a step's state as the graph colours it.
export function nodeStateOfStep(s: RunStep): NodeRunState {
  switch (s.state) {
    case "complete":
    case "mocked": // a test run's step answered by its mock
      return "done";
    case "replayed":
      return "replayed";
    case "errored":
      return "failed";
    case "terminated":
      return "stopped";
    case "rolled_back": // a rollback undid the node's step
      return "done";
    case "rollback_failed":
      return "failed";
    case "running":
    case "retrying":
    case "waiting":
      return "running";
  }
}

// nodeStates maps each node id to the state of its last step in the run (a node in a loop has several steps).
export function nodeStates(steps: readonly RunStep[]): Map<string, NodeRunState> {
  const out = new Map<string, NodeRunState>();
  // A rollback is not the node's run: the node keeps the state of its step.
  for (const s of steps) if (s.nodeId && s.type !== "rollback") out.set(s.nodeId, nodeStateOfStep(s));
  return out;
}

// Nodes that do not run as a step of their own: a restart cannot start from them (docs/runs.md).
const NOT_A_STEP = new Set(["branch", "parallel", "race", "try_catch", "loop", "break"]);

// restartable tells whether a restart can start from the node.
export function restartable(n: Pick<IrNode, "type">): boolean {
  return !NOT_A_STEP.has(n.type);
}

// stateLabel is a node state in words.
export function stateLabel(s: NodeRunState): string {
  return {
    done: "complete",
    replayed: "replayed",
    failed: "failed",
    running: "running",
    stopped: "stopped",
    "not-run": "not run",
  }[s];
}
