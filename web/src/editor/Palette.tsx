// Palette lists every node type of the organization (GET /api/nodes), grouped by category and searchable. An item
// is dragged onto the canvas, or pressed (Enter) to add its node after the selected one.
import { useId, useMemo, useState } from "react";
import type { NodeDefinition } from "../ir/nodeDefs";

export const DRAG_TYPE = "application/x-edgeflow-node-type";

export interface PaletteProps {
  defs: NodeDefinition[];
  kind: "workflow" | "script";
  loading: boolean;
  error?: string;
  readOnly?: boolean;
  onAdd: (def: NodeDefinition) => void;
}

export function Palette(p: PaletteProps) {
  const id = useId();
  const [q, setQ] = useState("");
  const groups = useMemo(() => {
    const words = q.toLowerCase().split(/\s+/).filter(Boolean);
    const fit = p.defs.filter((d) => {
      if (p.kind === "script" && !d.allowedInFunctions) return false;
      const hay = `${d.name} ${d.id} ${d.category} ${d.description} ${(d.tags ?? []).join(" ")}`.toLowerCase();
      return words.every((w) => hay.includes(w));
    });
    const out = new Map<string, NodeDefinition[]>();
    for (const d of fit) {
      const list = out.get(d.category || "Other") ?? [];
      list.push(d);
      out.set(d.category || "Other", list);
    }
    return [...out];
  }, [p.defs, p.kind, q]);
  return (
    <nav className="palette" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Nodes</h2>
      <label htmlFor={`${id}-q`} className="field-label">
        Search nodes
      </label>
      <input
        id={`${id}-q`}
        type="search"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        placeholder="http, sleep, slack…"
      />
      <p className="help">
        {p.readOnly
          ? "This workflow is read-only here."
          : "Drag a node onto the canvas, or press Enter on it to add it after the selected node."}
      </p>
      {p.loading && <p className="muted">Loading node types…</p>}
      {p.error && <p role="alert">{p.error}</p>}
      {!p.loading && groups.length === 0 && <p className="muted">No node type matches “{q}”.</p>}
      {groups.map(([cat, defs]) => (
        <section key={cat} aria-label={cat}>
          <h3>{cat}</h3>
          <ul>
            {defs.map((d) => (
              <li key={d.id}>
                <button
                  type="button"
                  className="palette-item"
                  draggable={!p.readOnly}
                  disabled={p.readOnly}
                  title={d.description}
                  onDragStart={(e) => {
                    e.dataTransfer.setData(DRAG_TYPE, d.id);
                    e.dataTransfer.effectAllowed = "copy";
                  }}
                  onClick={() => p.onAdd(d)}
                >
                  <span className="sr-only">Add </span>
                  {d.name}
                  {!d.builtin && <span className="palette-tag"> marketplace</span>}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}
