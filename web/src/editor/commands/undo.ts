import type { EditorAction } from "./types";

// undo goes back to the IR before the last edit.
export const undoAction: EditorAction = {
  id: "undo",
  label: "Undo",
  keys: ["Mod+Z"],
  enabled: (_ir, _sel, ctx) => !ctx.readOnly && ctx.history.past.length > 0,
  perform: (_ir, _sel, ctx) => ({ ir: ctx.history.past.at(-1), history: "undo" }),
};
