// Edits of an IR's sticky notes (docs/ir.md, "Notes"): text for people placed on the canvas, never executed. Like
// the other edits (edit.ts) each returns a new IR and leaves its input alone.
import type { WorkflowIR } from "./types";

export type IrNote = NonNullable<WorkflowIR["notes"]>[number];

// The size a note is drawn at when the IR gives none, and the smallest it can be made.
export const NOTE_WIDTH = 220;
export const NOTE_HEIGHT = 120;
export const NOTE_MIN = 80;
// MAX_NOTES and MAX_NOTE_TEXT are the server's bounds (internal/ir: MaxNotes, MaxNoteText).
export const MAX_NOTES = 200;
export const MAX_NOTE_TEXT = 10000;

export function notesOf(ir: WorkflowIR): IrNote[] {
  return Array.isArray(ir.notes) ? ir.notes : [];
}

function withNotes(ir: WorkflowIR, notes: IrNote[]): WorkflowIR {
  if (notes.length > 0) return { ...ir, notes };
  const next: Partial<WorkflowIR> = { ...ir };
  delete next.notes;
  return next as WorkflowIR;
}

// addNote adds an empty note with its top left corner at position; it answers the IR unchanged (and id "") when
// the IR has MAX_NOTES notes already.
export function addNote(ir: WorkflowIR, position: { x: number; y: number }): { ir: WorkflowIR; id: string } {
  const notes = notesOf(ir);
  if (notes.length >= MAX_NOTES) return { ir, id: "" };
  const used = new Set(notes.map((n) => n.id));
  let i = notes.length + 1;
  while (used.has(`note_${i}`)) i++;
  const id = `note_${i}`;
  const note: IrNote = { id, text: "", position: { x: Math.round(position.x), y: Math.round(position.y) } };
  return { ir: withNotes(ir, [...notes, note]), id };
}

// updateNote changes a note's text, position or size (a size below NOTE_MIN is NOTE_MIN; text is cut at
// MAX_NOTE_TEXT characters).
export function updateNote(
  ir: WorkflowIR,
  id: string,
  patch: Partial<Pick<IrNote, "text" | "position" | "width" | "height">>,
): WorkflowIR {
  const notes = notesOf(ir);
  const i = notes.findIndex((n) => n.id === id);
  if (i < 0) return ir;
  const old = notes[i]!;
  const note: IrNote = { ...old };
  if (patch.text !== undefined) note.text = [...patch.text].slice(0, MAX_NOTE_TEXT).join("");
  if (patch.position) note.position = { x: Math.round(patch.position.x), y: Math.round(patch.position.y) };
  if (patch.width !== undefined) note.width = Math.max(NOTE_MIN, Math.round(patch.width));
  if (patch.height !== undefined) note.height = Math.max(NOTE_MIN, Math.round(patch.height));
  if (JSON.stringify(note) === JSON.stringify(old)) return ir;
  const next = notes.slice();
  next[i] = note;
  return withNotes(ir, next);
}

export function removeNote(ir: WorkflowIR, id: string): WorkflowIR {
  const notes = notesOf(ir);
  if (!notes.some((n) => n.id === id)) return ir;
  return withNotes(
    ir,
    notes.filter((n) => n.id !== id),
  );
}
