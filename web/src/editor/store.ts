// The editor's state in one small zustand store, one per editor: the IR being edited with its undo history, the
// canvas drawn from it (nodes and edges carrying their selection), the clipboard, whether the editor has the focus
// (its shortcuts apply), the node a problem asks to show, the side panel's tab, the sentence for screen readers,
// the actions still running and the requests to fit the view. The components render from it and call its
// functions; CanvasEditor keeps only which of its menus is open.
import { createContext, useContext } from "react";
import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from "@xyflow/react";
import { useStore } from "zustand";
import { createStore, type StoreApi } from "zustand/vanilla";
import { irToCanvas, type Canvas, type CanvasEdge, type CanvasNode } from "../ir/canvas";
import type { Clipboard } from "../ir/edit";
import type { WorkflowIR } from "../ir/types";
import type { Selection } from "./commands/types";
import { emptyHistory, record, redo, undo, type History } from "./history";

// FocusRequest asks the canvas to show a node and put the cursor in the field a path names (a problem was chosen).
export interface FocusRequest {
  nodeId: string;
  path: string;
  seq: number;
}

export type SideTab = "node" | "preview";

export interface EditorState {
  // ir: the IR as it is now: the one the page passed in, or the last one this editor handed out
  ir: WorkflowIR;
  // emitted: the last IR this editor handed to onChange (the page passing it back is no new document)
  emitted: WorkflowIR | null;
  history: History;
  readOnly: boolean;
  onChange: (ir: WorkflowIR) => void;
  canvas: Canvas;
  clipboard: Clipboard | null;
  pasteCount: number;
  focused: boolean;
  focusRequest: FocusRequest | null;
  sideTab: SideTab;
  notice: string;
  running: ReadonlySet<string>;
  fitRequest: number;

  // receive takes the IR, read-only flag and onChange the page passes; an IR this editor did not hand out (a version
  // loaded, a revert) starts a new undo history.
  receive(ir: WorkflowIR, readOnly: boolean, onChange: (ir: WorkflowIR) => void): void;
  // commit makes next the IR as one undoable step (edits with the same key in a short while are one step), hands it
  // to onChange and redraws the canvas; with selection, those nodes and edges are selected afterwards.
  commit(next: WorkflowIR, key?: string, selection?: Selection): void;
  undo(): void;
  redo(): void;
  // openCanvas shows the canvas of the current IR with nothing selected (the canvas view opened).
  openCanvas(): void;
  applyNodeChanges(changes: NodeChange<CanvasNode>[]): void;
  applyEdgeChanges(changes: EdgeChange<CanvasEdge>[]): void;
  select(selection: Selection): void;
  // showNode selects the node with an IR id alone and shows its settings.
  showNode(nodeId: string): void;
  setClipboard(clipboard: Clipboard, pasteCount: number): void;
  setPasteCount(n: number): void;
  setFocused(focused: boolean): void;
  requestFocus(nodeId: string, path: string): void;
  setSideTab(tab: SideTab): void;
  say(notice: string): void;
  setRunning(id: string, running: boolean): void;
  requestFit(): void;
}

export type EditorStore = StoreApi<EditorState>;

// The clipboard is shared by every editor on the page, so nodes copy between workflows.
let sharedClipboard: Clipboard | null = null;

// singleSelected is the canvas id of the one selected node, if exactly one is selected.
function singleSelected(c: Canvas): string | undefined {
  let id: string | undefined;
  for (const n of c.nodes) {
    if (!n.selected) continue;
    if (id !== undefined) return undefined;
    id = n.id;
  }
  return id;
}

// selectionOf answers the IR ids of the canvas's selected nodes and edges. Every action button asks for it on every
// change of the store, so the answer for the last nodes and edges arrays is kept (callers never change it).
let lastSelection: { nodes: readonly CanvasNode[]; edges: readonly CanvasEdge[]; selection: Selection } | null = null;
export function selectionOf(c: Canvas): Selection {
  if (lastSelection && lastSelection.nodes === c.nodes && lastSelection.edges === c.edges)
    return lastSelection.selection;
  const nodes = new Set<string>();
  const edges = new Set<string>();
  for (const n of c.nodes) if (n.selected) nodes.add(n.data.ir.id);
  for (const e of c.edges) if (e.selected && e.data) edges.add(e.data.ir.id);
  const selection = { nodes, edges };
  lastSelection = { nodes: c.nodes, edges: c.edges, selection };
  return selection;
}

// withSelection marks the canvas's nodes and edges selected when the selection holds their IR id.
function withSelection(c: Canvas, s: Selection): Canvas {
  const nodes = c.nodes.map((n) =>
    !!n.selected === s.nodes.has(n.data.ir.id) ? n : { ...n, selected: s.nodes.has(n.data.ir.id) },
  );
  const edges = c.edges.map((e) => {
    const on = !!e.data && s.edges.has(e.data.ir.id);
    return !!e.selected === on ? e : { ...e, selected: on };
  });
  return { ...c, nodes, edges };
}

// An IR with more nodes than this opens in stages (IrEditor, CanvasEditor; decision 741); a smaller one at once.
export const STAGED_OPEN_NODES = 300;

// primedCanvases: canvases drawn ahead of a store (primeCanvas), taken by the store made for the same IR
const primedCanvases = new WeakMap<WorkflowIR, Canvas>();

/**
 * primeCanvas draws ir's canvas ahead of the editor's store, in a task of its own: a large workflow's canvas is a
 * good part of the opening's work (decision 741), and the store made for this IR later takes it instead of drawing
 * it again.
 */
export function primeCanvas(ir: WorkflowIR): void {
  if (!primedCanvases.has(ir)) primedCanvases.set(ir, irToCanvas(ir));
}

