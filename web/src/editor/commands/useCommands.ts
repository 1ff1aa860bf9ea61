// The command manager of the nearest editor, and the hooks the components dispatch through: whether an action can
// run now (re-rendering when that changes), and the keyboard shortcuts while the editor has the focus.
import { createContext, useContext, useEffect, type RefObject } from "react";
import type { IrPosition } from "../../ir/types";
import { layoutPositions } from "../layout";
import { useEditorStore, useEditorStoreApi, type EditorStore } from "../store";
import type { CommandManager, CommandManagerOptions } from "./manager";

export const CommandsContext = createContext<CommandManager | null>(null);

export function useCommands(): CommandManager {
  const m = useContext(CommandsContext);
  if (!m) throw new Error("useCommands outside an IrEditor");
  return m;
}

// useActionEnabled reports whether an action can run now.
export function useActionEnabled(id: string): boolean {
  const m = useCommands();
  return useEditorStore(() => m.enabled(id));
}

// browserCommandOptions lay out the canvas as drawn (elkjs in a worker, measured node sizes) and write copied nodes
// to the system clipboard as JSON.
export const browserCommandOptions: CommandManagerOptions = {
  layout: async (store: EditorStore) => {
    const c = store.getState().canvas;
    const pos = await layoutPositions(c.nodes, c.edges);
    const byIr = new Map<string, IrPosition>();
    for (const n of c.nodes) {
      const q = pos.get(n.id);
      if (q && !byIr.has(n.data.ir.id)) byIr.set(n.data.ir.id, q);
    }
    return byIr;
  },
  writeClipboard: (text) => {
    navigator.clipboard?.writeText(text).catch(() => {
      // the system clipboard may be refused; the editor's own clipboard still holds the nodes
    });
  },
};

// isTyping reports whether a key goes to a text field or a code field (which then edits the field, with its own
// undo) rather than to the canvas.
export function isTyping(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el?.closest?.("input, textarea, select, [contenteditable='true'], .cm-editor");
}

// useShortcuts runs the action a key is bound to while the editor under root has the focus or was clicked last,
// unless the key goes to a field. A bound key is the editor's even when its action cannot run now (Ctrl+A on an
// empty canvas selects no page text). other handles the keys that open the context menu and the palette first.
export function useShortcuts(root: RefObject<HTMLElement | null>, other?: (e: KeyboardEvent) => boolean) {
  const store = useEditorStoreApi();
  const m = useCommands();
  useEffect(() => {
    const inside = (e: Event) => store.getState().setFocused(!!root.current?.contains(e.target as Node));
    const onKey = (e: KeyboardEvent) => {
      if (!store.getState().focused || isTyping(e.target)) return;
      if (other?.(e)) {
        e.preventDefault();
        return;
      }
      const a = m.forKey(e);
      if (!a) return;
      e.preventDefault();
      void m.run(a.id);
    };
    document.addEventListener("pointerdown", inside, true);
    document.addEventListener("focusin", inside, true);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", inside, true);
      document.removeEventListener("focusin", inside, true);
      document.removeEventListener("keydown", onKey);
    };
  }, [store, m, root, other]);
}
