import { describe, expect, it } from "vitest";
import { addNote, MAX_NOTES, MAX_NOTE_TEXT, NOTE_MIN, notesOf, removeNote, updateNote } from "./notes";
import type { WorkflowIR } from "./types";

const ir: WorkflowIR = {
  metadata: { name: "x" },
  nodes: [{ id: "a", type: "step", name: "A", data: {} }],
  edges: [],
  entryNodeId: "a",
};

describe("sticky notes", () => {
  it("are added with fresh ids, edited, moved, resized and removed; nodes and edges stay as they are", () => {
    let r = addNote(ir, { x: 10.4, y: -20.6 });
    expect(r.id).toBe("note_1");
    expect(r.ir.notes).toEqual([{ id: "note_1", text: "", position: { x: 10, y: -21 } }]);
    expect(r.ir.nodes).toBe(ir.nodes);
    r = addNote(r.ir, { x: 0, y: 0 });
    expect(r.id).toBe("note_2");
    let x = updateNote(r.ir, "note_1", { text: "Ask finance first", width: 300, height: 10 });
    x = updateNote(x, "note_1", { position: { x: 50, y: 60 } });
    expect(notesOf(x)[0]).toEqual({
      id: "note_1",
      text: "Ask finance first",
      position: { x: 50, y: 60 },
      width: 300,
      height: NOTE_MIN,
    });
    expect(updateNote(x, "note_1", { text: "Ask finance first" })).toBe(x);
    expect(updateNote(x, "nope", { text: "y" })).toBe(x);
    expect(notesOf(updateNote(x, "note_2", { text: "é".repeat(MAX_NOTE_TEXT + 5) }))[1]!.text).toHaveLength(
      MAX_NOTE_TEXT,
    );
    x = removeNote(x, "note_1");
    expect(x.notes!.map((n) => n.id)).toEqual(["note_2"]);
    x = removeNote(x, "note_2");
    expect("notes" in x).toBe(false);
    // a fresh id skips the ids in use
    expect(addNote({ ...ir, notes: [{ id: "note_2", text: "" }] }, { x: 0, y: 0 }).id).toBe("note_3");
  });

  it("stop at the server's bound", () => {
    const full = { ...ir, notes: Array.from({ length: MAX_NOTES }, (_, i) => ({ id: `n${i}`, text: "" })) };
    expect(addNote(full, { x: 0, y: 0 })).toEqual({ ir: full, id: "" });
  });
});
