import { describe, expect, it, vi } from "vitest";
import type { IrPosition } from "../../ir/types";
import { createEditorStore, selectionOf } from "../store";
import { editorActions } from ".";
import { createCommandManager } from "./manager";
import { sampleIR } from "./testing";
import type { KeyPress } from "./keys";

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

function setup(opts: { readOnly?: boolean; layout?: () => Promise<ReadonlyMap<string, IrPosition>> } = {}) {
  const onChange = vi.fn();
  const store = createEditorStore({ ir: sampleIR(), readOnly: opts.readOnly, onChange });
  store.setState({ clipboard: null }); // the clipboard is shared by the editors of a page: start each test without one
  const writeClipboard = vi.fn();
  const m = createCommandManager(store, editorActions, { writeClipboard, layout: opts.layout });
  return { store, m, onChange, writeClipboard };
}

describe("the command manager", () => {
  it("finds the action a key is bound to, the exact binding first", () => {
    const { m } = setup();
    expect(m.forKey(press("z", { ctrlKey: true }))?.id).toBe("undo");
    expect(m.forKey(press("Z", { ctrlKey: true, shiftKey: true }))?.id).toBe("redo");
    expect(m.forKey(press("y", { metaKey: true }))?.id).toBe("redo");
    expect(m.forKey(press("C", { ctrlKey: true, shiftKey: true }))?.id).toBe("copy");
    expect(m.forKey(press("Backspace"))?.id).toBe("delete");
    expect(m.forKey(press("d", { ctrlKey: true }))?.id).toBe("duplicate");
    expect(m.forKey(press("q", { ctrlKey: true }))).toBeUndefined();
    expect(m.forKey(press("c"))).toBeUndefined();
  });

  it("copies, pastes, undoes and redoes through the store, handing each IR out", async () => {
    const { store, m, onChange, writeClipboard } = setup();
    expect(m.enabled("copy")).toBe(false);
    store.getState().select({ nodes: new Set(["b"]), edges: new Set() });
    await m.run("copy");
    expect(store.getState().clipboard?.nodes.map((n) => n.id)).toEqual(["b"]);
    expect(JSON.parse(writeClipboard.mock.calls[0]![0] as string).nodes[0].id).toBe("b");
    expect(store.getState().notice).toBe("Copied 1 node.");
    expect(onChange).not.toHaveBeenCalled();

    await m.run("paste");
    const pasted = store.getState().ir;
    expect(pasted.nodes.map((n) => n.name)).toEqual(["A", "B", "C", "B (copy)"]);
    expect(onChange).toHaveBeenLastCalledWith(pasted);
    expect([...selectionOf(store.getState().canvas).nodes]).toEqual([pasted.nodes[3]!.id]);
    expect(store.getState().pasteCount).toBe(1);

    await m.run("undo");
    expect(store.getState().ir.nodes).toHaveLength(3);
    expect(m.enabled("undo")).toBe(false);
    await m.run("redo");
    expect(store.getState().ir).toBe(pasted);
    expect(onChange).toHaveBeenCalledTimes(3);
  });

  it("runs no action that cannot run now", async () => {
    const { store, m, onChange } = setup();
    await m.run("paste");
    await m.run("delete");
    await m.run("no-such-action");
    expect(onChange).not.toHaveBeenCalled();
    expect(store.getState().ir.nodes).toHaveLength(3);
  });

  it("changes nothing in a read-only editor, but copies and selects", async () => {
    const { store, m, onChange } = setup({ readOnly: true });
    await m.run("select-all");
    expect(selectionOf(store.getState().canvas).nodes.size).toBe(3);
    await m.run("delete");
    await m.run("duplicate");
    await m.run("copy");
    expect(onChange).not.toHaveBeenCalled();
    expect(store.getState().clipboard?.nodes).toHaveLength(3);
  });

  it("marks an action running while it awaits, then applies its result and fits the view", async () => {
    let done!: (p: ReadonlyMap<string, IrPosition>) => void;
    const layout = () => new Promise<ReadonlyMap<string, IrPosition>>((r) => (done = r));
    const { store, m } = setup({ layout });
    const running = m.run("auto-layout");
    expect(store.getState().running.has("auto-layout")).toBe(true);
    expect(m.enabled("auto-layout")).toBe(false);
    done(new Map([["a", { x: 5, y: 6 }]]));
    await running;
    expect(store.getState().running.size).toBe(0);
    expect(store.getState().ir.nodes[0]!.position).toEqual({ x: 5, y: 6 });
    expect(store.getState().fitRequest).toBe(1);
    expect(store.getState().notice).toBe("Laid out the workflow.");
  });
});
