// Drawing at scale (decision 584): below LOD_ZOOM a node's text cannot be read, so the canvas draws less. Nodes keep
// their box, colour and handles but drop their text; the edges leave React Flow (one SVG group per edge) for one
// batched path of straight segments drawn in the viewport, which costs one element whatever the graph's size.
import { memo, useCallback, useMemo } from "react";
import { useStore, ViewportPortal, type ReactFlowState } from "@xyflow/react";
import { NODE_WIDTH, nodeHeight, type CanvasEdge, type CanvasNode } from "../ir/canvas";

/** LOD_ZOOM is the zoom below which the canvas draws simplified nodes and batched edges. */
export const LOD_ZOOM = 0.4;

/**
 * useLowDetail reports whether the canvas is zoomed out below LOD_ZOOM (re-rendering only when that changes). Until
 * React Flow has set its viewport up (after its first drawing), the zoom is openZoom, the one it opens at, so that
 * the first drawing already has the detail of that zoom.
 */
export function useLowDetail(openZoom = 1): boolean {
  const below = useCallback((s: ReactFlowState) => (s.panZoom ? s.transform[2] : openZoom) < LOD_ZOOM, [openZoom]);
  return useStore(below);
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
