// RunGraph draws a run's version on the editor's canvas, read-only: each node coloured by the state of its steps in
// the run (a container by the nodes of its lanes), the edges the run went along drawn strong, the arms taken named
// under the graph, a legend in words, and a click (or Enter) on a node choosing it for a restart.
import { useEffect, useMemo, useState } from "react";
import { Background, Controls, ReactFlow, type NodeMouseHandler } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "../editor/editor.css";
import type { RunStep } from "../api/models";
import { irToCanvas } from "../ir/canvas";
import type { IrPosition, WorkflowIR } from "../ir/types";
import { nodeTypes } from "../editor/IrNodeView";
import { layoutPositions } from "../editor/layout";
import { containerStates, nodeStates, restartable, stateLabel, type NodeRunState } from "./steps";

export function RunGraph({
  ir,
  steps,
  selected,
  onSelect,
}: {
  ir: WorkflowIR;
  steps: readonly RunStep[];
  selected: string;
  onSelect: (nodeId: string) => void;
}) {
  const canvas = useMemo(() => irToCanvas(ir), [ir]);
  const { states, taken } = useMemo(
    () => containerStates(ir.nodes, ir.edges, nodeStates(steps)),
    [ir.nodes, ir.edges, steps],
  );
  // an edge the run went along: its target ran
  const edges = useMemo(
    () =>
      canvas.edges.map((e) =>
        (states.get(e.target) ?? "not-run") !== "not-run" ? { ...e, className: "run-edge-ran" } : e,
      ),
    [canvas.edges, states],
  );
  const names = useMemo(() => new Map(ir.nodes.map((n) => [n.id, n.name || n.id])), [ir.nodes]);
  // an IR without positions, or with nodes on top of each other (an imported file), is laid out as the editor's
  // Auto-layout does; until then the nodes stand where the IR puts them
  const unplaced =
    canvas.nodes.some((n) => !n.data.placed) ||
    new Set(canvas.nodes.map((n) => `${n.position.x},${n.position.y}`)).size < canvas.nodes.length;
  const [laidOut, setLaidOut] = useState<Map<string, IrPosition> | null>(null);
  useEffect(() => {
    if (!unplaced) return;
    let live = true;
    layoutPositions(canvas.nodes, canvas.edges)
      .then((pos) => live && setLaidOut(pos))
      .catch(() => undefined); // the grid stays
    return () => {
      live = false;
    };
  }, [canvas, unplaced]);
  const nodes = useMemo(
    () =>
      canvas.nodes.map((n) => {
        const state: NodeRunState = states.get(n.id) ?? "not-run";
        return {
          ...n,
          position: laidOut?.get(n.id) ?? n.position,
          selected: n.id === selected,
          draggable: false,
          connectable: false,
          selectable: restartable(n.data.ir),
          className: `run-node run-node-${state}`,
          ariaLabel:
            `${n.data.ir.name || n.id}: ${stateLabel(state)}` +
            (taken.has(n.id) ? `, took ${taken.get(n.id)!.map(armName).join(", ")}` : ""),
        };
      }),
    [canvas, states, taken, selected, laidOut],
  );
  const click: NodeMouseHandler = (_, n) => {
    const ir = canvas.nodes.find((c) => c.id === n.id)?.data.ir;
    if (ir && restartable(ir)) onSelect(n.id);
  };
  return (
    <div className="run-graph">
      <div className="run-graph-canvas" aria-label="The run's graph">
        <ReactFlow
          key={laidOut ? "laid-out" : "grid"}
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          edgesFocusable={false}
          deleteKeyCode={null}
          onNodeClick={click}
          fitView
          fitViewOptions={{ padding: 0.1, maxZoom: 1 }}
          minZoom={0.1}
          proOptions={{ hideAttribution: true }}
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </div>
      {taken.size > 0 && (
        <ul className="run-paths" aria-label="Paths taken">
          {[...taken].map(([id, arms]) => (
            <li key={id}>
              <strong>{names.get(id)}</strong> took {arms.map(armName).join(", ")}
            </li>
          ))}
        </ul>
      )}
      <ul className="run-legend" aria-label="Colours of the graph">
        {(["done", "replayed", "failed", "running", "stopped", "not-run"] as const).map((s) => (
          <li key={s}>
            <span className={`legend-swatch run-node-${s}`} aria-hidden="true" /> {stateLabel(s)}
          </li>
        ))}
      </ul>
    </div>
  );
}

// armName names an outlet in words: a branch's arm by its label, a parallel's unlabelled lane as "a lane".
function armName(label: string): string {
  return label === "" ? "a lane" : `“${label}”`;
}
