import { describe, expect, it, vi } from "vitest";
import { sampleIR } from "./commands/testing";
import { COALESCE_MS } from "./history";
import { createEditorStore, selectionOf } from "./store";

describe("the editor's store", () => {
  it("keeps its history when the page passes back the IR it handed out, and starts a new one for another IR", () => {
    const onChange = vi.fn();
    const store = createEditorStore({ ir: sampleIR(), onChange });
    const s = store.getState();
    const next = { ...s.ir, entryNodeId: "b" };
    s.commit(next);
    expect(onChange).toHaveBeenCalledWith(next);
    store.getState().receive(next, false, onChange);
    expect(store.getState().history.past).toHaveLength(1);
    store.getState().receive(sampleIR(), false, onChange);
    expect(store.getState().history.past).toHaveLength(0);
    expect(store.getState().canvas.ir).toBe(store.getState().ir);
  });

  it("keeps its latest edit when a late render of the page passes back an IR it handed out before", () => {
    const onChange = vi.fn();
    const store = createEditorStore({ ir: sampleIR(), onChange });
    const first = { ...store.getState().ir, entryNodeId: "b" };
    store.getState().commit(first);
    const second = { ...first, entryNodeId: "a" };
    store.getState().commit(second);
    store.getState().receive(first, false, onChange); // the page rendered before its state took `second`
    expect(store.getState().ir).toBe(second);
    expect(store.getState().canvas.ir).toBe(second);
    store.getState().receive(second, false, onChange);
    expect(store.getState().ir).toBe(second);
    expect(store.getState().history.past).toHaveLength(2);
    // an IR of the editor's own that the page passes after an undo brought it back is taken as usual
    store.getState().undo();
    expect(store.getState().ir).toBe(first);
    store.getState().receive(first, false, onChange);
    expect(store.getState().ir).toBe(first);
  });

  it("makes edits of one field in a short while one undoable step", () => {
    const now = vi.spyOn(Date, "now");
    const store = createEditorStore({ ir: sampleIR() });
    const edit = (name: string, at: number) => {
      now.mockReturnValue(at);
      const ir = store.getState().ir;
      store.getState().commit({ ...ir, nodes: ir.nodes.map((n, i) => (i === 0 ? { ...n, name } : n)) }, "node:a:name");
    };
    edit("A1", 1000);
    edit("A12", 1000 + COALESCE_MS - 1);
    expect(store.getState().history.past).toHaveLength(1);
    edit("A123", 1000 + 3 * COALESCE_MS);
    expect(store.getState().history.past).toHaveLength(2);
    store.getState().undo();
    expect(store.getState().ir.nodes[0]!.name).toBe("A12");
    now.mockRestore();
  });

  it("commits nothing read-only", () => {
    const onChange = vi.fn();
    const store = createEditorStore({ ir: sampleIR(), readOnly: true, onChange });
    store.getState().commit({ ...sampleIR(), entryNodeId: "c" });
    expect(onChange).not.toHaveBeenCalled();
  });

  it("selects after a commit, shows the settings of a node selected alone, and shows a node asked for", () => {
    const store = createEditorStore({ ir: sampleIR() });
    store.getState().setSideTab("preview");
    store.getState().select({ nodes: new Set(["a", "b"]), edges: new Set(["e1"]) });
    expect(store.getState().sideTab).toBe("preview");
    const ir = store.getState().ir;
    store.getState().commit({ ...ir, entryNodeId: "c" }, undefined, { nodes: new Set(["c"]), edges: new Set() });
    expect([...selectionOf(store.getState().canvas).nodes]).toEqual(["c"]);
    expect(selectionOf(store.getState().canvas).edges.size).toBe(0);
    expect(store.getState().sideTab).toBe("node");
    store.getState().setSideTab("preview");
    store.getState().showNode("a");
    expect([...selectionOf(store.getState().canvas).nodes]).toEqual(["a"]);
    expect(store.getState().sideTab).toBe("node");
  });

  it("shares the clipboard with the editors opened after it", () => {
    const a = createEditorStore({ ir: sampleIR() });
    a.getState().setClipboard({ nodes: [sampleIR().nodes[0]!], edges: [] }, 0);
    const b = createEditorStore({ ir: sampleIR() });
    expect(b.getState().clipboard?.nodes[0]?.id).toBe("a");
  });

  it("counts requests to focus a node and to fit the view", () => {
    const store = createEditorStore({ ir: sampleIR() });
    store.getState().requestFocus("b", "/nodes/1/data/duration");
    store.getState().requestFocus("b", "/nodes/1/data/duration");
    expect(store.getState().focusRequest).toEqual({ nodeId: "b", path: "/nodes/1/data/duration", seq: 2 });
    store.getState().requestFit();
    expect(store.getState().fitRequest).toBe(1);
  });

  it("opens the canvas of the current IR with nothing selected, keeping the nodes it drew", () => {
    const store = createEditorStore({ ir: sampleIR() });
    const first = store.getState().canvas.nodes[0];
    store.getState().openCanvas();
    expect(store.getState().canvas.nodes[0]).toBe(first);
    store.getState().select({ nodes: new Set(["a"]), edges: new Set() });
    store.getState().openCanvas();
    expect(selectionOf(store.getState().canvas).nodes.size).toBe(0);
  });
});
