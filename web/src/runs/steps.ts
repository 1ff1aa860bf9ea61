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

// The severity of states when a container sums up the nodes of its lanes: the worst one shows.
const SEVERITY: Record<NodeRunState, number> = {
  "not-run": 0,
  done: 1,
  replayed: 1,
  stopped: 2,
  running: 3,
  failed: 4,
};

interface EdgeLike {
  source: string;
  target: string;
  label?: string | null;
}

// lanes follows each outlet of a container (not its "then") to the nodes of that lane, until a node that more than
// one edge leads into (the join after the container); a node reached by two lanes counts in the first.
function lanes(
  id: string,
  out: ReadonlyMap<string, EdgeLike[]>,
  indeg: ReadonlyMap<string, number>,
): { label: string; nodes: string[] }[] {
  const seen = new Set<string>();
  const result: { label: string; nodes: string[] }[] = [];
  for (const lane of out.get(id) ?? []) {
    if (lane.label === "then") continue;
    const nodes: string[] = [];
    const stack = [lane.target];
    while (stack.length > 0) {
      const n = stack.pop()!;
      if (seen.has(n) || (indeg.get(n) ?? 0) > 1) continue;
      seen.add(n);
      nodes.push(n);
      for (const e of out.get(n) ?? []) stack.push(e.target);
    }
    result.push({ label: lane.label ?? "", nodes });
  }
  return result;
}

// graphOf indexes edges by source and counts the edges into each node.
function graphOf(edges: readonly EdgeLike[]) {
  const out = new Map<string, EdgeLike[]>();
  const indeg = new Map<string, number>();
  for (const e of edges) {
    let l = out.get(e.source);
    if (!l) out.set(e.source, (l = []));
    l.push(e);
    indeg.set(e.target, (indeg.get(e.target) ?? 0) + 1);
  }
  return { out, indeg };
}

// isContainer tells whether a node is a container (branch, parallel, race, try/catch, loop).
export function isContainer(n: { type: string }): boolean {
  return NOT_A_STEP.has(n.type) && n.type !== "break";
}

/**
 * containerStates gives each container node (branch, parallel, race, try/catch, loop) a state from the nodes of its
 * lanes, which run as steps while the container itself does not: the worst of them (failed, running, stopped) or
 * complete once one of them ran; and it names, per container, the outlets whose lane ran (the arm taken).
 */
export function containerStates(
  nodes: ReadonlyArray<{ id: string; type: string }>,
  edges: readonly EdgeLike[],
  states: ReadonlyMap<string, NodeRunState>,
): { states: Map<string, NodeRunState>; taken: Map<string, string[]> } {
  const { out, indeg } = graphOf(edges);
  const result = new Map(states);
  const taken = new Map<string, string[]>();
  for (const n of nodes) {
    if (!isContainer(n)) continue;
    let worst: NodeRunState = "not-run";
    const arms: string[] = [];
    for (const lane of lanes(n.id, out, indeg)) {
      let ran = false;
      for (const id of lane.nodes) {
        const s = states.get(id) ?? "not-run";
        if (s !== "not-run") ran = true;
        if (SEVERITY[s] > SEVERITY[worst]) worst = s;
      }
      if (ran) arms.push(lane.label);
    }
    if (worst === "replayed") worst = "done";
    if (worst !== "not-run") result.set(n.id, worst);
    if (arms.length > 0) taken.set(n.id, arms);
  }
  return { states: result, taken };
}

// ContainerEntry is a container as the Steps list and the restart picker show it: its state and arms taken, and
// the first step of its lanes in the run (the index in the steps, and its node: where a restart from the container
// starts), or none when no node of its lanes ran.
export interface ContainerEntry {
  id: string;
  name: string;
  type: string;
  state: NodeRunState;
  arms: string[];
  firstStep?: { index: number; nodeId: string };
}

/**
 * containerEntries lists the containers of a run's version with their state, the arms taken and the first step of
 * their lanes in the run's steps (execution order).
 */
export function containerEntries(
  nodes: ReadonlyArray<{ id: string; type: string; name?: string }>,
  edges: readonly EdgeLike[],
  steps: readonly RunStep[],
): ContainerEntry[] {
  const { out, indeg } = graphOf(edges);
  const { states, taken } = containerStates(nodes, edges, nodeStates(steps));
  const result: ContainerEntry[] = [];
  for (const n of nodes) {
    if (!isContainer(n)) continue;
    const members = new Set(lanes(n.id, out, indeg).flatMap((l) => l.nodes));
    const index = steps.findIndex((s) => s.nodeId !== "" && s.type !== "rollback" && members.has(s.nodeId));
    result.push({
      id: n.id,
      name: n.name || n.id,
      type: n.type,
      state: states.get(n.id) ?? "not-run",
      arms: taken.get(n.id) ?? [],
      ...(index >= 0 ? { firstStep: { index, nodeId: steps[index]!.nodeId } } : {}),
    });
  }
  return result;
}

/**
 * outputSource names the node a run's output came from (docs/ir.md, "The run's output"): the node outputNodeId
 * names, else the last step that completed with a value (not a sleep) in execution order.
 */
export function outputSource(outputNodeId: string | undefined, steps: readonly RunStep[]): string | undefined {
  if (outputNodeId) return outputNodeId;
  for (let i = steps.length - 1; i >= 0; i--) {
    const s = steps[i]!;
    if (!s.nodeId || s.type === "sleep" || s.type === "sleep_until") continue;
    const st = nodeStateOfStep(s);
    if (st === "done" || st === "replayed") return s.nodeId;
  }
  return undefined;
}
