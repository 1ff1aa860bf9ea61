// MiniMapPath: the canvas's minimap, drawn as one SVG path for all nodes (decision 650). React Flow's own MiniMap
// draws one element per node, each with its own subscription to React Flow's store, so at 5,000 nodes every frame of
// a pan ran 5,000 selectors and the minimap cost more than the canvas. Here the nodes' rectangles are one path made
// once per change of the nodes, and only the viewport's mask follows the pan. Dragging in it pans the canvas, the
// wheel over it zooms, as React Flow's minimap does.
import { memo, useMemo, useRef, type PointerEvent, type WheelEvent } from "react";
import { Panel, useReactFlow, useStore, type ReactFlowState } from "@xyflow/react";
import type { CanvasEdge, CanvasNode } from "../ir/canvas";
import { nodeRect, rectsPath } from "./lod";

const MAP_WIDTH = 200;
const MAP_HEIGHT = 150;
// the margin around the drawn area, in minimap pixels
const MAP_OFFSET = 5;

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

const viewSelector = (s: ReactFlowState) => ({
  tx: s.transform[0],
  ty: s.transform[1],
  zoom: s.transform[2],
  w: s.width,
  h: s.height,
});
const sameView = (a: ReturnType<typeof viewSelector>, b: ReturnType<typeof viewSelector>) =>
  a.tx === b.tx && a.ty === b.ty && a.zoom === b.zoom && a.w === b.w && a.h === b.h;

function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return {
    x,
    y,
    width: Math.max(a.x + a.width, b.x + b.width) - x,
    height: Math.max(a.y + a.height, b.y + b.height) - y,
  };
}

/** nodesPath draws every shown node's box into one SVG path and answers it with the boxes' bounds. */
export function nodesPath(nodes: readonly CanvasNode[]): { d: string; bounds: Rect | null } {
  const shown = nodes.filter((n) => !n.hidden);
  let bounds: Rect | null = null;
  for (const n of shown) {
    const r = nodeRect(n);
    bounds = bounds ? union(bounds, r) : r;
  }
  return { d: rectsPath(shown), bounds };
}

export const MiniMapPath = memo(function MiniMapPath({
  nodes,
  ariaLabel,
}: {
  nodes: readonly CanvasNode[];
  ariaLabel: string;
}) {
  const rf = useReactFlow<CanvasNode, CanvasEdge>();
  const { tx, ty, zoom, w, h } = useStore(viewSelector, sameView);
  const drawn = useMemo(() => nodesPath(nodes), [nodes]);
  const view: Rect = { x: -tx / zoom, y: -ty / zoom, width: w / zoom, height: h / zoom };
  const box = drawn.bounds ? union(drawn.bounds, view) : view;
  // the flow units per minimap pixel, as React Flow's minimap scales
  const scale = Math.max(box.width / MAP_WIDTH, box.height / MAP_HEIGHT);
  const vw = scale * MAP_WIDTH;
  const vh = scale * MAP_HEIGHT;
  const off = MAP_OFFSET * scale;
  const x = box.x - (vw - box.width) / 2 - off;
  const y = box.y - (vh - box.height) / 2 - off;
  const width = vw + off * 2;
  const height = vh + off * 2;
  const scaleRef = useRef(scale);
  scaleRef.current = scale;
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);

  const onPointerDown = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
  };
  const onPointerMove = (e: PointerEvent<SVGSVGElement>) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    // moving the mask by one minimap pixel moves the view by scale flow units
    const v = rf.getViewport();
    const k = scaleRef.current * v.zoom;
    void rf.setViewport({ x: v.x - (e.clientX - d.x) * k, y: v.y - (e.clientY - d.y) * k, zoom: v.zoom });
    drag.current = { id: d.id, x: e.clientX, y: e.clientY };
  };
  const onPointerUp = (e: PointerEvent<SVGSVGElement>) => {
    if (drag.current?.id === e.pointerId) drag.current = null;
  };
  const onWheel = (e: WheelEvent<SVGSVGElement>) => {
    const step = e.deltaMode === 1 ? 0.05 : e.deltaMode ? 1 : 0.002;
    void rf.zoomTo(rf.getZoom() * Math.pow(2, -e.deltaY * step));
  };

  return (
    <Panel position="bottom-left" className="react-flow__minimap efn-minimap">
      <svg
        width={MAP_WIDTH}
        height={MAP_HEIGHT}
        viewBox={`${x} ${y} ${width} ${height}`}
        className="react-flow__minimap-svg"
        role="img"
        aria-label={ariaLabel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onWheel={onWheel}
      >
        <path className="react-flow__minimap-node efn-minimap-nodes" d={drawn.d} shapeRendering="crispEdges" />
        <path
          className="react-flow__minimap-mask"
          d={`M${x - off},${y - off}h${width + off * 2}v${height + off * 2}h${-width - off * 2}z M${view.x},${view.y}h${view.width}v${view.height}h${-view.width}z`}
          fillRule="evenodd"
          pointerEvents="none"
        />
      </svg>
    </Panel>
  );
});
