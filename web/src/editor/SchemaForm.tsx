// SchemaForm edits a node's data from its definition's config schema: one control per field, chosen by the field's
// type (text, number, checkbox, select, checkboxes for multiselect, CodeMirror for code, JSON and expressions, the
// arm list of a branch); required fields are marked, defaults shown, descriptions given as help text. Secret fields
// carry no value: the form names the env var the secret is read from.
import { useId } from "react";
import { orderedFields, type ConfigField, type NodeDefinition } from "../ir/nodeDefs";
import type { ExpressionOption } from "../ir/expressions";
import { CodeField } from "./CodeField";
import { envNames, JSONSchemaField, SecretRefField, ToolNamesField, ToolsField } from "./AgentFields";

export interface SchemaFormProps {
  def: NodeDefinition;
  data: Record<string, unknown>;
  onChange: (data: Record<string, unknown>) => void;
  // idPrefix names the controls: `${idPrefix}-data-${key}` (so a problem's path can focus its field).
  idPrefix: string;
  readOnly?: boolean;
  expressionOptions?: () => ExpressionOption[];
  // problems by field key, shown under the field
  problems?: ReadonlyMap<string, string[]>;
}

// A legacy field (its label ends in "(legacy)", as the step's old retry fields) is kept for old IRs and shown folded.
function isLegacy(f: ConfigField): boolean {
  return !f.required && /\(legacy\)\s*$/i.test(f.label);
}

export function fieldDomId(idPrefix: string, key: string): string {
  return `${idPrefix}-data-${key}`;
}

export function SchemaForm(props: SchemaFormProps) {
  const { def, data } = props;
  const set = (key: string, value: unknown) => {
    const next = { ...data };
    if (value === undefined) delete next[key];
    else next[key] = value;
    props.onChange(next);
  };
  const known = new Set(Object.keys(def.configSchema));
  const unknown = Object.keys(data).filter((k) => !known.has(k));
  const fields = orderedFields(def);
  return (
    <div className="schema-form">
      {fields.length === 0 && <p className="muted">This node type has no settings.</p>}
      {fields
        .filter(([, f]) => !isLegacy(f))
        .map(([key, field]) => (
          <Field
            key={key}
            name={key}
            field={field}
            value={data[key]}
            has={key in data}
            set={(v) => set(key, v)}
            id={fieldDomId(props.idPrefix, key)}
            readOnly={props.readOnly}
            expressionOptions={props.expressionOptions}
            problems={props.problems?.get(key)}
            siblings={data}
          />
        ))}
      {fields.some(([, f]) => isLegacy(f)) && (
        <details className="legacy-fields" open={fields.some(([k, f]) => isLegacy(f) && k in data)}>
          <summary>Legacy fields</summary>
          {fields
            .filter(([, f]) => isLegacy(f))
            .map(([key, field]) => (
              <Field
                key={key}
                name={key}
                field={field}
                value={data[key]}
                has={key in data}
                set={(v) => set(key, v)}
                id={fieldDomId(props.idPrefix, key)}
                readOnly={props.readOnly}
                expressionOptions={props.expressionOptions}
                problems={props.problems?.get(key)}
              />
            ))}
        </details>
      )}
      {unknown.length > 0 && (
        <p className="muted">Other keys in this node's data, kept as they are: {unknown.join(", ")}.</p>
      )}
    </div>
  );
}

interface FieldProps {
  name: string;
  field: ConfigField;
  value: unknown;
  has: boolean;
  set: (v: unknown) => void;
  id: string;
  readOnly?: boolean;
  expressionOptions?: () => ExpressionOption[];
  problems?: string[];
  // siblings: the node's whole data (the approval list offers the node's tools)
  siblings?: Record<string, unknown>;
}

