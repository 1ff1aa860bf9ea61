import type { EditorAction } from "./types";

// redo goes forward to the IR undone last.
export const redoAction: EditorAction = {
  id: "redo",
  label: "Redo",
  keys: ["Mod+Shift+Z", "Mod+Y"],
  enabled: (_ir, _sel, ctx) => !ctx.readOnly && ctx.history.future.length > 0,
  perform: (_ir, _sel, ctx) => ({ ir: ctx.history.future.at(-1), history: "redo" }),
};
