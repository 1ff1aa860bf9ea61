// AgentFields are the controls of the agent node's structured fields (docs/agents.md, "The agent node"): the secret
// picker of apiKey ({{env.NAME}} only, never a literal key), the tool list (workflow, HTTP and marketplace-node tools,
// each an editable card; a workflow tool is picked among the project's workflows), the JSON Schema of the answer, and the tools that need an approval, picked from the tools.
import { useState } from "react";
import { useAllWorkflows } from "../api/queries/useAllWorkflows";
import type { ExpressionOption } from "../ir/expressions";

const envRef = /^\{\{\s*env\.([A-Z][A-Z0-9_]*)\s*\}\}$/;

// envNames are the workflow's env vars as the expression completion offers them.
export function envNames(options?: () => ExpressionOption[]): string[] {
  if (!options) return [];
  return options()
    .map((o) => o.path)
    .filter((p) => p.startsWith("env."))
    .map((p) => p.slice(4));
}

interface SecretRefProps {
  id: string;
  label: string;
  value: unknown;
  set: (v: unknown) => void;
  readOnly?: boolean;
  names: string[];
  help: React.ReactNode;
  errors: React.ReactNode;
}

// SecretRefField picks the env var holding the key; the IR stores {{env.NAME}}, never the key.
export function SecretRefField(p: SecretRefProps) {
  const current = typeof p.value === "string" ? (envRef.exec(p.value)?.[1] ?? "") : "";
  const listId = `${p.id}-names`;
  return (
    <div className="field">
      <label htmlFor={p.id} className="field-label">
        {p.label} (env var name)
      </label>
      <input
        id={p.id}
        type="text"
        list={listId}
        value={current}
        readOnly={p.readOnly}
        placeholder="OPENAI_API_KEY"
        pattern="[A-Z][A-Z0-9_]*"
        autoComplete="off"
        onChange={(e) => {
          const name = e.target.value
            .trim()
            .toUpperCase()
            .replace(/[^A-Z0-9_]/g, "_");
          p.set(name === "" ? undefined : `{{env.${name}}}`);
        }}
      />
      <datalist id={listId}>
        {p.names.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <p className="help">
        The key is read from this secret env var at run time; set its value in the workflow's environment variables.
      </p>
      {p.help}
      {p.errors}
    </div>
  );
}

// A tool as the form edits it: its fields by name, of whichever kind the tool is.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a tool's fields differ by kind; the server validates them
type Tool = Record<string, any>;

interface ToolsProps {
  id: string;
  label: string;
  value: unknown;
  set: (v: unknown) => void;
  readOnly?: boolean;
  help: React.ReactNode;
  errors: React.ReactNode;
}

// toolName is the name the model calls a tool by (ir.AgentTools' default when none is given).
export function toolName(t: Tool, index: number): string {
  if (typeof t.name === "string" && t.name !== "") return t.name;
  const raw = "workflow" in t ? `workflow_${t.workflow}` : "http" in t ? `http_${index + 1}` : String(t.node ?? "");
  return raw.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64);
}

