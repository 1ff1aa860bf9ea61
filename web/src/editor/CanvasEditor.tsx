// CanvasEditor: the IR drawn with @xyflow/react — palette, canvas (minimap, zoom, auto-layout), node settings and
// the code preview. Every change is an IR edit handed to commit; the canvas is redrawn from the IR it gets back.
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from "react";
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  applyEdgeChanges,
  applyNodeChanges,
  useReactFlow,
  type Connection,
  type EdgeChange,
  type NodeChange,
  type OnDelete,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { irToCanvas, type Canvas, type CanvasEdge, type CanvasNode } from "../ir/canvas";
import { addNode, connect, copyNodes, moveNodes, pasteNodes, removeElements, setBranches, setEntry, updateNode, type Clipboard } from "../ir/edit";
import { expressionOptions } from "../ir/expressions";
import { labelOfHandle } from "../ir/graph";
import type { NodeDefinition } from "../ir/nodeDefs";
import type { IrNode, IrPosition, WorkflowIR } from "../ir/types";
import { focusField } from "./CodeField";
import { CanvasContext, nodeTypes } from "./IrNodeView";
import { layoutPositions } from "./layout";
import { NodePanel } from "./NodePanel";
import { DRAG_TYPE, Palette } from "./Palette";
import { useNodeProblems, type ProblemStore } from "./problemStore";
import "./editor.css";

export interface FocusRequest {
  nodeId: string;
  path: string;
  seq: number;
}

export interface CanvasEditorProps {
  ir: WorkflowIR;
  commit: (next: WorkflowIR, coalesceKey?: string) => void;
  undo: () => void;
  redo: () => void;
  kind: "workflow" | "script";
  readOnly?: boolean;
  defs: ReadonlyMap<string, NodeDefinition>;
  defList: NodeDefinition[];
  defsLoading: boolean;
  defsError?: string;
  problemStore: ProblemStore;
  envVars?: readonly string[];
  preview: ReactNode;
  focusRequest: FocusRequest | null;
}

// The clipboard is shared by every editor on the page, so nodes copy between workflows.
let clipboard: Clipboard | null = null;

function isTyping(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  return !!el?.closest?.("input, textarea, select, [contenteditable='true'], .cm-editor");
}

const NODE_W = 190;

