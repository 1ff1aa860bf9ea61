// NodeLinks are the parts of node settings about the node's place in the graph, each usable from the keyboard: its
// id (what expressions name) with a rename that every reference follows, its outgoing edges each with a Remove
// button, and a form that connects one of its outlets to another node.
import { useId, useState, type FormEvent } from "react";
import { idFromName, validId } from "../ir/edit";
import type { WorkflowIR } from "../ir/types";
import { outletChoices } from "./NodePicker";

export interface NodeIdFieldProps {
  ir: WorkflowIR;
  nodeId: string;
  name: string;
  readOnly?: boolean;
  idPrefix: string;
  onRename: (to: string) => void;
}

// idProblem says what is wrong with a new id for a node, or "" when it can be used.
export function idProblem(ir: WorkflowIR, self: string, id: string): string {
  if (id === self) return "";
  if (!validId(id))
    return "An id has letters, digits, - and _, starts with a letter, a digit or _, and is at most 100 characters.";
  if (ir.nodes.some((n) => n.id === id)) return `Another node has the id ${id}.`;
  return "";
}

// NodeIdField edits a node's id. The id the node's name reads as is offered while it differs from the id.
export function NodeIdField(p: NodeIdFieldProps) {
  const [draft, setDraft] = useState(p.nodeId);
  const suggested = idFromName(p.ir, p.name, p.nodeId);
  const problem = idProblem(p.ir, p.nodeId, draft);
  const errorId = `${p.idPrefix}-id-problem`;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!problem && draft !== p.nodeId) p.onRename(draft);
  };
  return (
    <form className="field node-id" onSubmit={submit}>
      <label htmlFor={`${p.idPrefix}-id`} className="field-label">
        Id
      </label>
      <p className="help">
        Expressions name the node by its id: <code>{`{{${p.nodeId}}}`}</code>. Renaming it renames every reference.
      </p>
      <div className="inline-fields">
        <input
          id={`${p.idPrefix}-id`}
          type="text"
          value={draft}
          readOnly={p.readOnly}
          spellCheck={false}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? errorId : undefined}
          onChange={(e) => setDraft(e.target.value)}
        />
        {!p.readOnly && (
          <button type="submit" disabled={!!problem || draft === p.nodeId}>
            Rename id
          </button>
        )}
      </div>
      {problem && (
        <p id={errorId} className="field-problems">
          {problem}
        </p>
      )}
      {!p.readOnly && suggested && suggested !== p.nodeId && (
        <button
          type="button"
          className="link-button"
          onClick={() => {
            setDraft(suggested);
            p.onRename(suggested);
          }}
        >
          Rename id to {suggested} (from the name)
        </button>
      )}
    </form>
  );
}

export interface NodeEdgesProps {
  ir: WorkflowIR;
  nodeId: string;
  readOnly?: boolean;
  idPrefix: string;
  onConnect: (outlet: string, target: string) => void;
  onRemoveEdge: (edgeId: string) => void;
}

// NodeEdges lists the node's outgoing edges (outlet → target, each with Remove) and connects an outlet to a node.
export function NodeEdges(p: NodeEdgesProps) {
  const uid = useId();
  const outlets = outletChoices(p.ir, p.nodeId);
  const targets = p.ir.nodes.filter((n) => n.id !== p.nodeId);
  const [outlet, setOutlet] = useState(outlets[0]?.value ?? "");
  const [target, setTarget] = useState("");
  const nameOf = (id: string) => {
    const n = p.ir.nodes.find((x) => x.id === id);
    return n ? `${n.name || n.id} (${n.id})` : id;
  };
  const outletName = (label: string | undefined) =>
    outlets.find((o) => o.value === (label ?? ""))?.label.replace("new lane", "lane") ?? label ?? "next";
  const edges = p.ir.edges.filter((e) => e.source === p.nodeId);
  const chosenOutlet = outlets.some((o) => o.value === outlet) ? outlet : (outlets[0]?.value ?? "");
  return (
    <section className="node-edges" aria-labelledby={`${uid}-h`}>
      <h3 id={`${uid}-h`}>Connections</h3>
      {edges.length === 0 ? (
        <p className="muted">No outgoing edge.</p>
      ) : (
        <ul>
          {edges.map((e) => (
            <li key={e.id}>
              <span>
                {outletName(e.label)} → {nameOf(e.target)}
              </span>
              {!p.readOnly && (
                <button
                  type="button"
                  aria-label={`Remove the edge ${outletName(e.label)} to ${nameOf(e.target)}`}
                  onClick={() => p.onRemoveEdge(e.id)}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {!p.readOnly && outlets.length > 0 && targets.length > 0 && (
        <form
          className="inline-fields"
          onSubmit={(e) => {
            e.preventDefault();
            if (target) p.onConnect(chosenOutlet, target);
          }}
        >
          {outlets.length > 1 && (
            <>
              <label htmlFor={`${p.idPrefix}-connect-outlet`}>Outlet</label>
              <select
                id={`${p.idPrefix}-connect-outlet`}
                value={chosenOutlet}
                onChange={(e) => setOutlet(e.target.value)}
              >
                {outlets.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label.replace("new lane", "lane")}
                  </option>
                ))}
              </select>
            </>
          )}
          <label htmlFor={`${p.idPrefix}-connect-target`}>Connect to</label>
          <select id={`${p.idPrefix}-connect-target`} value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">Choose a node…</option>
            {targets.map((n) => (
              <option key={n.id} value={n.id}>
                {nameOf(n.id)}
              </option>
            ))}
          </select>
          <button type="submit" disabled={!target}>
            Connect
          </button>
        </form>
      )}
    </section>
  );
}