export interface EditorStoreOptions {
  ir: WorkflowIR;
  readOnly?: boolean;
  onChange?: (ir: WorkflowIR) => void;
}

export function createEditorStore(opts: EditorStoreOptions): EditorStore {
  return createStore<EditorState>()((set, get) => {
    // setCanvas replaces the canvas; a node selected alone afresh shows its settings
    const canvasPatch = (next: Canvas): Partial<EditorState> => {
      const before = singleSelected(get().canvas);
      const after = singleSelected(next);
      return after !== undefined && after !== before ? { canvas: next, sideTab: "node" } : { canvas: next };
    };
    // handedOut are the IRs this editor gave to onChange: one of them passed back while the editor has handed out a
    // newer one is a late echo of the page's state, not a document of its own (receive)
    const handedOut = new WeakSet<WorkflowIR>();
    // show makes ir the current IR, hands it out and redraws the canvas
    const show = (ir: WorkflowIR, history: History, selection?: Selection) => {
      let canvas = irToCanvas(ir, get().canvas);
      if (selection) canvas = withSelection(canvas, selection);
      handedOut.add(ir);
      set({ ir, emitted: ir, history, ...canvasPatch(canvas) });
      get().onChange(ir);
    };
    return {
      ir: opts.ir,
      emitted: null,
      history: emptyHistory(),
      readOnly: !!opts.readOnly,
      onChange: opts.onChange ?? (() => {}),
      canvas: primedCanvases.get(opts.ir) ?? irToCanvas(opts.ir),
      clipboard: sharedClipboard,
      pasteCount: 0,
      focused: false,
      focusRequest: null,
      sideTab: "node",
      notice: "",
      running: new Set(),
      fitRequest: 0,

      receive(ir, readOnly, onChange) {
        const s = get();
        const patch: Partial<EditorState> = {};
        if (s.readOnly !== readOnly) patch.readOnly = readOnly;
        if (s.onChange !== onChange) patch.onChange = onChange;
        // A render of the page that ran before its state took the editor's latest edit passes an IR the editor
        // handed out earlier: taking it would undo the edit (and whatever was typed after it) until the page's next
        // render brings the latest back, so the editor keeps its own.
        const lateEcho = ir !== s.emitted && handedOut.has(ir);
        if (ir !== s.ir && !lateEcho) {
          patch.ir = ir;
          if (ir !== s.emitted) patch.history = emptyHistory();
          Object.assign(patch, canvasPatch(irToCanvas(ir, s.canvas)));
        }
        if (Object.keys(patch).length > 0) set(patch);
      },
      commit(next, key, selection) {
        const s = get();
        if (s.readOnly || next === s.ir) return;
        show(next, record(s.history, s.ir, key, Date.now()), selection);
      },
      undo() {
        const s = get();
        const r = s.readOnly ? null : undo(s.history, s.ir);
        if (r) show(r.ir, r.history);
      },
      redo() {
        const s = get();
        const r = s.readOnly ? null : redo(s.history, s.ir);
        if (r) show(r.ir, r.history);
      },
      openCanvas() {
        // the canvas drawn for this IR is kept (on the first opening it is the one just made), without its selection
        const s = get();
        const c = s.canvas.ir === s.ir ? s.canvas : irToCanvas(s.ir, s.canvas);
        set(canvasPatch(withSelection(c, { nodes: new Set(), edges: new Set() })));
      },
      applyNodeChanges(changes) {
        const c = get().canvas;
        set(canvasPatch({ ...c, nodes: applyNodeChanges(changes, c.nodes) }));
      },
      applyEdgeChanges(changes) {
        const c = get().canvas;
        set(canvasPatch({ ...c, edges: applyEdgeChanges(changes, c.edges) }));
      },
      select(selection) {
        set(canvasPatch(withSelection(get().canvas, selection)));
      },
      showNode(nodeId) {
        const c = get().canvas;
        const node = c.nodes.find((n) => n.data.ir.id === nodeId);
        if (!node) return;
        const nodes = c.nodes.map((n) =>
          !!n.selected === (n.id === node.id) ? n : { ...n, selected: n.id === node.id },
        );
        set({ ...canvasPatch({ ...c, nodes }), sideTab: "node" });
      },
      setClipboard(clipboard, pasteCount) {
        sharedClipboard = clipboard;
        set({ clipboard, pasteCount });
      },
      setPasteCount(pasteCount) {
        set({ pasteCount });
      },
      setFocused(focused) {
        if (get().focused !== focused) set({ focused });
      },
      requestFocus(nodeId, path) {
        set((s) => ({ focusRequest: { nodeId, path, seq: (s.focusRequest?.seq ?? 0) + 1 } }));
      },
      setSideTab(sideTab) {
        set({ sideTab });
      },
      say(notice) {
        set({ notice });
      },
      setRunning(id, running) {
        const next = new Set(get().running);
        if (running) next.add(id);
        else next.delete(id);
        set({ running: next });
      },
      requestFit() {
        set((s) => ({ fitRequest: s.fitRequest + 1 }));
      },
    };
  });
}

export const EditorStoreContext = createContext<EditorStore | null>(null);

// useEditorStore reads the editor's store (from the nearest IrEditor) through a selector.
export function useEditorStore<T>(selector: (s: EditorState) => T): T {
  return useStore(useEditorStoreApi(), selector);
}

// useEditorStoreApi is the editor's store itself, for its functions and getState in event handlers.
export function useEditorStoreApi(): EditorStore {
  const store = useContext(EditorStoreContext);
  if (!store) throw new Error("useEditorStore outside an IrEditor");
  return store;
}
