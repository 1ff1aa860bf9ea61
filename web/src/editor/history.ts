// The undo history of an editor: the IRs before the current one (past, oldest first) and those undone (future).
// Edits with the same key within COALESCE_MS of each other (typing in one field) are one step.
import type { WorkflowIR } from "../ir/types";

export const HISTORY_LIMIT = 200;
export const COALESCE_MS = 1500;

export interface History {
  past: readonly WorkflowIR[];
  future: readonly WorkflowIR[];
  // key and at: the key and the time of the last recorded edit, for coalescing
  key: string;
  at: number;
}

export function emptyHistory(): History {
  return { past: [], future: [], key: "", at: 0 };
}

// record answers the history after an edit from current (the IR before the edit) made at now with key.
export function record(h: History, current: WorkflowIR, key: string | undefined, now: number): History {
  const coalesce = key !== undefined && key !== "" && key === h.key && now - h.at < COALESCE_MS;
  const past = coalesce ? h.past : [...h.past, current].slice(-HISTORY_LIMIT);
  return { past, future: [], key: key ?? "", at: now };
}

// undo answers the IR before current and the history after going back to it, or null when there is none.
export function undo(h: History, current: WorkflowIR): { ir: WorkflowIR; history: History } | null {
  const ir = h.past.at(-1);
  if (!ir) return null;
  return { ir, history: { past: h.past.slice(0, -1), future: [...h.future, current], key: "", at: h.at } };
}

// redo answers the IR undone last and the history after going forward to it, or null when there is none.
export function redo(h: History, current: WorkflowIR): { ir: WorkflowIR; history: History } | null {
  const ir = h.future.at(-1);
  if (!ir) return null;
  return { ir, history: { past: [...h.past, current], future: h.future.slice(0, -1), key: "", at: h.at } };
}