function Field(p: FieldProps) {
  const base = useId();
  const labelId = `${base}-label`;
  const helpId = `${base}-help`;
  const errId = `${base}-err`;
  const f = p.field;
  const describedBy =
    [f.description || (!p.has && f.default !== undefined) ? helpId : "", p.problems?.length ? errId : ""]
      .filter(Boolean)
      .join(" ") || undefined;
  const label = (
    <label id={labelId} htmlFor={p.id} className="field-label">
      {f.label || p.name}
      {f.required && <span className="required"> (required)</span>}
    </label>
  );
  const help = (f.description || (!p.has && f.default !== undefined)) && (
    <p id={helpId} className="help">
      {f.description}
      {!p.has && f.default !== undefined && f.type !== "boolean" && ` Default: ${JSON.stringify(f.default)}.`}
    </p>
  );
  const errors = p.problems?.length ? (
    <ul id={errId} className="field-problems">
      {p.problems.map((m, i) => (
        <li key={i}>{m}</li>
      ))}
    </ul>
  ) : null;
  const invalid = !!p.problems?.length;
  let control: React.ReactNode;
  switch (f.type) {
    case "number": {
      const v = p.has ? p.value : f.default;
      control = (
        <input
          id={p.id}
          type="number"
          value={typeof v === "number" ? String(v) : ""}
          placeholder={f.placeholder}
          min={f.validation?.min}
          max={f.validation?.max}
          step={f.validation?.integer ? 1 : "any"}
          required={f.required}
          readOnly={p.readOnly}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            const t = e.target.value;
            if (t === "") return p.set(undefined);
            const n = Number(t);
            if (Number.isFinite(n)) p.set(n);
          }}
        />
      );
      break;
    }
    case "boolean": {
      const v = p.has ? p.value : f.default;
      return (
        <div className="field field-check">
          <input
            id={p.id}
            type="checkbox"
            checked={v === true}
            disabled={p.readOnly}
            aria-invalid={invalid || undefined}
            aria-describedby={describedBy}
            onChange={(e) => p.set(e.target.checked)}
          />
          {label}
          {help}
          {errors}
        </div>
      );
    }
    case "select": {
      const v = p.has ? p.value : f.default;
      const opts = f.options ?? [];
      const current = typeof v === "string" ? v : "";
      control = (
        <select
          id={p.id}
          value={current}
          required={f.required}
          disabled={p.readOnly}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => p.set(e.target.value === "" ? undefined : e.target.value)}
        >
          {f.default === undefined && (!f.required || current === "") && <option value="">(none)</option>}
          {current !== "" && !opts.includes(current) && <option value={current}>{current} (not an option)</option>}
          {opts.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      );
      break;
    }
    case "multiselect": {
      const v = p.has ? p.value : f.default;
      const chosen = Array.isArray(v) ? (v as unknown[]) : [];
      return (
        <fieldset className="field" id={p.id} aria-describedby={describedBy}>
          <legend className="field-label">
            {f.label || p.name}
            {f.required && <span className="required"> (required)</span>}
          </legend>
          {(f.options ?? []).map((o) => (
            <label key={o} className="check-option">
              <input
                type="checkbox"
                checked={chosen.includes(o)}
                disabled={p.readOnly}
                onChange={(e) =>
                  p.set(e.target.checked ? [...chosen.filter((x) => x !== o), o] : chosen.filter((x) => x !== o))
                }
              />
              {o}
            </label>
          ))}
          {help}
          {errors}
        </fieldset>
      );
    }
    case "secret":
      return (
        <div className="field field-secret" id={p.id}>
          <span className="field-label">{f.label || p.name}</span>
          <p className="help">
            Secret, read from the environment variable <code>{f.envVarName}</code>. Set its value in the workflow's
            environment variables; it is never part of the IR.
          </p>
          {f.description && <p className="help">{f.description}</p>}
          {errors}
        </div>
      );
    case "code":
    case "expression":
    case "json": {
      const v = p.has ? p.value : undefined;
      return (
        <div className="field">
          <span
            id={labelId}
            className="field-label"
            onClick={() => document.getElementById(p.id)?.querySelector<HTMLElement>(".cm-content")?.focus()}
          >
            {f.label || p.name}
            {f.required && <span className="required"> (required)</span>}
          </span>
          <CodeField
            id={p.id}
            labelId={labelId}
            describedBy={describedBy}
            value={typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v)}
            onChange={(t) => p.set(t === "" ? undefined : t)}
            language={f.type === "json" ? "json" : "typescript"}
            readOnly={p.readOnly}
            placeholder={f.placeholder ?? (typeof f.default === "string" ? f.default : undefined)}
            invalid={invalid}
            expressionOptions={p.expressionOptions}
            minLines={f.type === "code" ? 4 : 1}
          />
          {help}
          {errors}
        </div>
      );
    }
    case "secretRef":
      return (
        <SecretRefField
          id={p.id}
          label={f.label || p.name}
          value={p.value}
          set={p.set}
          readOnly={p.readOnly}
          names={envNames(p.expressionOptions)}
          help={help}
          errors={errors}
        />
      );
    case "agentTools":
      return (
        <ToolsField
          id={p.id}
          label={f.label || p.name}
          value={p.value}
          set={p.set}
          readOnly={p.readOnly}
          help={help}
          errors={errors}
        />
      );
    case "jsonSchema":
      return (
        <JSONSchemaField
          id={p.id}
          label={f.label || p.name}
          value={p.value}
          set={p.set}
          readOnly={p.readOnly}
          help={help}
          errors={errors}
        />
      );
    case "toolNames":
      return (
        <ToolNamesField
          id={p.id}
          label={f.label || p.name}
          value={p.value}
          set={p.set}
          readOnly={p.readOnly}
          tools={p.siblings?.tools}
          help={help}
          errors={errors}
        />
      );
    case "branches":
      return (
        <BranchesField
          id={p.id}
          label={f.label || p.name}
          value={p.value}
          set={p.set}
          readOnly={p.readOnly}
          expressionOptions={p.expressionOptions}
          help={help}
          errors={errors}
        />
      );
    case "textarea":
      control = (
        <textarea
          id={p.id}
          value={typeof p.value === "string" ? p.value : ""}
          placeholder={f.placeholder ?? (typeof f.default === "string" ? f.default : undefined)}
          required={f.required}
          readOnly={p.readOnly}
          rows={4}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => p.set(e.target.value === "" ? undefined : e.target.value)}
        />
      );
      break;
    default: {
      // string, and any type this Studio does not know yet: a text field
      const v = p.has ? p.value : undefined;
      control = (
        <input
          id={p.id}
          type="text"
          value={typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v)}
          placeholder={f.placeholder ?? (typeof f.default === "string" ? f.default : undefined)}
          required={f.required}
          readOnly={p.readOnly}
          spellCheck={false}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => p.set(e.target.value === "" ? undefined : e.target.value)}
        />
      );
    }
  }
  return (
    <div className="field">
      {label}
      {control}
      {help}
      {errors}
    </div>
  );
}