// WorkflowPicker selects a workflow tool's workflow among all the project's workflows (functions cannot be started as
// sub-workflows, so they are not offered). A stored id that is not among them stays selected, marked, once every
// page is read.
function WorkflowPicker(p: { id: string; value: string; disabled?: boolean; onChange: (v: string) => void }) {
  const list = useAllWorkflows();
  const workflows = list.workflows.filter((w) => w.kind === "workflow");
  const known = workflows.some((w) => w.id === p.value);
  return (
    <>
      <select id={p.id} value={p.value} disabled={p.disabled} onChange={(e) => p.onChange(e.target.value)}>
        <option value="">{list.isPending ? "Loading the workflows…" : "Choose a workflow"}</option>
        {p.value !== "" && !known && (
          <option value={p.value}>{list.isPending ? p.value : `${p.value} (not among the project's workflows)`}</option>
        )}
        {workflows.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
      </select>
      {list.error && <p className="field-error">The workflows could not be loaded: {list.error.message}</p>}
    </>
  );
}

// ToolsField edits the tool list: one card per tool, and buttons adding a tool of each kind.
export function ToolsField(p: ToolsProps) {
  const tools: Tool[] = Array.isArray(p.value) ? (p.value as Tool[]) : [];
  const put = (next: Tool[]) => p.set(next.length === 0 ? undefined : next);
  const edit = (i: number, t: Tool) => put(tools.map((x, k) => (k === i ? t : x)));
  const text = (i: number, key: string, v: string, inner?: string) => {
    const t = { ...tools[i] };
    if (inner) {
      const h = { ...(t[inner] ?? {}) };
      if (v === "") delete h[key];
      else h[key] = v;
      t[inner] = h;
    } else if (v === "") delete t[key];
    else t[key] = v;
    edit(i, t);
  };
  return (
    <fieldset className="field agent-tools" id={p.id}>
      <legend className="field-label">{p.label}</legend>
      {tools.map((t, i) => {
        const kind = "workflow" in t ? "workflow" : "http" in t ? "http" : "node";
        const base = `${p.id}-${i}`;
        return (
          <div className="agent-tool" key={i} aria-label={`tool ${i + 1}`}>
            <strong>
              {kind === "workflow" ? "Workflow" : kind === "http" ? "HTTP" : "Node"} tool {toolName(t, i)}
            </strong>
            <label htmlFor={`${base}-name`}>Name</label>
            <input
              id={`${base}-name`}
              value={t.name ?? ""}
              readOnly={p.readOnly}
              onChange={(e) => text(i, "name", e.target.value)}
            />
            {kind === "workflow" && (
              <>
                <label htmlFor={`${base}-workflow`}>Workflow</label>
                <WorkflowPicker
                  id={`${base}-workflow`}
                  value={typeof t.workflow === "string" ? t.workflow : ""}
                  disabled={p.readOnly}
                  onChange={(v) => edit(i, { ...t, workflow: v })}
                />
              </>
            )}
            {kind === "http" && (
              <>
                <label htmlFor={`${base}-method`}>Method</label>
                <select
                  id={`${base}-method`}
                  value={t.http?.method ?? "GET"}
                  disabled={p.readOnly}
                  onChange={(e) => text(i, "method", e.target.value, "http")}
                >
                  {["GET", "POST", "PUT", "PATCH", "DELETE"].map((m) => (
                    <option key={m}>{m}</option>
                  ))}
                </select>
                <label htmlFor={`${base}-url`}>URL</label>
                <input
                  id={`${base}-url`}
                  value={t.http?.url ?? ""}
                  readOnly={p.readOnly}
                  placeholder="https://api.example.com/items/{id}"
                  onChange={(e) => text(i, "url", e.target.value, "http")}
                />
              </>
            )}
            {kind === "node" && (
              <>
                <label htmlFor={`${base}-node`}>Node type</label>
                <input
                  id={`${base}-node`}
                  value={t.node ?? ""}
                  readOnly={p.readOnly}
                  placeholder="slack-message"
                  onChange={(e) => text(i, "node", e.target.value)}
                />
              </>
            )}
            <label htmlFor={`${base}-description`}>Description</label>
            <input
              id={`${base}-description`}
              value={(kind === "http" ? t.http?.description : t.description) ?? ""}
              readOnly={p.readOnly}
              onChange={(e) => text(i, "description", e.target.value, kind === "http" ? "http" : undefined)}
            />
            {!p.readOnly && (
              <button type="button" onClick={() => put(tools.filter((_, k) => k !== i))}>
                Remove tool {toolName(t, i)}
              </button>
            )}
          </div>
        );
      })}
      {!p.readOnly && (
        <div className="agent-tool-add">
          <button type="button" onClick={() => put([...tools, { workflow: "" }])}>
            Add a workflow tool
          </button>
          <button type="button" onClick={() => put([...tools, { http: { method: "GET", url: "" } }])}>
            Add an HTTP tool
          </button>
          <button type="button" onClick={() => put([...tools, { node: "", data: {} }])}>
            Add a node tool
          </button>
        </div>
      )}
      {p.help}
      {p.errors}
    </fieldset>
  );
}

interface JSONSchemaProps {
  id: string;
  label: string;
  value: unknown;
  set: (v: unknown) => void;
  readOnly?: boolean;
  help: React.ReactNode;
  errors: React.ReactNode;
}

// JSONSchemaField edits a JSON Schema as JSON text; text that is not a JSON object stays in the box, marked invalid,
// and the IR keeps its last valid schema.
export function JSONSchemaField(p: JSONSchemaProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const shown = draft ?? (p.value === undefined ? "" : JSON.stringify(p.value, null, 2));
  let bad = false;
  if (draft !== null && draft.trim() !== "") {
    try {
      const v = JSON.parse(draft);
      bad = v === null || typeof v !== "object" || Array.isArray(v);
    } catch {
      bad = true;
    }
  }
  return (
    <div className="field">
      <label htmlFor={p.id} className="field-label">
        {p.label}
      </label>
      <textarea
        id={p.id}
        rows={5}
        value={shown}
        readOnly={p.readOnly}
        aria-invalid={bad || undefined}
        placeholder='{"type": "object", "properties": {…}, "required": […]}'
        onChange={(e) => {
          const t = e.target.value;
          setDraft(t);
          if (t.trim() === "") return p.set(undefined);
          try {
            const v = JSON.parse(t);
            if (v !== null && typeof v === "object" && !Array.isArray(v)) p.set(v);
          } catch {
            // kept as a draft until it parses
          }
        }}
      />
      {bad && <p className="field-problems">Not a JSON object yet: the node keeps its last valid schema.</p>}
      {p.help}
      {p.errors}
    </div>
  );
}

interface ToolNamesProps {
  id: string;
  label: string;
  value: unknown;
  set: (v: unknown) => void;
  readOnly?: boolean;
  tools: unknown;
  help: React.ReactNode;
  errors: React.ReactNode;
}

// ToolNamesField picks tools of the node (the approval list): one checkbox per tool.
export function ToolNamesField(p: ToolNamesProps) {
  const chosen = Array.isArray(p.value) ? (p.value as string[]) : [];
  const names = (Array.isArray(p.tools) ? (p.tools as Tool[]) : []).map(toolName);
  return (
    <fieldset className="field" id={p.id}>
      <legend className="field-label">{p.label}</legend>
      {names.length === 0 && <p className="muted">Add tools first.</p>}
      {names.map((n) => (
        <label key={n} className="checkbox">
          <input
            type="checkbox"
            checked={chosen.includes(n)}
            disabled={p.readOnly}
            onChange={(e) => {
              const next = e.target.checked ? [...chosen, n] : chosen.filter((x) => x !== n);
              p.set(next.length === 0 ? undefined : next);
            }}
          />
          {n}
        </label>
      ))}
      {p.help}
      {p.errors}
    </fieldset>
  );
}
