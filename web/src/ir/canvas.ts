// The IR ↔ canvas mapping. The canvas holds one xyflow node per IR node and one xyflow edge per IR edge; each keeps
// the IR object it was made from, so mapping back gives the IR key for key (unknown keys included). Only what the
// canvas changes is written back: a node's position once it is placed.
import type { Edge, Node } from "@xyflow/react";
import { handleId, sourceHandles, type HandleSpec } from "./graph";
import type { IrEdge, IrNode, IrPosition, WorkflowIR } from "./types";

export interface CanvasNodeData extends Record<string, unknown> {
  ir: IrNode;
  index: number;
  // placed is false when the IR gives the node no position: it is drawn at a fallback place, not written back
  // until the node is moved.
  placed: boolean;
  handles: HandleSpec[];
  entry: boolean;
}

export interface CanvasEdgeData extends Record<string, unknown> {
  ir: IrEdge;
  index: number;
}

export type CanvasNode = Node<CanvasNodeData, "ir">;
export type CanvasEdge = Edge<CanvasEdgeData>;

export interface Canvas {
  ir: WorkflowIR; // the document the canvas was made from (top-level keys besides nodes and edges come from it)
  nodes: CanvasNode[];
  edges: CanvasEdge[];
}

// NODE_WIDTH is a canvas node's width (editor.css .efn); nodeHeight estimates its height from its outlets.
export const NODE_WIDTH = 190;
export function nodeHeight(outlets: number): number {
  return 38 + 16 * Math.max(outlets, 1);
}

const GRID_X = 240;
const GRID_Y = 140;

// fallbackPosition places a node without a position on a grid by its index.
export function fallbackPosition(index: number): IrPosition {
  return { x: (index % 8) * GRID_X, y: Math.floor(index / 8) * GRID_Y };
}

function validPosition(p: unknown): p is IrPosition {
  const q = p as IrPosition | null | undefined;
  return typeof q === "object" && q !== null && Number.isFinite(q.x) && Number.isFinite(q.y);
}

// canvasNodeId gives each IR node a unique canvas id: its IR id, or for a repeated or missing id one derived from
// its index (the validator reports those; the canvas still draws them).
function canvasIds<T extends { id?: unknown }>(items: readonly T[], prefix: string): string[] {
  const used = new Set<string>();
  return items.map((it, i) => {
    const id = typeof it?.id === "string" && it.id !== "" ? it.id : "";
    if (id !== "" && !used.has(id)) {
      used.add(id);
      return id;
    }
    const alt = `${prefix}${i}:${id}`;
    used.add(alt);
    return alt;
  });
}

function sameHandles(a: HandleSpec[], b: HandleSpec[]): boolean {
  return a.length === b.length && a.every((h, i) => h.id === b[i]!.id);
}

// irToCanvas maps an IR to canvas nodes and edges. With prev (the canvas of the IR before an edit), nodes and edges
// whose IR object and drawing did not change are the same objects, so the canvas redraws only what changed, and
// the canvas state of the others (selection, measured size) stays.
export function irToCanvas(ir: WorkflowIR, prev?: Canvas): Canvas {
  const nodesIn = Array.isArray(ir.nodes) ? ir.nodes : [];
  const edgesIn = Array.isArray(ir.edges) ? ir.edges : [];
  const outgoing = new Map<string, IrEdge[]>();
  for (const e of edgesIn) {
    if (!e || typeof e.source !== "string") continue;
    let list = outgoing.get(e.source);
    if (!list) outgoing.set(e.source, (list = []));
    list.push(e);
  }
  const prevNodes = new Map((prev?.nodes ?? []).map((n) => [n.id, n]));
  const nodeIds = canvasIds(nodesIn, "#node");
  const nodes: CanvasNode[] = nodesIn.map((n, i) => {
    const id = nodeIds[i]!;
    const handles = sourceHandles(n ?? ({} as IrNode), id === n?.id ? (outgoing.get(id) ?? []) : []);
    const entry = id === ir.entryNodeId;
    const old = prevNodes.get(id);
    if (
      old &&
      old.data.ir === n &&
      old.data.index === i &&
      old.data.entry === entry &&
      sameHandles(old.data.handles, handles)
    ) {
      return old;
    }
    const placed = validPosition(n?.position);
    const position = placed ? { x: n.position!.x, y: n.position!.y } : fallbackPosition(i);
    const node: CanvasNode = {
      id,
      type: "ir",
      position,
      data: { ir: n, index: i, placed, handles, entry },
      // the drawn size before it is measured: nodes show at once, and zoom to fit needs no measuring first
      initialWidth: NODE_WIDTH,
      initialHeight: nodeHeight(handles.length),
      ariaLabel: `${String(n?.name || n?.id || id)} (${String(n?.type ?? "")})${entry ? ", entry node" : ""}`,
    };
    if (old) {
      if (old.selected) node.selected = true;
      if (old.measured && sameHandles(old.data.handles, handles)) node.measured = old.measured;
    }
    return node;
  });
  // edges to the first node of a repeated id, as the IR names ids
  const prevEdges = new Map((prev?.edges ?? []).map((e) => [e.id, e]));
  const edgeIds = canvasIds(edgesIn, "#edge");
  const edges: CanvasEdge[] = edgesIn.map((e, i) => {
    const id = edgeIds[i]!;
    const old = prevEdges.get(id);
    if (old && old.data?.ir === e && old.data.index === i) return old;
    const label = typeof e?.label === "string" ? e.label : undefined;
    const edge: CanvasEdge = {
      id,
      source: String(e?.source ?? ""),
      target: String(e?.target ?? ""),
      sourceHandle: handleId(label),
      targetHandle: "in",
      data: { ir: e, index: i },
    };
    // the outlet an edge leaves from shows its label; an edge label as well would be measured once per edge
    if (label !== undefined) edge.ariaLabel = `${label}: ${edge.source} to ${edge.target}`;
    if (old?.selected) edge.selected = true;
    return edge;
  });
  return { ir, nodes, edges };
}

// canvasToIr maps a canvas back to the IR: the document's own keys in their order, each node's IR object with the
// canvas position written into it when the node is placed (or was moved), each edge's IR object.
export function canvasToIr(canvas: Canvas): WorkflowIR {
  const nodes = canvas.nodes.map((n) => nodeWithPosition(n));
  const edges = canvas.edges.map((e) => e.data!.ir);
  const out: Record<string, unknown> = {};
  const doc = canvas.ir as unknown as Record<string, unknown>;
  for (const key of Object.keys(doc)) {
    out[key] = key === "nodes" ? nodes : key === "edges" ? edges : doc[key];
  }
  if (!("nodes" in out)) out.nodes = nodes;
  if (!("edges" in out)) out.edges = edges;
  return out as unknown as WorkflowIR;
}

function nodeWithPosition(n: CanvasNode): IrNode {
  const ir = n.data.ir;
  const fb = fallbackPosition(n.data.index);
  const moved = !n.data.placed && (n.position.x !== fb.x || n.position.y !== fb.y);
  if (!n.data.placed && !moved) return ir;
  if (validPosition(ir.position) && ir.position.x === n.position.x && ir.position.y === n.position.y) return ir;
  // a spread keeps the key order of the IR object, position where it was
  return { ...ir, position: { x: n.position.x, y: n.position.y } };
}
