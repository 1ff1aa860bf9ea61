// Opening laid out: an IR whose nodes lack positions, or whose positions coincide (templates, imports, IRs submitted
// through the API), is laid out once when the editor opens it, so that it never shows as one stacked box. The
// positions become part of the draft's starting point and are saved with the next version (decision 582).
import { irToCanvas } from "../ir/canvas";
import type { IrPosition, WorkflowIR } from "../ir/types";
import { layoutPositions } from "./layout";

function validPosition(p: unknown): p is IrPosition {
  const q = p as IrPosition | null | undefined;
  return typeof q === "object" && q !== null && Number.isFinite(q.x) && Number.isFinite(q.y);
}

/** needsLayout reports whether some node of ir has no position or shares its position with another node. */
export function needsLayout(ir: WorkflowIR): boolean {
  const nodes = Array.isArray(ir.nodes) ? ir.nodes : [];
  const seen = new Set<string>();
  for (const n of nodes) {
    if (!validPosition(n?.position)) return true;
    const key = `${n.position.x},${n.position.y}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** withPositions answers ir with each node placed where positions says (by node id); other nodes stay as they are. */
export function withPositions(ir: WorkflowIR, positions: ReadonlyMap<string, IrPosition>): WorkflowIR {
  const nodes = ir.nodes.map((n) => {
    const p = positions.get(n.id);
    return p ? { ...n, position: { x: p.x, y: p.y } } : n;
  });
  return { ...ir, nodes };
}

/** layOutOnOpen answers ir laid out left to right (elkjs, layout.ts) when it needs it, else ir itself. */
export async function layOutOnOpen(ir: WorkflowIR): Promise<WorkflowIR> {
  if (!needsLayout(ir)) return ir;
  const c = irToCanvas(ir);
  const pos = await layoutPositions(c.nodes, c.edges);
  const byIr = new Map<string, IrPosition>();
  for (const n of c.nodes) {
    const q = pos.get(n.id);
    if (q && !byIr.has(n.data.ir.id)) byIr.set(n.data.ir.id, q);
  }
  return withPositions(ir, byIr);
}
