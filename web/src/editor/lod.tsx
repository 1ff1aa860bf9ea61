// Drawing at scale (decisions 584, 652): below LOD_ZOOM a node's text cannot be read, so the canvas draws less. Nodes
// keep their box and colour but drop their text and handles; the edges leave React Flow (one SVG group per edge) for
// one batched path of straight segments drawn in the viewport, which costs one element whatever the graph's size.
// Below OVERVIEW_ZOOM a node is a few pixels wide: the nodes leave React Flow too (hidden there, but for the selected
// ones) and are one batched path of rectangles, with one more for the nodes that have problems.
import { memo, useCallback, useMemo, useSyncExternalStore } from "react";
import { useStore, ViewportPortal, type ReactFlowState } from "@xyflow/react";
import { NODE_WIDTH, nodeHeight, type CanvasEdge, type CanvasNode } from "../ir/canvas";
import type { ProblemStore } from "./problemStore";

/** LOD_ZOOM is the zoom below which the canvas draws simplified nodes and batched edges. */
export const LOD_ZOOM = 0.4;

/** OVERVIEW_ZOOM is the zoom below which the nodes, but for the selected ones, are drawn as one path. */
export const OVERVIEW_ZOOM = 0.1;

/** Detail is how much the canvas draws at a zoom: everything, boxes without text, or the batched overview. */
export type Detail = "full" | "low" | "overview";

function detailAt(zoom: number): Detail {
  return zoom < OVERVIEW_ZOOM ? "overview" : zoom < LOD_ZOOM ? "low" : "full";
}

/**
 * useDetail answers the canvas's Detail at its zoom (re-rendering only when that changes). Until React Flow has set
 * its viewport up (after its first drawing), the zoom is openZoom, the one it opens at, so that the first drawing
 * already has the detail of that zoom.
 */
export function useDetail(openZoom = 1): Detail {
  const at = useCallback((s: ReactFlowState) => detailAt(s.panZoom ? s.transform[2] : openZoom), [openZoom]);
  return useStore(at);
}

/** BatchedEdges draws every edge as one path of straight segments, from a source's right side to a target's left. */
export const BatchedEdges = memo(function BatchedEdges({
  nodes,
  edges,
}: {
  nodes: readonly CanvasNode[];
  edges: readonly CanvasEdge[];
}) {
  const d = useMemo(() => {
    const at = new Map(nodes.map((n) => [n.id, n]));
    const parts: string[] = [];
    for (const e of edges) {
      const s = at.get(e.source);
      const t = at.get(e.target);
      if (!s || !t) continue;
      const sw = s.measured?.width ?? NODE_WIDTH;
      const sh = s.measured?.height ?? nodeHeight(s.data.handles.length);
      const th = t.measured?.height ?? nodeHeight(t.data.handles.length);
      parts.push(
        `M${Math.round(s.position.x + sw)} ${Math.round(s.position.y + sh / 2)}L${Math.round(t.position.x)} ${Math.round(t.position.y + th / 2)}`,
      );
    }
    return parts.join("");
  }, [nodes, edges]);
  return (
    <ViewportPortal>
      <svg className="efn-batched-edges" data-edges={edges.length} aria-hidden="true">
        <path d={d} />
      </svg>
    </ViewportPortal>
  );
});

/** nodeRect is a node's box on the canvas: its measured size, else the size it is drawn at. */
export function nodeRect(n: CanvasNode): { x: number; y: number; width: number; height: number } {
  return {
    x: n.position.x,
    y: n.position.y,
    width: n.measured?.width ?? NODE_WIDTH,
    height: n.measured?.height ?? nodeHeight(n.data.handles.length),
  };
}

/** rectsPath draws the boxes of nodes as one SVG path. */
export function rectsPath(nodes: Iterable<CanvasNode>): string {
  const parts: string[] = [];
  for (const n of nodes) {
    const r = nodeRect(n);
    const w = Math.round(r.width);
    parts.push(`M${Math.round(r.x)} ${Math.round(r.y)}h${w}v${Math.round(r.height)}h${-w}z`);
  }
  return parts.join("");
}

/** nodeAt answers the topmost node whose box holds a point of the canvas (flow coordinates), if any. */
export function nodeAt(nodes: readonly CanvasNode[], x: number, y: number): CanvasNode | undefined {
  for (let i = nodes.length - 1; i >= 0; i--) {
    const r = nodeRect(nodes[i]!);
    if (x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height) return nodes[i];
  }
  return undefined;
}

/**
 * BatchedNodes draws the nodes React Flow does not (the overview) as one path of boxes, and the ones with problems
 * as a second path in the problem colour. A click on one selects it (CanvasEditor, nodeAt).
 */
export const BatchedNodes = memo(function BatchedNodes({
  nodes,
  problems,
}: {
  nodes: readonly CanvasNode[];
  problems: ProblemStore;
}) {
  const byNode = useSyncExternalStore(problems.subscribe, problems.all);
  const drawn = useMemo(() => {
    const shown = nodes.filter((n) => !n.selected);
    return {
      all: rectsPath(shown),
      invalid: rectsPath(shown.filter((n) => byNode.has(n.data.ir.id))),
      count: shown.length,
    };
  }, [nodes, byNode]);
  return (
    <ViewportPortal>
      <svg className="efn-batched-nodes" data-nodes={drawn.count} aria-hidden="true">
        <path className="efn-batched-all" d={drawn.all} />
        <path className="efn-batched-invalid" d={drawn.invalid} />
      </svg>
    </ViewportPortal>
  );
});
