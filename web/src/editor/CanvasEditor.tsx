// CanvasEditor: the IR drawn with @xyflow/react — palette, canvas (minimap, zoom, auto-layout), node settings and
// the code preview. It renders the editor's store (store.ts): the canvas with its selection, the side panel's tab,
// the status line. Every change is an IR edit committed to the store, and the editor's actions (copy, paste,
// delete, auto-layout, …) run through the command manager, from the toolbar, the keyboard, the context menu and
// the command palette alike.
import {
  startTransition,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type MouseEvent,
  type ReactNode,
} from "react";
import {
  Background,
  ControlButton,
  Controls,
  ReactFlow,
  getNodesBounds,
  getViewportForBounds,
  useReactFlow,
  useStoreApi,
  type Viewport,
  type Connection,
  type EdgeChange,
  type NodeChange,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { NODE_WIDTH, type CanvasEdge, type CanvasNode } from "../ir/canvas";
import { connect, moveNodes, removeElements, renameNode, setBranches, setEntry, updateNode } from "../ir/edit";
import { expressionOptions } from "../ir/expressions";
import { labelOfHandle } from "../ir/graph";
import type { NodeDefinition } from "../ir/nodeDefs";
import { addFromPalette, placeNext } from "./addNode";
import { focusField } from "./CodeField";
import { ActionButton } from "./commands/ActionButton";
import { CommandPalette } from "./commands/CommandPalette";
import { ContextMenu, type MenuAt } from "./commands/ContextMenu";
import { matches } from "./commands/keys";
import { useShortcuts } from "./commands/useCommands";
import { CanvasContext, nodeTypes } from "./IrNodeView";
import { BatchedEdges, BatchedNodes, nodeAt, useDetail } from "./lod";
import { MiniMapPath } from "./MiniMapPath";
import { NodeEdges, NodeIdField } from "./NodeLinks";
import { NodePanel } from "./NodePanel";
import { NodePicker, type PickerTarget } from "./NodePicker";
import { StickyNotes } from "./StickyNotes";
import { addNote, NOTE_HEIGHT, NOTE_WIDTH } from "../ir/notes";
import { DRAG_TYPE, Palette } from "./Palette";
import { useNodeProblems, type ProblemStore } from "./problemStore";
import { useStepValues, withValues } from "./stepValues";
import { STAGED_OPEN_NODES, useEditorStore, useEditorStoreApi, type SideTab } from "./store";
import "./editor.css";

export interface CanvasEditorProps {
  kind: "workflow" | "script";
  defs: ReadonlyMap<string, NodeDefinition>;
  defList: NodeDefinition[];
  defsLoading: boolean;
  defsError?: string;
  problemStore: ProblemStore;
  envVars?: readonly string[];
  preview: ReactNode;
}

// The keys that open the context menu (as the platform's menu key does) and the command palette.
const MENU_KEYS = ["Shift+F10", "ContextMenu"];
const PALETTE_KEY = "Mod+K";
const NOTE_KEY = "Shift+S";
const NO_EDGES: CanvasEdge[] = [];
const MIN_ZOOM = 0.002;
const OPEN_PADDING = 0.1;
// the nodes handed to React Flow per frame while a large workflow opens
const OPEN_CHUNK = 500;
// The padding of Zoom to fit while node settings or the preview lie over the canvas's right side (editor.css).
// Every fit counts the nodes React Flow holds hidden (the overview's and those not handed over yet while opening).
const FIT_PADDING_BESIDE_PANEL = { top: 0.1, bottom: 0.1, left: 0.1, right: "400px" } as const;

export function CanvasEditor(p: CanvasEditorProps) {
  const rf = useReactFlow<CanvasNode, CanvasEdge>();
  const store = useEditorStoreApi();
  const uid = useId();
  const cfgPrefix = `${uid}cfg`;
  const root = useRef<HTMLDivElement>(null);
  const canvas = useEditorStore((s) => s.canvas);
  const ir = useEditorStore((s) => s.ir);
  const ro = useEditorStore((s) => s.readOnly);
  const stepValues = useStepValues();
  const sideTab = useEditorStore((s) => s.sideTab);
  const notice = useEditorStore((s) => s.notice);
  const laying = useEditorStore((s) => s.running.has("auto-layout"));
  const focusRequest = useEditorStore((s) => s.focusRequest);
  const fitRequest = useEditorStore((s) => s.fitRequest);
  const [menu, setMenu] = useState<MenuAt | null>(null);
  const [palette, setPalette] = useState(false);
  const [picker, setPicker] = useState<PickerTarget | null>(null);
  // the canvas had the editor's last pointer press or focus (a deleted node's focus falls back to the page): Tab
  // there opens the node picker
  const onCanvas = useRef(false);
  const wrap = useRef<HTMLDivElement>(null);
  // The view the canvas opens at: fitted to a drawn workflow, scale 1 for an empty one. It is computed here from the
  // canvas's size before React Flow draws anything, so that the first drawing is at the fitted zoom with that
  // zoom's detail (React Flow's fitView draws at 100 % first, every node in full, then fits and draws again).
  // Without a size (not laid out), React Flow fits by itself.
  const [openView, setOpenView] = useState<{ viewport: Viewport; fit: boolean } | null>(null);
  // A large workflow's view is handed over as a transition: React Flow and the canvas's drawings are then rendered
  // in a task of their own, in slices, rather than in the task that laid the page out (decision 741).
  useLayoutEffect(() => {
    if (openView) return;
    const nodes = store.getState().canvas.nodes;
    const r = wrap.current?.getBoundingClientRect();
    let view: { viewport: Viewport; fit: boolean };
    if (nodes.length === 0) view = { viewport: { x: 0, y: 0, zoom: 1 }, fit: false };
    else if (!r || r.width === 0 || r.height === 0) view = { viewport: { x: 0, y: 0, zoom: 1 }, fit: true };
    else
      view = {
        viewport: getViewportForBounds(getNodesBounds(nodes), r.width, r.height, MIN_ZOOM, 1, OPEN_PADDING),
        fit: false,
      };
    if (nodes.length > STAGED_OPEN_NODES) startTransition(() => setOpenView(view));
    else setOpenView(view);
  }, [openView, store]);
  // zoomed out, the nodes draw a plain box and the edges are one batched path; further out, the nodes but the
  // selected ones are a batched path as well (lod.tsx)
  const detail = useDetail(openView?.viewport.zoom ?? 1);
  const low = detail !== "full";
  const overview = detail === "overview";
  // React Flow draws every node it has not measured yet, in view or not. So no more than OPEN_CHUNK nodes not
  // measured yet (a workflow opening, the first zoom in from the overview, a large paste) are handed to it at a
  // time, the others hidden until those are measured (which comes with the next frame), so that no single task
  // draws thousands of nodes: the page answers input meanwhile and the first nodes show at once. In the overview
  // React Flow gets only the selected nodes. The minimap and Zoom to fit count the hidden nodes too.
  const hiddenCopies = useRef(new WeakMap<CanvasNode, CanvasNode>());
  const shown = useMemo(() => {
    let allowance = OPEN_CHUNK;
    let held = 0;
    const copies = hiddenCopies.current;
    const nodes = canvas.nodes.map((n) => {
      if (overview ? n.selected : n.measured || allowance-- > 0) return n;
      held++;
      let h = copies.get(n);
      if (!h) copies.set(n, (h = { ...n, hidden: true }));
      return h;
    });
    return { nodes: held > 0 ? nodes : canvas.nodes };
  }, [overview, canvas.nodes]);
  const shownNodes = shown.nodes;
  // in the overview a click on a drawn box selects its node
  const onPaneClick = useCallback(
    (e: MouseEvent) => {
      if (!overview) return;
      const at = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      const s = store.getState();
      const hit = nodeAt(s.canvas.nodes, at.x, at.y);
      if (hit) s.select({ nodes: new Set([hit.data.ir.id]), edges: new Set() });
    },
    [overview, rf, store],
  );

  // the canvas view opened: draw the IR afresh
  useLayoutEffect(() => store.getState().openCanvas(), [store]);

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => store.getState().applyNodeChanges(changes),
    [store],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<CanvasEdge>[]) => store.getState().applyEdgeChanges(changes),
    [store],
  );
  const onConnect = useCallback(
    (c: Connection) => {
      const s = store.getState();
      s.commit(connect(s.ir, c.source, c.target, labelOfHandle(c.sourceHandle)));
    },
    [store],
  );
  const onNodeDragStop = useCallback(
    (_e: unknown, _n: CanvasNode, nodes: CanvasNode[]) => {
      const s = store.getState();
      s.commit(moveNodes(s.ir, new Map(nodes.map((n) => [n.data.ir.id, { x: n.position.x, y: n.position.y }]))));
    },
    [store],
  );

  const selectedNodes = useMemo(() => canvas.nodes.filter((n) => n.selected), [canvas.nodes]);
  const single = selectedNodes.length === 1 ? selectedNodes[0]! : null;
  // the overlay shows one node's settings, or the preview once asked for; while it is open, fitting the view keeps
  // the workflow clear of it
  const panelOpen = !!single || sideTab === "preview";
  const fitPadding = panelOpen ? FIT_PADDING_BESIDE_PANEL : 0.1;

  const onPaletteAdd = (def: NodeDefinition) => {
    if (ro) return;
    const position = placeNext(canvas.nodes, single);
    addFromPalette(store, def, position, single?.data.ir.id);
    const z = rf.getZoom();
    void rf.setCenter(position.x + NODE_WIDTH / 2, position.y + 40, { zoom: Math.max(z, 0.6), duration: 150 });
  };
  // the node picker's choice: a node after the outlet it names (placed right of that node, below for a later
  // outlet), or on its own right of the others; the new node takes the focus, so Tab goes on after it
  const onPickerAdd = (def: NodeDefinition, target: PickerTarget) => {
    if (ro) return;
    const s = store.getState();
    const from = target.source ? s.canvas.nodes.find((n) => n.data.ir.id === target.source) : undefined;
    const position = placeNext(s.canvas.nodes, from ?? null);
    if (from && target.outlet !== undefined) {
      const i = from.data.handles.findIndex((h) => (h.label ?? "") === target.outlet);
      if (i > 0) position.y += i * 110;
    }
    const id = addFromPalette(store, def, position, from?.data.ir.id, from ? target.outlet : undefined);
    const z = rf.getZoom();
    void rf.setCenter(position.x + NODE_WIDTH / 2, position.y + 40, { zoom: Math.max(z, 0.6), duration: 0 });
    focusNodeSoon(root.current, id);
  };
  const openPicker = useCallback(
    (source: string, outlet: string) => {
      if (!store.getState().readOnly) setPicker({ source, outlet });
    },
    [store],
  );
  // Add note: an empty sticky note in the middle of the view (moved up clear of the nodes there), its text field
  // focused
  const onAddNote = () => {
    const s = store.getState();
    const r = wrap.current?.getBoundingClientRect();
    const at = r ? rf.screenToFlowPosition({ x: r.left + r.width / 2, y: r.top + r.height / 2 }) : { x: 0, y: 0 };
    const added = addNote(s.ir, clearOfNodes(s.canvas.nodes, { x: at.x - NOTE_WIDTH / 2, y: at.y - NOTE_HEIGHT / 2 }));
    if (!added.id) {
      s.say("A workflow has at most 200 notes.");
      return;
    }
    s.commit(added.ir);
    s.say("Added a note.");
    const focus = (tries: number) =>
      requestAnimationFrame(() => {
        const el = wrap.current?.querySelector<HTMLElement>(`[data-note-id="${CSS.escape(added.id)}"] textarea`);
        if (el) el.focus();
        else if (tries > 0) focus(tries - 1);
      });
    focus(10);
  };
  const addNoteRef = useRef(onAddNote);
  useLayoutEffect(() => {
    addNoteRef.current = onAddNote;
  });
  const onDragOver = (e: DragEvent) => {
    if (ro || !e.dataTransfer.types.includes(DRAG_TYPE)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  };
  const onDrop = (e: DragEvent) => {
    const def = p.defs.get(e.dataTransfer.getData(DRAG_TYPE));
    if (ro || !def) return;
    e.preventDefault();
    const at = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
    addFromPalette(store, def, { x: at.x - NODE_WIDTH / 2, y: at.y - 20 });
  };

  // the context menu: a right click on a node (which it selects when it is not selected yet), an edge, the selection
  // or the pane; Shift+F10 or the menu key opens it at the focused node or the canvas's corner
  const openMenu = useCallback(
    (e: MouseEvent | globalThis.MouseEvent, node?: CanvasNode) => {
      e.preventDefault();
      if (node && !node.selected) store.getState().select({ nodes: new Set([node.data.ir.id]), edges: new Set() });
      setMenu({ x: e.clientX, y: e.clientY });
    },
    [store],
  );
  const openHereMenu = useCallback((e: MouseEvent | globalThis.MouseEvent) => openMenu(e), [openMenu]);
  const otherKeys = useCallback(
    (e: KeyboardEvent) => {
      if (MENU_KEYS.some((k) => matches(k, e))) {
        const el =
          document.activeElement?.closest(".react-flow__node") ?? root.current?.querySelector(".react-flow__pane");
        const b = el?.getBoundingClientRect();
        setMenu({ x: (b?.left ?? 0) + 12, y: (b?.top ?? 0) + 12 });
        return true;
      }
      if (matches(PALETTE_KEY, e)) {
        setPalette(true);
        return true;
      }
      if (matches(NOTE_KEY, e) && !store.getState().readOnly) {
        addNoteRef.current();
        return true;
      }
      // Tab on the selected node, or on the canvas after a press on its background, opens the node picker (a Tab on a
      // node not selected moves the focus on, as everywhere)
      if (matches("Tab", e) && !store.getState().readOnly) {
        const target = pickerTargetForTab(root.current, store.getState().canvas.nodes, onCanvas.current);
        if (target) {
          setPicker(target);
          return true;
        }
      }
      return false;
    },
    [store],
  );
  useShortcuts(root, otherKeys);

  const fitPaddingRef = useRef<typeof fitPadding>(fitPadding);
  useLayoutEffect(() => {
    fitPaddingRef.current = fitPadding;
  });
  // after an auto-layout, bring the laid-out workflow into view once it is drawn
  useEffect(() => {
    if (fitRequest === 0) return;
    const id = requestAnimationFrame(() =>
      requestAnimationFrame(
        () => void rf.fitView({ padding: fitPaddingRef.current, duration: 200, includeHiddenNodes: true }),
      ),
    );
    return () => cancelAnimationFrame(id);
  }, [fitRequest, rf]);

  // a problem was chosen: select its node, bring it into view, focus its field (or the node)
  useEffect(() => {
    const req = focusRequest;
    if (!req) return;
    const node = store.getState().canvas.nodes.find((n) => n.data.ir.id === req.nodeId);
    if (!node) return;
    store.getState().showNode(req.nodeId);
    const w = node.measured?.width ?? NODE_WIDTH;
    const h = node.measured?.height ?? 60;
    void rf.setCenter(node.position.x + w / 2, node.position.y + h / 2, {
      zoom: Math.max(rf.getZoom(), 0.8),
      duration: 0,
    });
    const rest = req.path
      .replace(/^\/nodes\/\d+\/?/, "")
      .split("/")
      .filter(Boolean);
    const timer = setTimeout(() => {
      for (let i = rest.length; i > 0; i--) {
        if (focusField(`${cfgPrefix}-${rest.slice(0, i).join("-")}`)) return;
      }
      document.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(node.id)}"]`)?.focus();
    }, 60);
    return () => clearTimeout(timer);
  }, [focusRequest, rf, cfgPrefix, store]);

  const ctx = useMemo(
    () => ({ problems: p.problemStore, defs: p.defs, low, openPicker: ro ? undefined : openPicker }),
    [p.problemStore, p.defs, low, ro, openPicker],
  );
  // zoomed out, nodes have no handles: zoomed back in, React Flow measures the handles of the nodes drawn so that
  // their edges find them (it measures a node again by itself only when its size changes)
  const flow = useStoreApi();
  const wasLow = useRef(low);
  useEffect(() => {
    const from = wasLow.current;
    wasLow.current = low;
    if (!from || low) return;
    const id = requestAnimationFrame(() => {
      const updates = new Map<string, { id: string; nodeElement: HTMLDivElement; force: boolean }>();
      for (const el of root.current?.querySelectorAll<HTMLDivElement>(".react-flow__node") ?? []) {
        const nodeId = el.dataset.id;
        if (nodeId) updates.set(nodeId, { id: nodeId, nodeElement: el, force: true });
      }
      flow.getState().updateNodeInternals(updates, { triggerFitView: false });
    });
    return () => cancelAnimationFrame(id);
  }, [low, flow]);

  const panelNode = single ? ir.nodes[single.data.index] : undefined;
  const panelIndex = single?.data.index ?? -1;
  const singleProblems = useNodeProblems(p.problemStore, single?.data.ir.id ?? "\u0000");
  const nodeProblems = single
    ? singleProblems.map((q) => ({ ...q, path: q.path.replace(/^\/nodes\/\d+/, `/nodes/${panelIndex}`) }))
    : [];
  const commit = store.getState().commit;
  const latest = () => store.getState().ir;

  const closePanel = () => {
    store.getState().setSideTab("node");
    store.getState().select({ nodes: new Set(), edges: new Set() });
  };

  const tabId = (t: SideTab) => `${uid}-tab-${t}`;
  const panelId = (t: SideTab) => `${uid}-panel-${t}`;
  const tab = (t: SideTab, label: string) => (
    <button
      type="button"
      role="tab"
      id={tabId(t)}
      aria-controls={panelId(t)}
      aria-selected={sideTab === t}
      tabIndex={sideTab === t ? 0 : -1}
      onClick={() => store.getState().setSideTab(t)}
    >
      {label}
    </button>
  );

  return (
    <div
      className="canvas-editor"
      ref={root}
      onPointerDownCapture={() => (onCanvas.current = false)}
      onFocusCapture={() => (onCanvas.current = false)}
    >
      <Palette
        defs={p.defList}
        kind={p.kind}
        loading={p.defsLoading}
        error={p.defsError}
        readOnly={ro}
        onAdd={onPaletteAdd}
      />
      <div className="canvas-column">
        <div className="canvas-toolbar" role="toolbar" aria-label="Canvas">
          <ActionButton id="copy" />
          <ActionButton id="paste" />
          <ActionButton id="duplicate" />
          <ActionButton id="delete" />
          <ActionButton id="auto-layout">{laying ? "Laying out…" : "Auto-layout"}</ActionButton>
          <button
            type="button"
            onClick={() => void rf.fitView({ padding: fitPadding, duration: 200, includeHiddenNodes: true })}
          >
            Zoom to fit
          </button>
          <button
            type="button"
            aria-pressed={sideTab === "preview" && panelOpen}
            onClick={() => store.getState().setSideTab(sideTab === "preview" && panelOpen ? "node" : "preview")}
          >
            Code preview
          </button>
          <button
            type="button"
            onClick={() => setPalette(true)}
            aria-keyshortcuts="Control+K Meta+K"
            aria-haspopup="dialog"
          >
            Commands
          </button>
          <span className="muted selection-count">
            {canvas.nodes.length} nodes{selectedNodes.length > 0 ? ` · ${selectedNodes.length} selected` : ""}
          </span>
          <span className="sr-only" role="status">
            {notice}
          </span>
        </div>
        <div
          className="canvas-wrap"
          ref={wrap}
          onDrop={onDrop}
          onDragOver={onDragOver}
          onPointerDownCapture={() => (onCanvas.current = true)}
          onFocusCapture={() => (onCanvas.current = true)}
        >
          <CanvasContext.Provider value={ctx}>
            {openView && (
              <ReactFlow<CanvasNode, CanvasEdge>
                nodes={shownNodes}
                edges={low ? NO_EDGES : canvas.edges}
                nodeTypes={nodeTypes}
                onNodesChange={onNodesChange}
                onEdgesChange={onEdgesChange}
                onConnect={onConnect}
                onNodeDragStop={onNodeDragStop}
                onNodeContextMenu={openMenu}
                onEdgeContextMenu={openHereMenu}
                onSelectionContextMenu={openHereMenu}
                onPaneContextMenu={openHereMenu}
                onPaneClick={onPaneClick}
                isValidConnection={(c) => c.source !== c.target}
                onlyRenderVisibleElements
                minZoom={MIN_ZOOM}
                maxZoom={2}
                defaultViewport={openView.viewport}
                fitView={openView.fit}
                fitViewOptions={{ padding: OPEN_PADDING, maxZoom: 1, includeHiddenNodes: true }}
                deleteKeyCode={null}
                multiSelectionKeyCode={["Shift", "Meta", "Control"]}
                selectionKeyCode="Shift"
                nodesDraggable={!ro}
                nodesConnectable={!ro}
                edgesReconnectable={false}
                elevateEdgesOnSelect
              >
                {low && <BatchedEdges nodes={canvas.nodes} edges={canvas.edges} />}
                {overview && <BatchedNodes nodes={canvas.nodes} problems={p.problemStore} />}
                {!low && <Background gap={20} />}
                <StickyNotes />
                {/* bottom left, where no overlay covers them */}
                <Controls position="bottom-left" showInteractive={false} showFitView={false}>
                  {!ro && (
                    <ControlButton onClick={onAddNote} aria-label="Add note" title="Add note (Shift+S)">
                      <span aria-hidden="true">✎</span>
                    </ControlButton>
                  )}
                </Controls>
                <MiniMapPath nodes={canvas.nodes} ariaLabel="Minimap" />
              </ReactFlow>
            )}
          </CanvasContext.Provider>
        </div>
      </div>
      {/* node settings and the preview lie over the canvas only while there is something to show: the canvas keeps
          its width, and no empty "select a node" column takes room (decision 581) */}
      <aside className="side-panel" hidden={!panelOpen} aria-label="Node settings and code preview">
        <div className="side-panel-head">
          <div role="tablist" aria-label="Side panel" className="tabs">
            {tab("node", "Node settings")}
            {tab("preview", "Code preview")}
          </div>
          <button type="button" className="icon" aria-label="Close node settings" onClick={closePanel}>
            ×
          </button>
        </div>
        <div
          role="tabpanel"
          id={panelId("node")}
          aria-labelledby={tabId("node")}
          hidden={sideTab !== "node"}
          className="tab-body"
        >
          {panelNode && single ? (
            <NodePanel
              key={single.id}
              node={panelNode}
              index={panelIndex}
              def={p.defs.get(panelNode.type)}
              entry={ir.entryNodeId === panelNode.id}
              kind={p.kind}
              readOnly={ro}
              problems={nodeProblems}
              idPrefix={cfgPrefix}
              expressionOptions={() =>
                withValues(
                  expressionOptions(latest(), panelNode.id, p.defs, { kind: p.kind, envVars: p.envVars }),
                  stepValues.completionValues,
                )
              }
              onNodeChange={(node, field) =>
                commit(updateNode(latest(), panelIndex, node), `node:${panelNode.id}:${field}`)
              }
              onDataChange={(data, field) => {
                const cur = latest().nodes[panelIndex]!;
                if (cur.type === "branch" && data.branches !== cur.data.branches && Array.isArray(data.branches)) {
                  const withOthers = updateNode(latest(), panelIndex, {
                    ...cur,
                    data: { ...data, branches: cur.data.branches },
                  });
                  commit(
                    setBranches(withOthers, panelIndex, data.branches as Array<{ label: string; condition: string }>),
                    `data:${cur.id}:${field}`,
                  );
                } else commit(updateNode(latest(), panelIndex, { ...cur, data }), `data:${cur.id}:${field}`);
              }}
              onSetEntry={() => commit(setEntry(latest(), panelNode.id))}
              onDelete={() => commit(removeElements(latest(), new Set([panelNode.id]), new Set()))}
              links={
                <>
                  <NodeIdField
                    key={panelNode.id}
                    ir={ir}
                    nodeId={panelNode.id}
                    name={panelNode.name}
                    readOnly={ro}
                    idPrefix={cfgPrefix}
                    onRename={(to) => {
                      const next = renameNode(latest(), panelNode.id, to);
                      if (next === latest()) return;
                      commit(next, undefined, { nodes: new Set([to]), edges: new Set() });
                      store.getState().say(`Renamed ${panelNode.id} to ${to} and every reference to it.`);
                      setTimeout(() => focusField(`${cfgPrefix}-id`), 0);
                    }}
                  />
                  <NodeEdges
                    ir={ir}
                    nodeId={panelNode.id}
                    readOnly={ro}
                    idPrefix={cfgPrefix}
                    onConnect={(outlet, target) => {
                      commit(connect(latest(), panelNode.id, target, outlet === "" ? undefined : outlet));
                      store.getState().say(`Connected ${panelNode.id} to ${target}.`);
                    }}
                    onRemoveEdge={(edgeId) => {
                      commit(removeElements(latest(), new Set(), new Set([edgeId])));
                      store.getState().say("Removed the edge.");
                    }}
                  />
                </>
              }
            />
          ) : (
            <p className="muted">
              {selectedNodes.length > 1
                ? `${selectedNodes.length} nodes selected. Select one node to configure it.`
                : "Select a node to configure it."}
            </p>
          )}
        </div>
        <div
          role="tabpanel"
          id={panelId("preview")}
          aria-labelledby={tabId("preview")}
          hidden={sideTab !== "preview"}
          className="tab-body"
        >
          {sideTab === "preview" && p.preview}
        </div>
      </aside>
      {menu && <ContextMenu at={menu} onClose={() => setMenu(null)} />}
      {palette && <CommandPalette onClose={() => setPalette(false)} />}
      {picker && (
        <NodePicker
          defs={p.defList}
          kind={p.kind}
          ir={ir}
          target={picker}
          onPick={onPickerAdd}
          onClose={() => setPicker(null)}
        />
      )}
    </div>
  );
}

