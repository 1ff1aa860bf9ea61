// Graph facts about an IR that the editor needs: the labels a node's outgoing edges may carry (its handles) and
// which nodes are upstream of a node (for expression completion), following docs/ir.md.
import type { IrEdge, IrNode, WorkflowIR } from "./types";

// CONTAINER_LABELS are the fixed labels of each container type; branch arms and parallel/race lanes add theirs.
const CONTAINER_LABELS: Record<string, string[]> = {
  branch: ["then"],
  parallel: ["then"],
  race: ["then"],
  try_catch: ["try", "catch", "finally", "then"],
  loop: ["body", "then"],
};

export function isContainer(type: string): boolean {
  return type in CONTAINER_LABELS;
}

// A source handle: label undefined is the unlabelled outlet (a plain node's next node, a parallel/race lane).
export interface HandleSpec {
  id: string;
  label: string | undefined;
}

export function handleId(label: string | undefined): string {
  return label === undefined ? "out" : "l:" + label;
}

export function labelOfHandle(id: string | null | undefined): string | undefined {
  if (!id || id === "out") return undefined;
  return id.startsWith("l:") ? id.slice(2) : undefined;
}

function branchLabels(node: IrNode): string[] {
  const arms = (node.data as { branches?: unknown } | undefined)?.branches;
  if (!Array.isArray(arms)) return [];
  const out: string[] = [];
  for (const a of arms) {
    const l = (a as { label?: unknown } | null)?.label;
    if (typeof l === "string") out.push(l);
  }
  return out;
}

// sourceHandles lists the outlets of a node: what its type offers, then any label its existing edges carry that the
// type does not offer (an invalid IR is drawn as it is; the validator names the problem).
export function sourceHandles(node: IrNode, outgoing: readonly IrEdge[]): HandleSpec[] {
  const labels: Array<string | undefined> = [];
  const type = node.type;
  if (type === "branch") labels.push(...branchLabels(node), "then");
  else if (type === "parallel" || type === "race") labels.push(undefined, "then");
  else if (type in CONTAINER_LABELS) labels.push(...(CONTAINER_LABELS[type] ?? []));
  else if (type !== "break") labels.push(undefined);
  for (const e of outgoing) {
    const l = typeof e.label === "string" ? e.label : undefined;
    if (!labels.includes(l)) labels.push(l);
  }
  const seen = new Set<string>();
  const out: HandleSpec[] = [];
  for (const l of labels) {
    const id = handleId(l);
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ id, label: l });
  }
  return out;
}

// Adjacency of an IR by node id (the first node of a duplicated id wins, as edges name ids).
export interface Adjacency {
  succ: Map<string, string[]>;
  pred: Map<string, string[]>;
}

export function adjacency(ir: WorkflowIR): Adjacency {
  const succ = new Map<string, string[]>();
  const pred = new Map<string, string[]>();
  for (const n of ir.nodes) {
    if (typeof n?.id !== "string" || succ.has(n.id)) continue;
    succ.set(n.id, []);
    pred.set(n.id, []);
  }
  for (const e of ir.edges) {
    if (!e || !succ.has(e.source) || !succ.has(e.target)) continue;
    succ.get(e.source)!.push(e.target);
    pred.get(e.target)!.push(e.source);
  }
  return { succ, pred };
}

// dominators returns, for every node reachable from the entry, the set of nodes on every path from the entry to it
// (itself included): the "upstream" of docs/ir.md's expression rule. Cooper, Harvey and Kennedy's iterative method.
export function dominators(ir: WorkflowIR): Map<string, Set<string>> {
  const { succ, pred } = adjacency(ir);
  const entry = ir.entryNodeId;
  const result = new Map<string, Set<string>>();
  if (!succ.has(entry)) return result;
  // reverse postorder by an explicit stack
  const order: string[] = [];
  const visited = new Set<string>([entry]);
  const stack: Array<[string, number]> = [[entry, 0]];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const next = succ.get(top[0])!;
    if (top[1] < next.length) {
      const s = next[top[1]++]!;
      if (!visited.has(s)) {
        visited.add(s);
        stack.push([s, 0]);
      }
    } else {
      order.push(top[0]);
      stack.pop();
    }
  }
  order.reverse();
  const rpo = new Map(order.map((id, i) => [id, i]));
  const idom = new Map<string, string>([[entry, entry]]);
  const intersect = (a: string, b: string): string => {
    while (a !== b) {
      while (rpo.get(a)! > rpo.get(b)!) a = idom.get(a)!;
      while (rpo.get(b)! > rpo.get(a)!) b = idom.get(b)!;
    }
    return a;
  };
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of order) {
      if (id === entry) continue;
      let dom: string | undefined;
      for (const p of pred.get(id)!) {
        if (!idom.has(p)) continue;
        dom = dom === undefined ? p : intersect(p, dom);
      }
      if (dom !== undefined && idom.get(id) !== dom) {
        idom.set(id, dom);
        changed = true;
      }
    }
  }
  for (const id of order) {
    const set = new Set<string>([id]);
    let cur = id;
    while (cur !== entry) {
      cur = idom.get(cur)!;
      set.add(cur);
    }
    result.set(id, set);
  }
  return result;
}

// reachableFrom returns the nodes reachable from start by outgoing edges, start included.
export function reachableFrom(adj: Adjacency, start: string): Set<string> {
  const seen = new Set<string>();
  const todo = [start];
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (seen.has(id) || !adj.succ.has(id)) continue;
    seen.add(id);
    todo.push(...adj.succ.get(id)!);
  }
  return seen;
}
