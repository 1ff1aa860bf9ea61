// The editor's actions as objects: each has an id, a label, its key bindings and perform(ir, selection, context),
// which answers what changes (a new IR, a selection, the clipboard, a sentence for screen readers) without changing
// anything itself; the command manager (manager.ts) applies the answer. The keyboard, the toolbar, the context menu
// and the command palette run actions only through the manager.
import type { Clipboard } from "../../ir/edit";
import type { IrPosition, WorkflowIR } from "../../ir/types";
import type { History } from "../history";

// Selection: the IR ids of the selected nodes and edges.
export interface Selection {
  nodes: ReadonlySet<string>;
  edges: ReadonlySet<string>;
}

export const noSelection: Selection = { nodes: new Set(), edges: new Set() };

// ActionContext is what an action may read besides the IR and the selection.
export interface ActionContext {
  readOnly: boolean;
  clipboard: Clipboard | null;
  // pasteCount: how many times the clipboard was pasted since it was filled (each paste is moved a bit further)
  pasteCount: number;
  history: History;
  // running: the ids of the actions still running (an auto-layout)
  running: ReadonlySet<string>;
  // latest answers the IR as it is now: an action that awaits (auto-layout) applies its change to it
  latest: () => WorkflowIR;
  // layout answers new positions of the nodes by IR id (elkjs on the drawn canvas)
  layout: () => Promise<ReadonlyMap<string, IrPosition>>;
}

// ActionResult is what an action changes; what it leaves out stays as it is.
export interface ActionResult {
  // ir: the new IR, one undoable step (or, with history, the IR undo or redo goes to)
  ir?: WorkflowIR;
  history?: "undo" | "redo";
  selection?: Selection;
  clipboard?: Clipboard;
  pasteCount?: number;
  // notice: said to screen readers (the toolbar's status line)
  notice?: string;
  // fitView: bring the whole workflow into view afterwards
  fitView?: boolean;
}

// A key binding such as "Mod+Shift+Z" (Mod is Ctrl, or ⌘ on macOS), "Delete" or "Mod+A".
export type KeyBinding = string;

export interface EditorAction {
  id: string;
  label: string;
  keys: readonly KeyBinding[];
  enabled(ir: WorkflowIR, selection: Selection, ctx: ActionContext): boolean;
  perform(ir: WorkflowIR, selection: Selection, ctx: ActionContext): ActionResult | Promise<ActionResult>;
}

// count says "1 node" or "3 nodes".
export function count(n: number, what: string): string {
  return `${n} ${n === 1 ? what : `${what}s`}`;
}
