import type { EditorAction } from "./types";

// selectAll selects every node (the selected edges stay selected).
export const selectAllAction: EditorAction = {
  id: "select-all",
  label: "Select all",
  keys: ["Mod+A"],
  enabled: () => true,
  perform: (ir, sel) => ({ selection: { nodes: new Set(ir.nodes.map((n) => n.id)), edges: sel.edges } }),
};
