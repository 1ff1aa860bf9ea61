// NodePanel configures the selected node: its name, its data through the definition's schema, the step config
// (retries and timeout) and the rollback where the node runs as a durable step, and whether execution starts at it.
import { useId, type ReactNode } from "react";
import { runsAsDurableStep, type NodeDefinition } from "../ir/nodeDefs";
import type { ExpressionOption } from "../ir/expressions";
import type { IrNode, IrProblem, IrStepConfig } from "../ir/types";
import { NodeOutputSection } from "./NodeOutput";
import { RollbackForm } from "./RollbackForm";
import { SchemaForm } from "./SchemaForm";

// stepContextOptionsOf adds {{step.attempt}} and {{step.count}} to a rollback's completion, unless a node of that id
// hides them (its options then name "step").
function stepContextOptionsOf(opts: ExpressionOption[]): ExpressionOption[] {
  if (opts.some((o) => o.path === "step" || o.path.startsWith("step."))) return [];
  return [
    { path: "step.attempt", detail: "the attempt of the step this undoes" },
    { path: "step.count", detail: "how many steps of this name the run had started" },
  ];
}

export interface NodePanelProps {
  node: IrNode;
  index: number;
  def: NodeDefinition | undefined;
  entry: boolean;
  kind: "workflow" | "script";
  readOnly?: boolean;
  problems: IrProblem[];
  idPrefix: string;
  expressionOptions: () => ExpressionOption[];
  onNodeChange: (node: IrNode, field: string) => void;
  onDataChange: (data: Record<string, unknown>, field: string) => void;
  onSetEntry: () => void;
  onDelete: () => void;
  // links: the node's id and connections (NodeLinks.tsx), shown under its name
  links?: ReactNode;
}

// fieldKeyOf gives the data key a problem path names (/nodes/3/data/url → url).
function problemsByField(problems: IrProblem[], index: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const prefix = `/nodes/${index}/`;
  for (const p of problems) {
    if (!p.path.startsWith(prefix)) continue;
    const rest = p.path.slice(prefix.length).split("/");
    const key = rest[0] === "data" && rest[1] !== undefined ? rest[1] : rest.join("/");
    const list = out.get(key) ?? [];
    list.push(p.message);
    out.set(key, list);
  }
  return out;
}

export function NodePanel(p: NodePanelProps) {
  const base = useId();
  const { node, def } = p;
  const byField = problemsByField(p.problems, p.index);
  const nodeLevel = p.problems.filter((q) => {
    const rest = q.path.replace(`/nodes/${p.index}`, "");
    return (
      rest === "" ||
      rest === "/id" ||
      rest === "/type" ||
      rest === "/version" ||
      !q.path.startsWith(`/nodes/${p.index}`)
    );
  });
  const data = node.data && typeof node.data === "object" && !Array.isArray(node.data) ? node.data : {};
  const stepConfig = p.kind === "workflow" && runsAsDurableStep(node.type, def);
  return (
    <section className="node-panel" aria-labelledby={`${base}-h`}>
      <h2 id={`${base}-h`}>{node.name || node.id}</h2>
      <p className="muted">
        {def ? def.name : node.type} · id <code>{node.id}</code>
        {def?.description ? ` · ${def.description}` : ""}
      </p>
      {!def && <p className="warn">The node type “{node.type}” is not installed in this organization.</p>}
      {nodeLevel.length > 0 && (
        <ul className="field-problems">
          {nodeLevel.map((q, i) => (
            <li key={i}>{q.message}</li>
          ))}
        </ul>
      )}
      <NodeOutputSection nodeId={node.id} readOnly={p.readOnly} />
      <div className="field">
        <label htmlFor={`${p.idPrefix}-name`} className="field-label">
          Name <span className="required"> (required)</span>
        </label>
        <input
          id={`${p.idPrefix}-name`}
          type="text"
          value={node.name ?? ""}
          readOnly={p.readOnly}
          aria-invalid={byField.has("name") || undefined}
          onChange={(e) => p.onNodeChange({ ...node, name: e.target.value }, "name")}
        />
        {byField.get("name")?.map((m, i) => (
          <p key={i} className="field-problems">
            {m}
          </p>
        ))}
      </div>
      <div className="entry-control">
        {p.entry ? (
          <p>Execution starts at this node (the entry node).</p>
        ) : (
          !p.readOnly && (
            <button type="button" onClick={p.onSetEntry}>
              Set as entry node
            </button>
          )
        )}
      </div>
      {p.links}
      {def ? (
        <SchemaForm
          def={def}
          data={data}
          onChange={(d) => {
            const changed = Object.keys({ ...d, ...data }).find((k) => d[k] !== data[k]) ?? "data";
            p.onDataChange(d, changed);
          }}
          idPrefix={p.idPrefix}
          readOnly={p.readOnly}
          expressionOptions={p.expressionOptions}
          problems={byField}
        />
      ) : (
        <RawData data={data} idPrefix={p.idPrefix} readOnly={p.readOnly} onChange={(d) => p.onDataChange(d, "data")} />
      )}
      {stepConfig && (
        <StepConfigForm
          config={node.config}
          idPrefix={p.idPrefix}
          readOnly={p.readOnly}
          problems={byField}
          onChange={(config) => {
            const next: IrNode = { ...node };
            if (config) next.config = config;
            else delete next.config;
            p.onNodeChange(next, "config");
          }}
        />
      )}
      {stepConfig && (
        <RollbackForm
          rollback={node.config?.rollback}
          idPrefix={p.idPrefix}
          readOnly={p.readOnly}
          problems={byField}
          expressionOptions={() => {
            // rollback code has the context of the step it undoes, whatever the node's type
            const opts = p.expressionOptions();
            return opts.some((o) => o.path === "step.attempt") ? opts : [...opts, ...stepContextOptionsOf(opts)];
          }}
          onChange={(rollback) => {
            const config: IrStepConfig = { ...node.config };
            if (rollback) config.rollback = rollback;
            else delete config.rollback;
            const next: IrNode = { ...node };
            if (Object.keys(config).length > 0) next.config = config;
            else delete next.config;
            p.onNodeChange(next, "config");
          }}
        />
      )}
      {!p.readOnly && (
        <button type="button" className="danger" onClick={p.onDelete}>
          Delete node
        </button>
      )}
    </section>
  );
}

