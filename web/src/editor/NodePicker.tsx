// NodePicker is the dialog that adds a node where the user asked: after a node's outlet (its `+` on the canvas, Tab
// on the selected node) or, with nothing selected, on its own (the first node of a workflow becomes its entry). A
// search field narrows the node types; the arrow keys choose, Enter adds, Escape closes. When the node it adds after
// has several outlets, a select names the one the new node hangs on.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Dialog } from "../app/ui";
import { handleId, sourceHandles } from "../ir/graph";
import type { NodeDefinition } from "../ir/nodeDefs";
import type { WorkflowIR } from "../ir/types";

// PickerTarget is where the picked node goes: after the node source on an outlet (a label, "" for the unlabelled
// one, undefined for the node's usual one), or on its own.
export interface PickerTarget {
  source?: string;
  outlet?: string;
}

// pickerMatches lists the node types a picker offers for a query: every word in the name, id, category,
// description or tags; those whose name starts with the first word first; in a function only those allowed there.
export function pickerMatches(defs: readonly NodeDefinition[], kind: "workflow" | "script", query: string) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const fit = defs.filter((d) => {
    if (kind === "script" && !d.allowedInFunctions) return false;
    const hay = `${d.name} ${d.id} ${d.category} ${d.description} ${(d.tags ?? []).join(" ")}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  const starts = (d: NodeDefinition) => (words[0] && d.name.toLowerCase().startsWith(words[0]) ? 0 : 1);
  return [...fit].sort((a, b) => starts(a) - starts(b));
}

// outletChoices lists a node's outlets as the picker names them: value "" for the unlabelled outlet.
export function outletChoices(ir: WorkflowIR, source: string): Array<{ value: string; label: string }> {
  const node = ir.nodes.find((n) => n.id === source);
  if (!node) return [];
  return sourceHandles(
    node,
    ir.edges.filter((e) => e.source === source),
  ).map((h) => ({
    value: h.label ?? "",
    label:
      h.label === undefined
        ? node.type === "parallel" || node.type === "race"
          ? "new lane"
          : "next"
        : h.label === ""
          ? "(empty label)"
          : h.label,
  }));
}

// defaultOutlet is the outlet a node's usual add goes on: a plain node's next, a container's then.
function defaultOutlet(choices: Array<{ value: string }>): string {
  return choices.some((c) => c.value === "then") ? "then" : (choices[0]?.value ?? "");
}

export interface NodePickerProps {
  defs: readonly NodeDefinition[];
  kind: "workflow" | "script";
  ir: WorkflowIR;
  target: PickerTarget;
  onPick: (def: NodeDefinition, target: PickerTarget) => void;
  onClose: () => void;
}

export function NodePicker(p: NodePickerProps) {
  const uid = useId();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const choices = useMemo(() => (p.target.source ? outletChoices(p.ir, p.target.source) : []), [p.ir, p.target]);
  const [outlet, setOutlet] = useState(p.target.outlet ?? defaultOutlet(choices));
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const shown = useMemo(() => pickerMatches(p.defs, p.kind, query), [p.defs, p.kind, query]);
  const current = shown[Math.min(active, shown.length - 1)];
  const source = p.target.source ? p.ir.nodes.find((n) => n.id === p.target.source) : undefined;
  const optionId = (id: string) => `${uid}-o-${handleId(id)}`;
  const pick = (d: NodeDefinition) => {
    p.onClose();
    p.onPick(d, source ? { source: source.id, outlet } : {});
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = shown.length;
      if (n > 0) setActive((i) => (Math.min(i, n - 1) + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (current) pick(current);
    }
    e.stopPropagation();
  };
  return (
    <Dialog title="Add a node" onClose={p.onClose}>
      <div className="command-palette node-picker">
        <p className="muted">
          {source ? (
            <>
              After <strong>{source.name || source.id}</strong>
              {choices.length <= 1 ? "" : ` on ${choices.find((c) => c.value === outlet)?.label ?? outlet}`}
            </>
          ) : p.ir.nodes.length === 0 ? (
            "The first node: the workflow starts here."
          ) : (
            "Not connected: select a node first to add after it."
          )}
        </p>
        <label htmlFor={`${uid}-q`}>Search node types</label>
        <input
          ref={input}
          id={`${uid}-q`}
          type="text"
          role="combobox"
          aria-expanded="true"
          aria-controls={`${uid}-list`}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current.id) : undefined}
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        {choices.length > 1 && (
          <>
            <label htmlFor={`${uid}-outlet`}>Outlet</label>
            <select id={`${uid}-outlet`} value={outlet} onChange={(e) => setOutlet(e.target.value)}>
              {choices.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </>
        )}
        <ul id={`${uid}-list`} role="listbox" aria-label="Node types">
          {shown.map((d) => (
            <li key={d.id} id={optionId(d.id)} role="option" aria-selected={d === current} onClick={() => pick(d)}>
              <span>{d.name}</span>
              <span className="muted"> {d.category}</span>
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p className="muted">No node type matches “{query}”.</p>}
      </div>
    </Dialog>
  );
}
