import { pasteNodes } from "../../ir/edit";
import { count, type EditorAction } from "./types";

// PASTE_STEP is how far each paste of the same clipboard is moved right and down from the one before.
export const PASTE_STEP = 40;

// paste adds copies of the clipboard's nodes (fresh ids, names marked "(copy)") and selects them.
export const pasteAction: EditorAction = {
  id: "paste",
  label: "Paste",
  keys: ["Mod+V"],
  enabled: (_ir, _sel, ctx) => !ctx.readOnly && !!ctx.clipboard && ctx.clipboard.nodes.length > 0,
  perform: (ir, _sel, ctx) => {
    const n = ctx.pasteCount + 1;
    const r = pasteNodes(ir, ctx.clipboard!, { x: PASTE_STEP * n, y: PASTE_STEP * n });
    return {
      ir: r.ir,
      selection: { nodes: new Set(r.ids), edges: new Set() },
      pasteCount: n,
      notice: `Pasted ${count(r.ids.length, "node")}.`,
    };
  },
};
