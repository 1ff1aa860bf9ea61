// RollbackForm edits config.rollback of a durable node (docs/ir.md, "Rollbacks (sagas)"): the code that undoes the
// step when a later step fails, with its own retries and timeout. Clearing every part removes the rollback.
import { useId } from "react";
import type { ExpressionOption } from "../ir/expressions";
import type { IrStepConfig } from "../ir/types";
import { CodeField } from "./CodeField";

type Rollback = NonNullable<IrStepConfig["rollback"]>;
type RollbackRetries = NonNullable<Rollback["retries"]>;
// Draft is a rollback being edited: any part may be missing.
interface Draft {
  code?: string | undefined;
  retries?: { [K in keyof RollbackRetries]?: RollbackRetries[K] | undefined } | undefined;
  timeout?: Rollback["timeout"] | undefined;
}

export interface RollbackFormProps {
  rollback: Rollback | undefined;
  idPrefix: string;
  readOnly?: boolean;
  problems: ReadonlyMap<string, string[]>;
  expressionOptions: () => ExpressionOption[];
  onChange: (r: Rollback | undefined) => void;
}

// durationInput reads a duration input: a number of seconds, a duration string, or nothing.
const durationInput = (t: string): number | string | undefined =>
  t === "" ? undefined : /^\d+(\.\d+)?$/.test(t) ? Number(t) : t;

export function RollbackForm(p: RollbackFormProps) {
  const base = useId();
  const r: Draft = p.rollback ?? {};
  const retries: Partial<RollbackRetries> = r.retries ?? {};
  const set = (next: Draft) => {
    const out: Draft = {};
    if (next.code !== undefined && next.code !== "") out.code = next.code;
    const rt = Object.fromEntries(Object.entries(next.retries ?? {}).filter(([, v]) => v !== undefined && v !== ""));
    if (Object.keys(rt).length > 0) out.retries = rt;
    if (next.timeout !== undefined && next.timeout !== "") out.timeout = next.timeout;
    // the code is required: a rollback being written keeps an empty code until it is typed, which validation names
    p.onChange(Object.keys(out).length > 0 ? ({ code: "", ...out } as Rollback) : undefined);
  };
  const id = (k: string) => `${p.idPrefix}-rollback-${k}`;
  const err = (k: string) =>
    p.problems.get(`config/rollback${k}`)?.map((m, i) => (
      <p key={i} className="field-problems">
        {m}
      </p>
    ));
  const codeProblems = p.problems.get("config/rollback/code") ?? p.problems.get("config/rollback");
  return (
    <fieldset className="step-config rollback">
      <legend>Rollback</legend>
      <p className="help" id={`${base}-help`}>
        Code that undoes this step when a later step fails: it receives <code>output</code> (this step&apos;s value),{" "}
        <code>error</code> and <code>ctx</code>. Rollbacks run in the reverse order of their steps.
      </p>
      <div className="field">
        <span id={`${base}-code`} className="field-label">
          Rollback code
        </span>
        <CodeField
          id={id("code")}
          labelId={`${base}-code`}
          describedBy={`${base}-help`}
          value={r.code ?? ""}
          language="typescript"
          readOnly={p.readOnly}
          placeholder="await fetch(`https://pay.example/refunds/${output.id}`, { method: 'POST' });"
          invalid={codeProblems !== undefined}
          expressionOptions={p.expressionOptions}
          minLines={3}
          onChange={(code) => set({ ...r, code })}
        />
        {codeProblems?.map((m, i) => (
          <p key={i} className="field-problems">
            {m}
          </p>
        ))}
      </div>
      <div className="field">
        <label htmlFor={id("retries-limit")} className="field-label">
          Rollback retry limit
        </label>
        <input
          id={id("retries-limit")}
          type="number"
          min={0}
          step={1}
          value={typeof retries.limit === "number" ? String(retries.limit) : ""}
          readOnly={p.readOnly}
          onChange={(e) =>
            set({ ...r, retries: { ...retries, limit: e.target.value === "" ? undefined : Number(e.target.value) } })
          }
        />
        {err("/retries/limit")}
      </div>
      <div className="field">
        <label htmlFor={id("retries-delay")} className="field-label">
          Rollback retry delay
        </label>
        <input
          id={id("retries-delay")}
          type="text"
          placeholder="10 seconds"
          value={retries.delay === undefined ? "" : String(retries.delay)}
          readOnly={p.readOnly}
          onChange={(e) => set({ ...r, retries: { ...retries, delay: durationInput(e.target.value) } })}
        />
        {err("/retries/delay")}
      </div>
      <div className="field">
        <label htmlFor={id("timeout")} className="field-label">
          Rollback timeout
        </label>
        <input
          id={id("timeout")}
          type="text"
          placeholder="5 minutes"
          value={r.timeout === undefined ? "" : String(r.timeout)}
          readOnly={p.readOnly}
          onChange={(e) => set({ ...r, timeout: durationInput(e.target.value) })}
        />
        {err("/timeout")}
      </div>
    </fieldset>
  );
}
