// IrNodeView draws one IR node on the canvas: its name and type, an Entry mark, a problem badge (the node outlined),
// one target handle and its labelled source handles (arms, try/catch/finally, body, lanes, then).
import { createContext, memo, useContext } from "react";
import { Handle, Position, type NodeProps } from "@xyflow/react";
import { nodeHeight, type CanvasNode } from "../ir/canvas";
import type { NodeDefinition } from "../ir/nodeDefs";
import { NodeValueBadge } from "./NodeOutput";
import { ProblemStore, useNodeProblems } from "./problemStore";

export interface CanvasContextValue {
  problems: ProblemStore;
  defs: ReadonlyMap<string, NodeDefinition>;
  // low: the canvas is zoomed out below LOD_ZOOM (lod.tsx). One subscription in the canvas passes it down: a
  // subscription per node would run thousands of selectors on every frame of a pan.
  low: boolean;
  // openPicker opens the node picker to add a node after a node's outlet ("" the unlabelled one); absent while the
  // editor is read-only, when the outlets have no `+`.
  openPicker?: (source: string, outlet: string) => void;
}

export const CanvasContext = createContext<CanvasContextValue>({
  problems: new ProblemStore(),
  defs: new Map(),
  low: false,
});

// TYPE_ICONS marks each built-in node type with a glyph (custom and marketplace nodes show the generic one).
const TYPE_ICONS: Record<string, string> = {
  step: "ƒ",
  sleep: "◷",
  sleep_until: "◷",
  wait_for_event: "✉",
  http_request: "⇄",
  branch: "⑂",
  parallel: "⇉",
  race: "⚑",
  try_catch: "⛨",
  loop: "↻",
  break: "⏹",
  sub_workflow: "⧉",
  agent: "✦",
};

/** typeIcon is the glyph a node type is drawn with (canvas and run graph). */
export function typeIcon(type: string): string {
  return TYPE_ICONS[type] ?? "◆";
}

function outletName(type: string, label: string | undefined): string {
  if (label !== undefined) return label === "" ? "(empty label)" : label;
  return type === "parallel" || type === "race" ? "lane" : "";
}

export const IrNodeView = memo(function IrNodeView({ id, data, selected }: NodeProps<CanvasNode>) {
  const ctx = useContext(CanvasContext);
  const problems = useNodeProblems(ctx.problems, id);
  const n = data.ir;
  const def = ctx.defs.get(n?.type);
  const typeName = def?.name ?? String(n?.type ?? "");
  const container = data.handles.length > 1 || data.handles.some((h) => h.label !== undefined);
  let cls = "efn";
  if (container) cls += " efn-container";
  if (problems.length > 0) cls += " efn-invalid";
  if (selected) cls += " efn-selected";
  if (ctx.low) {
    // zoomed out: the box and its state, one element, without the text nobody can read at this size nor the
    // handles (a few pixels wide there; each handle is a subscription to React Flow's store and three elements).
    // The canvas measures the handles again when it zooms back in (CanvasEditor).
    return <div className={cls + " efn-lod"} style={{ height: nodeHeight(data.handles.length) + 14 }} />;
  }
  return (
    <div className={cls}>
      <Handle type="target" position={Position.Left} id="in" className="efn-in" />
      <div className="efn-head">
        <span className="efn-icon" aria-hidden="true">
          {typeIcon(String(n?.type ?? ""))}
        </span>
        <span className="efn-name">{n?.name || n?.id}</span>
        {data.entry && <span className="efn-entry">Entry</span>}
        {problems.length > 0 && (
          <span className="efn-badge" title={problems.map((p) => p.message).join("\n")}>
            {problems.length} {problems.length === 1 ? "problem" : "problems"}
          </span>
        )}
      </div>
      {/* the id is what expressions name ({{step_1.total}}), so the box shows it beside the type */}
      <div className="efn-type">
        {typeName} · <code className="efn-id">{n?.id}</code>
      </div>
      <NodeValueBadge nodeId={id} />
      {data.handles.map((h) => {
        const name = outletName(n?.type, h.label);
        return (
          <div key={h.id} className={"efn-out" + (name ? " efn-out-labelled" : "")}>
            {name && <span className="efn-out-label">{name}</span>}
            <Handle type="source" position={Position.Right} id={h.id} className="efn-handle" title={name || "next"} />
            {/* the outlet's +: the node picker adds a node there (the keyboard's way is Tab on the selected node) */}
            {ctx.openPicker && (
              <button
                type="button"
                className="efn-add nodrag nopan"
                tabIndex={-1}
                aria-label={`Add a node after ${n?.name || n?.id}${name ? ` on ${name}` : ""}`}
                title={`Add a node${name ? ` on ${name}` : ""}`}
                onClick={(e) => {
                  e.stopPropagation();
                  ctx.openPicker?.(n.id, h.label ?? "");
                }}
              >
                +
              </button>
            )}
          </div>
        );
      })}
    </div>
  );
});

export const nodeTypes = { ir: IrNodeView };