function RawData(p: {
  data: Record<string, unknown>;
  idPrefix: string;
  readOnly?: boolean;
  onChange: (d: Record<string, unknown>) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={`${p.idPrefix}-data`} className="field-label">
        Data (JSON)
      </label>
      <textarea
        id={`${p.idPrefix}-data`}
        defaultValue={JSON.stringify(p.data, null, 2)}
        rows={8}
        readOnly={p.readOnly}
        spellCheck={false}
        onChange={(e) => {
          try {
            const v = JSON.parse(e.target.value) as unknown;
            if (v && typeof v === "object" && !Array.isArray(v)) p.onChange(v as Record<string, unknown>);
          } catch {
            // not JSON yet: wait for more typing
          }
        }}
      />
    </div>
  );
}

type Retries = NonNullable<IrStepConfig["retries"]>;

// StepConfigForm edits config.retries (limit, delay, backoff, and maxDelay when the delay is "retry-after") and
// config.timeout; empty parts are removed.
function StepConfigForm(p: {
  config: IrStepConfig | undefined;
  idPrefix: string;
  readOnly?: boolean;
  problems: ReadonlyMap<string, string[]>;
  onChange: (c: IrStepConfig | undefined) => void;
}) {
  const c = p.config ?? {};
  const r = (c.retries ?? {}) as Partial<Retries>;
  const set = (retries: Partial<Retries> | undefined, timeout: IrStepConfig["timeout"] | undefined) => {
    const next: IrStepConfig = { ...c };
    const cleaned = Object.fromEntries(Object.entries(retries ?? {}).filter(([, v]) => v !== undefined && v !== ""));
    if (Object.keys(cleaned).length > 0) next.retries = cleaned as Retries;
    else delete next.retries;
    if (timeout === undefined || timeout === "") delete next.timeout;
    else next.timeout = timeout;
    p.onChange(Object.keys(next).length > 0 ? next : undefined);
  };
  const dur = (t: string): number | string | undefined =>
    t === "" ? undefined : /^\d+(\.\d+)?$/.test(t) ? Number(t) : t;
  const id = (k: string) => `${p.idPrefix}-config-${k}`;
  const err = (k: string) =>
    p.problems.get(k)?.map((m, i) => (
      <p key={i} className="field-problems">
        {m}
      </p>
    ));
  return (
    <fieldset className="step-config">
      <legend>Step config</legend>
      <p className="help">
        Retries and timeout of the durable step; empty uses Cloudflare&apos;s defaults. A retry delay of{" "}
        <code>retry-after</code> (HTTP and marketplace nodes) waits as the failed answer&apos;s Retry-After header says.
      </p>
      <div className="field">
        <label htmlFor={id("retries-limit")} className="field-label">
          Retry limit
        </label>
        <input
          id={id("retries-limit")}
          type="number"
          min={0}
          step={1}
          value={typeof r.limit === "number" ? String(r.limit) : ""}
          readOnly={p.readOnly}
          onChange={(e) => set({ ...r, limit: e.target.value === "" ? undefined : Number(e.target.value) }, c.timeout)}
        />
        {err("config/retries/limit")}
      </div>
      <div className="field">
        <label htmlFor={id("retries-delay")} className="field-label">
          Retry delay
        </label>
        <input
          id={id("retries-delay")}
          type="text"
          placeholder="10 seconds"
          value={r.delay === undefined ? "" : String(r.delay)}
          readOnly={p.readOnly}
          onChange={(e) => {
            const delay = dur(e.target.value);
            // maxDelay belongs to "retry-after" only; its input goes with it
            set({ ...r, delay, ...(delay === "retry-after" ? {} : { maxDelay: undefined }) }, c.timeout);
          }}
        />
        {err("config/retries/delay")}
      </div>
      {r.delay === "retry-after" && (
        <div className="field">
          <label htmlFor={id("retries-maxDelay")} className="field-label">
            Longest Retry-After wait
          </label>
          <input
            id={id("retries-maxDelay")}
            type="text"
            placeholder="1 hour"
            value={r.maxDelay === undefined ? "" : String(r.maxDelay)}
            readOnly={p.readOnly}
            onChange={(e) => set({ ...r, maxDelay: dur(e.target.value) }, c.timeout)}
          />
          {err("config/retries/maxDelay")}
        </div>
      )}
      <div className="field">
        <label htmlFor={id("retries-backoff")} className="field-label">
          Backoff
        </label>
        <select
          id={id("retries-backoff")}
          value={r.backoff ?? ""}
          disabled={p.readOnly}
          onChange={(e) => set({ ...r, backoff: (e.target.value || undefined) as Retries["backoff"] }, c.timeout)}
        >
          <option value="">(default)</option>
          <option value="constant">constant</option>
          <option value="linear">linear</option>
          <option value="exponential">exponential</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={id("timeout")} className="field-label">
          Timeout
        </label>
        <input
          id={id("timeout")}
          type="text"
          placeholder="5 minutes"
          value={c.timeout === undefined ? "" : String(c.timeout)}
          readOnly={p.readOnly}
          onChange={(e) => set(c.retries, dur(e.target.value))}
        />
        {err("config/timeout")}
      </div>
    </fieldset>
  );
}
