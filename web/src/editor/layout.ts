// Auto-layout with elkjs (layered, left to right), run in a web worker so a large workflow does not freeze the
// page. Each node's outlets are ports on its right side in their drawn order, so arms and blocks keep their order.
import type { CanvasEdge, CanvasNode } from "../ir/canvas";
import type { IrPosition } from "../ir/types";

interface ElkNodeIn {
  id: string;
  width: number;
  height: number;
  ports: Array<{ id: string; layoutOptions: Record<string, string> }>;
  layoutOptions: Record<string, string>;
}

export async function layoutPositions(nodes: CanvasNode[], edges: CanvasEdge[]): Promise<Map<string, IrPosition>> {
  const [{ default: ELK }, { default: workerUrl }] = await Promise.all([
    import("elkjs/lib/elk-api.js"),
    import("elkjs/lib/elk-worker.min.js?url"),
  ]);
  const elk = new ELK({ workerUrl });
  try {
    const ids = new Set(nodes.map((n) => n.id));
    const children: ElkNodeIn[] = nodes.map((n) => ({
      id: n.id,
      width: n.measured?.width ?? 190,
      height: n.measured?.height ?? 56 + 22 * n.data.handles.length,
      layoutOptions: { "elk.portConstraints": "FIXED_ORDER" },
      ports: [
        { id: `${n.id}\u0000in`, layoutOptions: { "elk.port.side": "WEST", "elk.port.index": "0" } },
        ...n.data.handles.map((h, i) => ({
          id: `${n.id}\u0000${h.id}`,
          // EAST ports are ordered clockwise: top to bottom
          layoutOptions: { "elk.port.side": "EAST", "elk.port.index": String(i) },
        })),
      ],
    }));
    const ports = new Set(children.flatMap((c) => c.ports.map((p) => p.id)));
    const elkEdges = edges
      .filter((e) => ids.has(e.source) && ids.has(e.target) && e.source !== e.target)
      .map((e) => {
        const sp = `${e.source}\u0000${e.sourceHandle ?? "out"}`;
        return { id: e.id, sources: [ports.has(sp) ? sp : e.source], targets: [`${e.target}\u0000in`] };
      });
    const graph = await elk.layout({
      id: "root",
      layoutOptions: {
        "elk.algorithm": "layered",
        "elk.direction": "RIGHT",
        "elk.layered.spacing.nodeNodeBetweenLayers": "70",
        "elk.spacing.nodeNode": "30",
        "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
        "elk.separateConnectedComponents": "true",
      },
      children,
      edges: elkEdges,
    });
    const out = new Map<string, IrPosition>();
    for (const c of graph.children ?? []) out.set(c.id, { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) });
    return out;
  } finally {
    elk.terminateWorker();
  }
}