// pickerTargetForTab answers where a Tab on the canvas adds a node: after the focused node when it is selected; when
// the canvas had the last press or focus and no control has the focus now, after the one selected node (on its own
// with none selected); else null: the Tab moves the focus as usual.
function pickerTargetForTab(
  root: HTMLElement | null,
  nodes: readonly CanvasNode[],
  canvasLast: boolean,
): PickerTarget | null {
  const active = document.activeElement as HTMLElement | null;
  const nodeEl = active?.closest<HTMLElement>(".react-flow__node");
  if (nodeEl && root?.contains(nodeEl)) {
    const node = nodes.find((n) => n.id === nodeEl.dataset.id);
    return node?.selected ? { source: node.data.ir.id } : null;
  }
  const free =
    !active ||
    active === document.body ||
    (!!root?.querySelector(".canvas-wrap")?.contains(active) &&
      active.matches(".react-flow, .react-flow__pane, .react-flow__renderer"));
  if (!canvasLast || !free) return null;
  const selected = nodes.filter((n) => n.selected);
  return selected.length === 1 ? { source: selected[0]!.data.ir.id } : {};
}

// focusNodeSoon focuses a node's box once the canvas draws it (a few frames at most).
function focusNodeSoon(root: HTMLElement | null, id: string, tries = 20): void {
  requestAnimationFrame(() => {
    const el = root?.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(id)}"]`);
    if (el && !document.querySelector("dialog[open]")) el.focus();
    else if (tries > 0) focusNodeSoon(root, id, tries - 1);
  });
}

// clearOfNodes moves a new note's place up until the note covers no node (ten steps at most).
function clearOfNodes(nodes: readonly CanvasNode[], at: { x: number; y: number }): { x: number; y: number } {
  const p = { ...at };
  const covers = (n: CanvasNode) => {
    const w = n.measured?.width ?? NODE_WIDTH;
    const h = n.measured?.height ?? 60;
    return (
      n.position.x < p.x + NOTE_WIDTH &&
      p.x < n.position.x + w &&
      n.position.y < p.y + NOTE_HEIGHT &&
      p.y < n.position.y + h
    );
  };
  for (let i = 0; i < 10 && nodes.some(covers); i++) p.y -= NOTE_HEIGHT / 2;
  return p;
}
