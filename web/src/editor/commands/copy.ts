import { copyNodes } from "../../ir/edit";
import { count, type EditorAction } from "./types";

// copy puts the selected nodes and the edges among them on the clipboard (also in a read-only editor).
export const copyAction: EditorAction = {
  id: "copy",
  label: "Copy",
  keys: ["Mod+C"],
  enabled: (_ir, sel) => sel.nodes.size > 0,
  perform: (ir, sel) => ({
    clipboard: copyNodes(ir, sel.nodes),
    pasteCount: 0,
    notice: `Copied ${count(sel.nodes.size, "node")}.`,
  }),
};
