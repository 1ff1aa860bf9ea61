import { moveNodes } from "../../ir/edit";
import type { EditorAction } from "./types";

// autoLayout arranges the workflow from left to right (one undoable step) and brings it into view. The layout runs
// in a worker; the positions are applied to the IR as it is when they arrive.
export const autoLayoutAction: EditorAction = {
  id: "auto-layout",
  label: "Auto-layout",
  keys: [],
  enabled: (ir, _sel, ctx) => !ctx.readOnly && !ctx.running.has("auto-layout") && ir.nodes.length > 0,
  perform: async (_ir, _sel, ctx) => {
    try {
      const positions = await ctx.layout();
      return { ir: moveNodes(ctx.latest(), positions), notice: "Laid out the workflow.", fitView: true };
    } catch (err) {
      return { notice: `Auto-layout failed: ${err instanceof Error ? err.message : String(err)}` };
    }
  },
};
