import { removeElements } from "../../ir/edit";
import type { EditorAction } from "./types";

// deleteSelected removes the selected nodes (with their edges) and the selected edges.
export const deleteSelectedAction: EditorAction = {
  id: "delete",
  label: "Delete selected",
  keys: ["Delete", "Backspace"],
  enabled: (_ir, sel, ctx) => !ctx.readOnly && (sel.nodes.size > 0 || sel.edges.size > 0),
  perform: (ir, sel) => ({ ir: removeElements(ir, sel.nodes, sel.edges) }),
};
