// Adding a node from the palette: where it goes on the canvas, and the edit that adds it (after a node, selected).
import { NODE_WIDTH, type CanvasNode } from "../ir/canvas";
import { addNode } from "../ir/edit";
import type { NodeDefinition } from "../ir/nodeDefs";
import type { IrPosition } from "../ir/types";
import type { EditorStore } from "./store";

const GAP = 70;

// placeNext answers where a node added from the palette goes: right of the selected node, else right of the
// rightmost node, else at the origin.
export function placeNext(nodes: readonly CanvasNode[], selected: CanvasNode | null): IrPosition {
  if (selected) return { x: selected.position.x + NODE_WIDTH + GAP, y: selected.position.y };
  if (nodes.length === 0) return { x: 0, y: 0 };
  const right = nodes.reduce((a, n) => (n.position.x > a.position.x ? n : a));
  return { x: right.position.x + NODE_WIDTH + GAP, y: right.position.y };
}

// addFromPalette adds a node of def at position, connected after the node with IR id after (when given) on an
// outlet (see AddNodeOptions), as one undoable step; the new node is selected and its name said to screen readers.
// It answers the new node's id.
export function addFromPalette(
  store: EditorStore,
  def: NodeDefinition,
  position: IrPosition,
  after?: string,
  outlet?: string,
): string {
  const s = store.getState();
  const r = addNode(s.ir, def, { position, after, outlet });
  s.commit(r.ir, undefined, { nodes: new Set([r.id]), edges: new Set() });
  s.say(`Added ${r.ir.nodes.at(-1)!.name}.`);
  return r.id;
}
