// The command manager runs the editor's actions: the keyboard, the toolbars, the context menu and the command
// palette ask it, never the actions themselves. It builds an action's context from the editor's store, runs the
// action when it is enabled (an action that awaits is marked running meanwhile) and applies what it answers to the
// store: the IR as one undoable step, or the history's, the selection, the clipboard (also written to the system
// clipboard), the sentence for screen readers and a request to fit the view.
import type { IrPosition, WorkflowIR } from "../../ir/types";
import { selectionOf, type EditorStore } from "../store";
import { matches, type KeyPress } from "./keys";
import type { ActionContext, ActionResult, EditorAction, Selection } from "./types";

export interface CommandManagerOptions {
  // layout answers new positions by IR id for the canvas as drawn (auto-layout)
  layout?: (store: EditorStore) => Promise<ReadonlyMap<string, IrPosition>>;
  // writeClipboard puts copied nodes on the system clipboard too (it may be refused; the editor's clipboard holds them)
  writeClipboard?: (text: string) => void;
}

export interface CommandManager {
  readonly actions: readonly EditorAction[];
  action(id: string): EditorAction | undefined;
  enabled(id: string): boolean;
  // run performs the action when it is enabled and applies its result; it resolves once the action is done.
  run(id: string): Promise<void>;
  // forKey answers the action a key press is bound to: the binding that matches the press exactly first (Ctrl+Shift+Z
  // is redo), else one without Shift (Ctrl+Shift+C copies).
  forKey(e: KeyPress): EditorAction | undefined;
}

function context(store: EditorStore, opts: CommandManagerOptions): ActionContext {
  const s = store.getState();
  return {
    readOnly: s.readOnly,
    clipboard: s.clipboard,
    pasteCount: s.pasteCount,
    history: s.history,
    running: s.running,
    latest: () => store.getState().ir,
    layout: () => (opts.layout ? opts.layout(store) : Promise.reject(new Error("no layout"))),
  };
}

// apply changes the store as an action's result says.
export function applyResult(store: EditorStore, r: ActionResult, opts: CommandManagerOptions = {}): void {
  const s = store.getState();
  if (r.clipboard) {
    s.setClipboard(r.clipboard, r.pasteCount ?? 0);
    opts.writeClipboard?.(JSON.stringify(r.clipboard, null, 2));
  } else if (r.pasteCount !== undefined) s.setPasteCount(r.pasteCount);
  if (r.history === "undo") s.undo();
  else if (r.history === "redo") s.redo();
  else if (r.ir) s.commit(r.ir, undefined, r.selection);
  else if (r.selection) s.select(r.selection);
  if (r.notice !== undefined) s.say(r.notice);
  if (r.fitView) s.requestFit();
}

export function createCommandManager(
  store: EditorStore,
  actions: readonly EditorAction[],
  opts: CommandManagerOptions = {},
): CommandManager {
  const byId = new Map(actions.map((a) => [a.id, a]));
  const current = (): [WorkflowIR, Selection, ActionContext] => {
    const s = store.getState();
    return [s.ir, selectionOf(s.canvas), context(store, opts)];
  };
  return {
    actions,
    action: (id) => byId.get(id),
    enabled(id) {
      const a = byId.get(id);
      return !!a && a.enabled(...current());
    },
    async run(id) {
      const a = byId.get(id);
      if (!a) return;
      const args = current();
      if (!a.enabled(...args)) return;
      const out = a.perform(...args);
      if (!(out instanceof Promise)) {
        applyResult(store, out, opts);
        return;
      }
      store.getState().setRunning(a.id, true);
      try {
        applyResult(store, await out, opts);
      } finally {
        store.getState().setRunning(a.id, false);
      }
    },
    forKey(e) {
      for (const exact of [true, false]) {
        const a = actions.find((x) => x.keys.some((k) => matches(k, e, exact)));
        if (a) return a;
      }
      return undefined;
    },
  };
}