export function CanvasEditor(p: CanvasEditorProps) {
  const rf = useReactFlow<CanvasNode, CanvasEdge>();
  const uid = useId();
  const cfgPrefix = `${uid}cfg`;
  const root = useRef<HTMLDivElement>(null);
  const [canvas, setCanvas] = useState<Canvas>(() => irToCanvas(p.ir));
  // zoom to fit when the editor opens on a drawn workflow; an empty one starts at scale 1
  const [fitOnOpen] = useState(() => p.ir.nodes.length > 0);
  const irRef = useRef(p.ir);
  irRef.current = p.ir;
  const canvasRef = useRef(canvas);
  canvasRef.current = canvas;
  const pendingSelect = useRef<Set<string> | null>(null);
  const [sideTab, setSideTab] = useState<"node" | "preview">("node");
  const [layoutBusy, setLayoutBusy] = useState(false);
  const [notice, setNotice] = useState("");
  const pasteCount = useRef(0);
  const ro = !!p.readOnly;

  // redraw from the IR; nodes whose IR did not change keep their canvas state
  useLayoutEffect(() => {
    const sel = pendingSelect.current;
    pendingSelect.current = null;
    setCanvas((prev) => {
      if (prev.ir === p.ir) return prev;
      const next = irToCanvas(p.ir, prev);
      if (sel) {
        next.nodes = next.nodes.map((n) => (!!n.selected === sel.has(n.id) ? n : { ...n, selected: sel.has(n.id) }));
        next.edges = next.edges.map((e) => (e.selected ? { ...e, selected: false } : e));
      }
      return next;
    });
  }, [p.ir]);

  const commit = p.commit;
  const irIdsOf = (nodes: CanvasNode[]) => new Set(nodes.map((n) => n.data.ir.id));

  const onNodesChange = useCallback((changes: NodeChange<CanvasNode>[]) => {
    setCanvas((c) => ({ ...c, nodes: applyNodeChanges(changes, c.nodes) }));
  }, []);
  const onEdgesChange = useCallback((changes: EdgeChange<CanvasEdge>[]) => {
    setCanvas((c) => ({ ...c, edges: applyEdgeChanges(changes, c.edges) }));
  }, []);
  const onConnect = useCallback(
    (c: Connection) => commit(connect(irRef.current, c.source, c.target, labelOfHandle(c.sourceHandle))),
    [commit],
  );
  const onDelete: OnDelete<CanvasNode, CanvasEdge> = useCallback(
    ({ nodes, edges }) => commit(removeElements(irRef.current, irIdsOf(nodes), new Set(edges.map((e) => e.data!.ir.id)))),
    [commit],
  );
  const onNodeDragStop = useCallback(
    (_e: unknown, _n: CanvasNode, nodes: CanvasNode[]) => {
      commit(moveNodes(irRef.current, new Map(nodes.map((n) => [n.data.ir.id, { x: n.position.x, y: n.position.y }]))));
    },
    [commit],
  );

  const selectedNodes = useMemo(() => canvas.nodes.filter((n) => n.selected), [canvas.nodes]);
  const selectedEdges = useMemo(() => canvas.edges.filter((e) => e.selected), [canvas.edges]);
  const single = selectedNodes.length === 1 ? selectedNodes[0]! : null;
  const singleId = single?.id;
  useEffect(() => {
    if (singleId !== undefined) setSideTab("node");
  }, [singleId]);

  const addAfter = (def: NodeDefinition, position: IrPosition, after?: string) => {
    const r = addNode(irRef.current, def, { position, after });
    pendingSelect.current = new Set([r.id]);
    commit(r.ir);
    setNotice(`Added ${r.ir.nodes.at(-1)!.name}.`);
    return r.id;
  };

  const onPaletteAdd = (def: NodeDefinition) => {
    if (ro) return;
    let position: IrPosition;
    if (single) position = { x: single.position.x + NODE_W + 70, y: single.position.y };
    else if (canvas.nodes.length > 0) {
      const right = canvas.nodes.reduce((a, n) => (n.position.x > a.position.x ? n : a));
      position = { x: right.position.x + NODE_W + 70, y: right.position.y };
    } else position = { x: 0, y: 0 };
    addAfter(def, position, single?.data.ir.id);
    const z = rf.getZoom();
    rf.setCenter(position.x + NODE_W / 2, position.y + 40, { zoom: Math.max(z, 0.6), duration: 150 });
  };

  const onDragOver = (e: DragEvent) => {
    if (ro || !e.dataTransfer.types.includes(DRAG_TYPE)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  };
  const onDrop = (e: DragEvent) => {
    const type = e.dataTransfer.getData(DRAG_TYPE);
    const def = p.defs.get(type);
    if (ro || !def) return;
    e.preventDefault();
    const at = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
    addAfter(def, { x: at.x - NODE_W / 2, y: at.y - 20 });
  };

  const copy = () => {
    if (selectedNodes.length === 0) return;
    clipboard = copyNodes(irRef.current, irIdsOf(selectedNodes));
    pasteCount.current = 0;
    setNotice(`Copied ${selectedNodes.length} ${selectedNodes.length === 1 ? "node" : "nodes"}.`);
    navigator.clipboard?.writeText(JSON.stringify(clipboard, null, 2)).catch(() => {
      // the system clipboard may be refused; the editor's own clipboard still holds the nodes
    });
  };
  const paste = () => {
    if (ro || !clipboard || clipboard.nodes.length === 0) return;
    pasteCount.current++;
    const r = pasteNodes(irRef.current, clipboard, { x: 40 * pasteCount.current, y: 40 * pasteCount.current });
    pendingSelect.current = new Set(r.ids);
    commit(r.ir);
    setNotice(`Pasted ${r.ids.length} ${r.ids.length === 1 ? "node" : "nodes"}.`);
  };
  const deleteSelected = () => {
    if (ro) return;
    commit(removeElements(irRef.current, irIdsOf(selectedNodes), new Set(selectedEdges.map((e) => e.data!.ir.id))));
  };
  const selectAll = () => setCanvas((c) => ({ ...c, nodes: c.nodes.map((n) => (n.selected ? n : { ...n, selected: true })) }));

  const autoLayout = async () => {
    if (ro || layoutBusy) return;
    setLayoutBusy(true);
    try {
      const c = canvasRef.current;
      const pos = await layoutPositions(c.nodes, c.edges);
      const byIr = new Map<string, IrPosition>();
      for (const n of c.nodes) {
        const q = pos.get(n.id);
        if (q && !byIr.has(n.data.ir.id)) byIr.set(n.data.ir.id, q);
      }
      commit(moveNodes(irRef.current, byIr));
      setNotice("Laid out the workflow.");
      requestAnimationFrame(() => requestAnimationFrame(() => void rf.fitView({ padding: 0.1, duration: 200 })));
    } catch (err) {
      setNotice(`Auto-layout failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setLayoutBusy(false);
    }
  };

  // keyboard shortcuts while the editor has focus or was last clicked
  const active = useRef(false);
  const actions = useRef({ copy, paste, selectAll, undo: p.undo, redo: p.redo });
  actions.current = { copy, paste, selectAll, undo: p.undo, redo: p.redo };
  useEffect(() => {
    const onPointer = (e: PointerEvent) => {
      active.current = !!root.current?.contains(e.target as Node);
    };
    const onFocus = (e: FocusEvent) => {
      active.current = !!root.current?.contains(e.target as Node);
    };
    const onKey = (e: KeyboardEvent) => {
      if (!active.current || isTyping(e.target) || !(e.ctrlKey || e.metaKey) || e.altKey) return;
      const k = e.key.toLowerCase();
      const a = actions.current;
      if (k === "z" && !e.shiftKey) a.undo();
      else if ((k === "z" && e.shiftKey) || k === "y") a.redo();
      else if (k === "c") a.copy();
      else if (k === "v") a.paste();
      else if (k === "a") a.selectAll();
      else return;
      e.preventDefault();
    };
    document.addEventListener("pointerdown", onPointer, true);
    document.addEventListener("focusin", onFocus, true);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer, true);
      document.removeEventListener("focusin", onFocus, true);
      document.removeEventListener("keydown", onKey);
    };
  }, []);

  // a problem was clicked: select its node, bring it into view, focus its field (or the node)
  useEffect(() => {
    const req = p.focusRequest;
    if (!req) return;
    const node = canvasRef.current.nodes.find((n) => n.data.ir.id === req.nodeId);
    if (!node) return;
    setCanvas((c) => ({ ...c, nodes: c.nodes.map((n) => (!!n.selected === (n.id === node.id) ? n : { ...n, selected: n.id === node.id })) }));
    setSideTab("node");
    const w = node.measured?.width ?? NODE_W;
    const h = node.measured?.height ?? 60;
    void rf.setCenter(node.position.x + w / 2, node.position.y + h / 2, { zoom: Math.max(rf.getZoom(), 0.8), duration: 0 });
    const rest = req.path.replace(/^\/nodes\/\d+\/?/, "").split("/").filter(Boolean);
    setTimeout(() => {
      for (let i = rest.length; i > 0; i--) {
        if (focusField(`${cfgPrefix}-${rest.slice(0, i).join("-")}`)) return;
      }
      document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(node.id)}"]`)?.focus();
    }, 60);
  }, [p.focusRequest, rf, cfgPrefix]);

  const ctx = useMemo(() => ({ problems: p.problemStore, defs: p.defs }), [p.problemStore, p.defs]);

  const panelNode: IrNode | undefined = single ? p.ir.nodes[single.data.index] : undefined;
  const panelIndex = single?.data.index ?? -1;
  const singleProblems = useNodeProblems(p.problemStore, single?.data.ir.id ?? "\u0000");
  const nodeProblems = single
    ? singleProblems.map((q) => ({ ...q, path: q.path.replace(/^\/nodes\/\d+/, `/nodes/${panelIndex}`) }))
    : [];

  const tabId = (t: string) => `${uid}-tab-${t}`;
  const panelId = (t: string) => `${uid}-panel-${t}`;

  return (
    <div className="canvas-editor" ref={root}>
      <Palette defs={p.defList} kind={p.kind} loading={p.defsLoading} error={p.defsError} readOnly={ro} onAdd={onPaletteAdd} />
      <div className="canvas-column">
        <div className="canvas-toolbar" role="toolbar" aria-label="Canvas">
          <button type="button" onClick={copy} disabled={selectedNodes.length === 0}>
            Copy
          </button>
          <button type="button" onClick={paste} disabled={ro || !clipboard}>
            Paste
          </button>
          <button type="button" onClick={deleteSelected} disabled={ro || (selectedNodes.length === 0 && selectedEdges.length === 0)}>
            Delete selected
          </button>
          <button type="button" onClick={() => void autoLayout()} disabled={ro || layoutBusy || canvas.nodes.length === 0}>
            {layoutBusy ? "Laying out…" : "Auto-layout"}
          </button>
          <button type="button" onClick={() => void rf.fitView({ padding: 0.1, duration: 200 })}>
            Zoom to fit
          </button>
          <span className="muted selection-count">
            {canvas.nodes.length} nodes{selectedNodes.length > 0 ? ` · ${selectedNodes.length} selected` : ""}
          </span>
          <span className="sr-only" role="status">
            {notice}
          </span>
        </div>
        <div className="canvas-wrap" onDrop={onDrop} onDragOver={onDragOver}>
          <CanvasContext.Provider value={ctx}>
            <ReactFlow<CanvasNode, CanvasEdge>
              nodes={canvas.nodes}
              edges={canvas.edges}
              nodeTypes={nodeTypes}
              onNodesChange={onNodesChange}
              onEdgesChange={onEdgesChange}
              onConnect={onConnect}
              onDelete={onDelete}
              onNodeDragStop={onNodeDragStop}
              isValidConnection={(c) => c.source !== c.target}
              onlyRenderVisibleElements
              minZoom={0.02}
              maxZoom={2}
              fitView={fitOnOpen}
              fitViewOptions={{ padding: 0.1, maxZoom: 1 }}
              deleteKeyCode={ro ? null : ["Delete", "Backspace"]}
              multiSelectionKeyCode={["Shift", "Meta", "Control"]}
              selectionKeyCode="Shift"
              nodesDraggable={!ro}
              nodesConnectable={!ro}
              edgesReconnectable={false}
              elevateEdgesOnSelect
            >
              <Background gap={20} />
              <MiniMap pannable zoomable ariaLabel="Minimap" nodeStrokeWidth={3} />
              <Controls showInteractive={false} showFitView={false} />
            </ReactFlow>
          </CanvasContext.Provider>
        </div>
      </div>
      <aside className="side-panel">
        <div role="tablist" aria-label="Side panel" className="tabs">
          <button
            type="button"
            role="tab"
            id={tabId("node")}
            aria-controls={panelId("node")}
            aria-selected={sideTab === "node"}
            tabIndex={sideTab === "node" ? 0 : -1}
            onClick={() => setSideTab("node")}
          >
            Node settings
          </button>
          <button
            type="button"
            role="tab"
            id={tabId("preview")}
            aria-controls={panelId("preview")}
            aria-selected={sideTab === "preview"}
            tabIndex={sideTab === "preview" ? 0 : -1}
            onClick={() => setSideTab("preview")}
          >
            Code preview
          </button>
        </div>
        <div role="tabpanel" id={panelId("node")} aria-labelledby={tabId("node")} hidden={sideTab !== "node"} className="tab-body">
          {panelNode && single ? (
            <NodePanel
              key={single.id}
              node={panelNode}
              index={panelIndex}
              def={p.defs.get(panelNode.type)}
              entry={p.ir.entryNodeId === panelNode.id}
              kind={p.kind}
              readOnly={ro}
              problems={nodeProblems}
              idPrefix={cfgPrefix}
              expressionOptions={() => expressionOptions(irRef.current, panelNode.id, p.defs, { kind: p.kind, envVars: p.envVars })}
              onNodeChange={(node, field) => commit(updateNode(irRef.current, panelIndex, node), `node:${panelNode.id}:${field}`)}
              onDataChange={(data, field) => {
                const cur = irRef.current.nodes[panelIndex]!;
                if (cur.type === "branch" && data.branches !== cur.data.branches && Array.isArray(data.branches)) {
                  const withOthers = updateNode(irRef.current, panelIndex, { ...cur, data: { ...data, branches: cur.data.branches } });
                  commit(setBranches(withOthers, panelIndex, data.branches as Array<{ label: string; condition: string }>), `data:${cur.id}:${field}`);
                } else commit(updateNode(irRef.current, panelIndex, { ...cur, data }), `data:${cur.id}:${field}`);
              }}
              onSetEntry={() => commit(setEntry(irRef.current, panelNode.id))}
              onDelete={() => commit(removeElements(irRef.current, new Set([panelNode.id]), new Set()))}
            />
          ) : (
            <p className="muted">
              {selectedNodes.length > 1
                ? `${selectedNodes.length} nodes selected. Select one node to configure it.`
                : "Select a node to configure it."}
            </p>
          )}
        </div>
        <div role="tabpanel" id={panelId("preview")} aria-labelledby={tabId("preview")} hidden={sideTab !== "preview"} className="tab-body">
          {sideTab === "preview" && p.preview}
        </div>
      </aside>
    </div>
  );
}
