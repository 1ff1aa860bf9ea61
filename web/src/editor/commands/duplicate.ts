import { copyNodes, pasteNodes } from "../../ir/edit";
import { PASTE_STEP } from "./paste";
import { count, type EditorAction } from "./types";

// duplicate copies the selected nodes next to them at once, leaving the clipboard as it is, and selects the copies.
export const duplicateAction: EditorAction = {
  id: "duplicate",
  label: "Duplicate",
  keys: ["Mod+D"],
  enabled: (_ir, sel, ctx) => !ctx.readOnly && sel.nodes.size > 0,
  perform: (ir, sel) => {
    const r = pasteNodes(ir, copyNodes(ir, sel.nodes), { x: PASTE_STEP, y: PASTE_STEP });
    return {
      ir: r.ir,
      selection: { nodes: new Set(r.ids), edges: new Set() },
      notice: `Duplicated ${count(r.ids.length, "node")}.`,
    };
  },
};
