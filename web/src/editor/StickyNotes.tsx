// StickyNotes draws the IR's sticky notes (docs/ir.md, "Notes") on the canvas, behind the nodes, in the canvas's
// coordinates (React Flow's viewport portal). Each note has its text (a text field), a grip that moves it (drag, or
// the arrow keys; Shift with the arrows resizes it), a corner that resizes it and a delete button. Every change is an
// IR edit committed to the editor's store, the text's keystrokes one undoable step.
import { useState, type KeyboardEvent, type PointerEvent } from "react";
import { ViewportPortal, useReactFlow } from "@xyflow/react";
import { NOTE_HEIGHT, NOTE_WIDTH, notesOf, removeNote, updateNote, type IrNote } from "../ir/notes";
import { useEditorStore, useEditorStoreApi } from "./store";

const KEY_STEP = 10;

export function StickyNotes() {
  const ir = useEditorStore((s) => s.ir);
  const notes = notesOf(ir);
  if (notes.length === 0) return null;
  return (
    <ViewportPortal>
      {notes.map((n, i) => (
        <StickyNote key={n.id} note={n} index={i} />
      ))}
    </ViewportPortal>
  );
}

interface Drag {
  mode: "move" | "resize";
  startX: number;
  startY: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

function StickyNote({ note, index }: { note: IrNote; index: number }) {
  const store = useEditorStoreApi();
  const ro = useEditorStore((s) => s.readOnly);
  const rf = useReactFlow();
  // while a drag lasts the note follows the pointer here; the IR changes once, when it ends
  const [drag, setDrag] = useState<Drag | null>(null);
  const [live, setLive] = useState<{ x: number; y: number; w: number; h: number } | null>(null);
  const pos = note.position ?? { x: 0, y: 0 };
  const w = note.width ?? NOTE_WIDTH;
  const h = note.height ?? NOTE_HEIGHT;
  const shown = live ?? { x: pos.x, y: pos.y, w, h };
  const label = `Note ${index + 1}`;
  const commit = (patch: Parameters<typeof updateNote>[2], key?: string) => {
    const s = store.getState();
    s.commit(updateNote(s.ir, note.id, patch), key);
  };

  const start = (mode: Drag["mode"]) => (e: PointerEvent<HTMLElement>) => {
    if (ro || e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    e.currentTarget.setPointerCapture(e.pointerId);
    setDrag({ mode, startX: e.clientX, startY: e.clientY, x: pos.x, y: pos.y, w, h });
  };
  const move = (e: PointerEvent<HTMLElement>) => {
    if (!drag) return;
    const z = rf.getZoom();
    const dx = (e.clientX - drag.startX) / z;
    const dy = (e.clientY - drag.startY) / z;
    setLive(
      drag.mode === "move"
        ? { x: drag.x + dx, y: drag.y + dy, w: drag.w, h: drag.h }
        : { x: drag.x, y: drag.y, w: Math.max(80, drag.w + dx), h: Math.max(80, drag.h + dy) },
    );
  };
  const end = () => {
    if (drag && live) {
      if (drag.mode === "move") commit({ position: { x: live.x, y: live.y } });
      else commit({ width: live.w, height: live.h });
    }
    setDrag(null);
    setLive(null);
  };
  const onGripKey = (e: KeyboardEvent) => {
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
    if (!d || ro) return;
    e.preventDefault();
    e.stopPropagation();
    if (e.shiftKey) commit({ width: w + d[0]! * KEY_STEP, height: h + d[1]! * KEY_STEP }, `note:${note.id}:size`);
    else commit({ position: { x: pos.x + d[0]! * KEY_STEP, y: pos.y + d[1]! * KEY_STEP } }, `note:${note.id}:move`);
  };

  return (
    <div
      className="sticky-note nodrag nopan nowheel"
      role="group"
      aria-label={label}
      data-note-id={note.id}
      style={{ transform: `translate(${shown.x}px, ${shown.y}px)`, width: shown.w, height: shown.h }}
    >
      <div className="sticky-note-bar">
        {!ro && (
          <button
            type="button"
            className="sticky-note-grip"
            aria-label={`Move ${label.toLowerCase()} (arrow keys; Shift+arrow keys resize it)`}
            title="Drag to move; arrow keys move, Shift+arrow keys resize"
            onPointerDown={start("move")}
            onPointerMove={move}
            onPointerUp={end}
            onPointerCancel={end}
            onKeyDown={onGripKey}
          >
            ⠿
          </button>
        )}
        <span className="sticky-note-title">Note</span>
        {!ro && (
          <button
            type="button"
            className="sticky-note-delete"
            aria-label={`Delete ${label.toLowerCase()}`}
            onClick={() => {
              const s = store.getState();
              s.commit(removeNote(s.ir, note.id));
              s.say(`Deleted ${label.toLowerCase()}.`);
            }}
          >
            ×
          </button>
        )}
      </div>
      <textarea
        aria-label={`${label} text`}
        value={note.text}
        readOnly={ro}
        placeholder="Write a note…"
        spellCheck
        onChange={(e) => commit({ text: e.target.value }, `note:${note.id}:text`)}
      />
      {!ro && (
        <div
          className="sticky-note-resize"
          aria-hidden="true"
          onPointerDown={start("resize")}
          onPointerMove={move}
          onPointerUp={end}
          onPointerCancel={end}
        />
      )}
    </div>
  );
}
