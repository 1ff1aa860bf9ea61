// A small store of validation problems by node id. Each canvas node subscribes to its own entry, so a new
// validation answer redraws only the nodes whose problems changed.
import { useSyncExternalStore } from "react";
import type { IrProblem, WorkflowIR } from "../ir/types";

const NONE: IrProblem[] = [];

export class ProblemStore {
  private byNode = new Map<string, IrProblem[]>();
  private listeners = new Set<() => void>();

  subscribe = (fn: () => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  /** all answers the problems by node id; a new map after each change (a snapshot for useSyncExternalStore). */
  all = (): ReadonlyMap<string, IrProblem[]> => this.byNode;

  get(nodeId: string): IrProblem[] {
    return this.byNode.get(nodeId) ?? NONE;
  }

  set(next: Map<string, IrProblem[]>): void {
    let changed = next.size !== this.byNode.size;
    for (const [id, list] of next) {
      const old = this.byNode.get(id);
      if (old && sameProblems(old, list)) next.set(id, old);
      else changed = true;
    }
    if (!changed) return;
    this.byNode = next;
    for (const fn of this.listeners) fn();
  }
}

function sameProblems(a: IrProblem[], b: IrProblem[]): boolean {
  return (
    a.length === b.length &&
    a.every((p, i) => p.path === b[i]!.path && p.message === b[i]!.message && p.rule === b[i]!.rule)
  );
}

// nodeIdOfProblem is the node a problem concerns: its nodeId, or the node its path points into (/nodes/3/...).
export function nodeIdOfProblem(ir: WorkflowIR, p: IrProblem): string | undefined {
  if (p.nodeId) return p.nodeId;
  const m = /^\/nodes\/(\d+)(\/|$)/.exec(p.path);
  if (!m) return undefined;
  const n = ir.nodes[Number(m[1])];
  return typeof n?.id === "string" ? n.id : undefined;
}

export function problemsByNode(ir: WorkflowIR, problems: IrProblem[]): Map<string, IrProblem[]> {
  const out = new Map<string, IrProblem[]>();
  for (const p of problems) {
    const id = nodeIdOfProblem(ir, p);
    if (id === undefined) continue;
    const list = out.get(id);
    if (list) list.push(p);
    else out.set(id, [p]);
  }
  return out;
}

export function useNodeProblems(store: ProblemStore, nodeId: string): IrProblem[] {
  return useSyncExternalStore(store.subscribe, () => store.get(nodeId));
}