interface Arm {
  label: string;
  condition: string;
}

function BranchesField(p: {
  id: string;
  label: string;
  value: unknown;
  set: (v: unknown) => void;
  readOnly?: boolean;
  expressionOptions?: () => ExpressionOption[];
  help: React.ReactNode;
  errors: React.ReactNode;
}) {
  const base = useId();
  const arms: Arm[] = Array.isArray(p.value)
    ? (p.value as unknown[]).map((a) => {
        const o = (a ?? {}) as { label?: unknown; condition?: unknown };
        return {
          label: typeof o.label === "string" ? o.label : "",
          condition: typeof o.condition === "string" ? o.condition : "",
        };
      })
    : [];
  const update = (i: number, arm: Arm) => p.set(arms.map((a, j) => (j === i ? arm : a)));
  const freshLabel = () => {
    for (let i = arms.length + 1; ; i++) if (!arms.some((a) => a.label === `arm${i}`)) return `arm${i}`;
  };
  return (
    <fieldset className="field branches" id={p.id}>
      <legend className="field-label">
        {p.label} <span className="required"> (required)</span>
      </legend>
      {p.help}
      <ol className="arms">
        {arms.map((arm, i) => (
          <li key={i} className="arm">
            <label htmlFor={`${p.id}-${i}-label`} className="field-label">
              Arm {i + 1} label
            </label>
            <input
              id={`${p.id}-${i}-label`}
              type="text"
              value={arm.label}
              readOnly={p.readOnly}
              onChange={(e) => update(i, { ...arm, label: e.target.value })}
            />
            <span id={`${base}-${i}-cond`} className="field-label">
              Arm {i + 1} condition (empty: else)
            </span>
            <CodeField
              id={`${p.id}-${i}-condition`}
              labelId={`${base}-${i}-cond`}
              value={arm.condition}
              onChange={(t) => update(i, { ...arm, condition: t })}
              language="typescript"
              readOnly={p.readOnly}
              expressionOptions={p.expressionOptions}
            />
            {!p.readOnly && (
              <div className="arm-actions">
                <button
                  type="button"
                  disabled={i === 0}
                  onClick={() => p.set(arms.map((a, j) => (j === i - 1 ? arms[i]! : j === i ? arms[i - 1]! : a)))}
                >
                  Move arm {i + 1} up
                </button>
                <button type="button" onClick={() => p.set(arms.filter((_, j) => j !== i))}>
                  Remove arm {i + 1}
                </button>
              </div>
            )}
          </li>
        ))}
      </ol>
      {!p.readOnly && (
        <button type="button" onClick={() => p.set([...arms, { label: freshLabel(), condition: "" }])}>
          Add arm
        </button>
      )}
      {p.errors}
    </fieldset>
  );
}
