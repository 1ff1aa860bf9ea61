import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, ok } from "../../api/client";
import { envVarNamePattern } from "../../api/forms";
import { workflowKeys } from "../../api/queries/workflows";
import type { WorkflowEnvVar, Workflow } from "../../api/models";
import { Field } from "../../app/fields";
import { ErrorMessage } from "../../app/ui";
import type { WorkflowIR } from "../../ir/types";

interface Dep {
  name: string;
  spec: string;
}

// SettingsPanel edits the workflow's own fields (env vars, dependencies, deploy config: PATCH, saved at once) and
// the IR's trigger (part of the draft, saved with the next version).
export function SettingsPanel({
  workflow,
  ir,
  onIrChange,
}: {
  workflow: Workflow;
  ir: WorkflowIR;
  onIrChange: (ir: WorkflowIR) => void;
}) {
  const qc = useQueryClient();
  const isFunction = workflow.kind === "script";
  const [vars, setVars] = useState<WorkflowEnvVar[]>(() => workflow.envVars.map((v) => ({ ...v })));
  const [deps, setDeps] = useState<Dep[]>(() =>
    Object.entries(workflow.dependencies ?? {}).map(([name, spec]) => ({ name, spec })),
  );
  const [routePattern, setRoutePattern] = useState(workflow.deployConfig?.route?.pattern ?? "");
  const [zoneName, setZoneName] = useState(workflow.deployConfig?.route?.zoneName ?? "");
  const [publicTrigger, setPublicTrigger] = useState(workflow.deployConfig?.publicTrigger === true);
  const [concurrency, setConcurrency] = useState(String(workflow.deployConfig?.concurrency ?? ""));
  const [local, setLocal] = useState<string[]>([]);

  const save = useMutation({
    mutationFn: () => {
      const dependencies: Record<string, string> = {};
      for (const d of deps) if (d.name.trim()) dependencies[d.name.trim()] = d.spec.trim();
      const deployConfig: Record<string, unknown> = {};
      if (routePattern.trim() || zoneName.trim())
        deployConfig.route = { pattern: routePattern.trim(), zoneName: zoneName.trim() };
      if (!isFunction && publicTrigger) deployConfig.publicTrigger = true;
      // Settings this panel does not edit are sent back as stored (deployConfig is replaced whole).
      if (workflow.deployConfig?.retention) deployConfig.retention = workflow.deployConfig.retention;
      if (workflow.deployConfig?.rateLimit) deployConfig.rateLimit = workflow.deployConfig.rateLimit;
      if (!isFunction && concurrency.trim()) deployConfig.concurrency = Number(concurrency.trim());
      return ok(
        api.PATCH("/api/workflows/{id}", {
          params: { path: { id: workflow.id } },
          body: {
            envVars: vars.map((v) => ({ name: v.name.trim(), value: v.value, isSecret: v.isSecret })),
            dependencies,
            deployConfig,
          },
        }),
      );
    },
    onSuccess: (w) => {
      setVars(w.envVars.map((v) => ({ ...v })));
      void qc.invalidateQueries({ queryKey: workflowKeys.one(workflow.id) });
    },
  });
  const check = (): string[] => {
    const problems: string[] = [];
    const seen = new Set<string>();
    vars.forEach((v, i) => {
      const n = v.name.trim();
      if (!envVarNamePattern.test(n))
        problems.push(`Variable ${i + 1}: a name is upper case letters, digits and _, starting with a letter.`);
      else if (seen.has(n)) problems.push(`Variable ${n} is listed twice.`);
      seen.add(n);
    });
    deps.forEach((d, i) => {
      if (d.name.trim() && !d.spec.trim()) problems.push(`Dependency ${i + 1}: give a version range such as ^1.2.0.`);
    });
    if ((routePattern.trim() === "") !== (zoneName.trim() === ""))
      problems.push("A route needs both a pattern and a zone name.");
    return problems;
  };
  const pathError = (prefix: string) =>
    save.error instanceof ApiError
      ? save.error.details
          .filter((d) => (d.path ?? "").startsWith(prefix))
          .map((d) => d.message)
          .join(" ")
      : "";

  const trigger = ir.trigger;
  const triggerType = trigger?.type ?? "manual";
  const setTrigger = (t: WorkflowIR["trigger"]) => {
    const next = { ...ir };
    if (t) next.trigger = t;
    else delete next.trigger;
    onIrChange(next);
  };

  return (
    <section className="panel settings" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <h3>Trigger</h3>
      {isFunction ? (
        <p className="small muted">A function is started by HTTP requests to its URL.</p>
      ) : (
        <>
          <div className="field">
            <label htmlFor="trigger-type">Trigger</label>
            <select
              id="trigger-type"
              value={triggerType === "cron" ? "cron" : triggerType === "manual" ? "manual" : triggerType}
              onChange={(e) =>
                setTrigger(
                  e.target.value === "cron"
                    ? { type: "cron", expression: trigger?.expression ?? "0 * * * *" }
                    : undefined,
                )
              }
            >
              <option value="manual">Manual (the API or Run)</option>
              <option value="cron">Schedule (cron)</option>
              {triggerType !== "manual" && triggerType !== "cron" && <option value={triggerType}>{triggerType}</option>}
            </select>
          </div>
          {triggerType === "cron" && (
            <div className="field">
              <label htmlFor="trigger-cron">Cron expression</label>
              <input
                id="trigger-cron"
                className="code"
                value={trigger?.expression ?? ""}
                onChange={(e) => setTrigger({ type: "cron", expression: e.target.value })}
                aria-describedby="trigger-cron-hint"
              />
              <p id="trigger-cron-hint" className="hint">
                Five fields: minute hour day-of-month month day-of-week, e.g. <code>0 9 * * MON</code>.
              </p>
            </div>
          )}
          <p className="hint">The trigger is part of the IR: it is stored with the next saved version.</p>
        </>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const p = check();
          setLocal(p);
          if (p.length === 0) save.mutate();
        }}
      >
        <h3>Environment variables</h3>
        {vars.length === 0 && (
          <p className="muted small">
            None. Code reads them as <code>env.NAME</code>.
          </p>
        )}
        {vars.map((v, i) => (
          <div className="row-fields" key={i}>
            <div className="field">
              <label htmlFor={`env-name-${i}`}>Name</label>
              <input
                id={`env-name-${i}`}
                className="code"
                value={v.name}
                onChange={(e) =>
                  setVars(vars.map((x, j) => (j === i ? { ...x, name: e.target.value.toUpperCase() } : x)))
                }
              />
            </div>
            <div className="field">
              <label htmlFor={`env-value-${i}`}>Value</label>
              <input
                id={`env-value-${i}`}
                type={v.isSecret ? "password" : "text"}
                autoComplete="off"
                value={v.value}
                placeholder={v.isSecret && v.value === "***" ? "unchanged" : ""}
                onFocus={() =>
                  v.isSecret && v.value === "***" && setVars(vars.map((x, j) => (j === i ? { ...x, value: "" } : x)))
                }
                onBlur={() => {
                  const orig = workflow.envVars.find((o) => o.name === v.name && o.isSecret);
                  if (v.isSecret && v.value === "" && orig)
                    setVars(vars.map((x, j) => (j === i ? { ...x, value: "***" } : x)));
                }}
                onChange={(e) => setVars(vars.map((x, j) => (j === i ? { ...x, value: e.target.value } : x)))}
              />
            </div>
            <label className="choice">
              <input
                type="checkbox"
                checked={v.isSecret}
                onChange={(e) =>
                  setVars(
                    vars.map((x, j) =>
                      j === i
                        ? {
                            ...x,
                            isSecret: e.target.checked,
                            value: !e.target.checked && x.value === "***" ? "" : x.value,
                          }
                        : x,
                    ),
                  )
                }
              />
              Secret
            </label>
            <button
              type="button"
              className="icon"
              aria-label={`Remove variable ${v.name || i + 1}`}
              onClick={() => setVars(vars.filter((_, j) => j !== i))}
            >
              ×
            </button>
          </div>
        ))}
        {pathError("/envVars") && <p className="field-error">{pathError("/envVars")}</p>}
        <button type="button" onClick={() => setVars([...vars, { name: "", value: "", isSecret: false }])}>
          Add variable
        </button>
        <p className="hint">
          Secret values are sealed by the server and never shown again; leave them as they are to keep them.
        </p>

        <h3>Dependencies</h3>
        {deps.length === 0 && <p className="muted small">None. Code may import npm packages listed here.</p>}
        {deps.map((d, i) => (
          <div className="row-fields" key={i}>
            <div className="field">
              <label htmlFor={`dep-name-${i}`}>Package</label>
              <input
                id={`dep-name-${i}`}
                className="code"
                value={d.name}
                onChange={(e) => setDeps(deps.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
              />
            </div>
            <div className="field">
              <label htmlFor={`dep-spec-${i}`}>Version</label>
              <input
                id={`dep-spec-${i}`}
                className="code"
                value={d.spec}
                onChange={(e) => setDeps(deps.map((x, j) => (j === i ? { ...x, spec: e.target.value } : x)))}
              />
            </div>
            <button
              type="button"
              className="icon"
              aria-label={`Remove dependency ${d.name || i + 1}`}
              onClick={() => setDeps(deps.filter((_, j) => j !== i))}
            >
              ×
            </button>
          </div>
        ))}
        {pathError("/dependencies") && <p className="field-error">{pathError("/dependencies")}</p>}
        <button type="button" onClick={() => setDeps([...deps, { name: "", spec: "" }])}>
          Add dependency
        </button>

        <h3>Deploy config</h3>
        <Field
          id="route-pattern"
          label="Route pattern"
          className="code"
          placeholder="example.com/api/*"
          value={routePattern}
          onChange={setRoutePattern}
        />
        <Field
          id="route-zone"
          label="Zone name"
          className="code"
          placeholder="example.com"
          value={zoneName}
          onChange={setZoneName}
        />
        {!isFunction && (
          <label className="choice">
            <input type="checkbox" checked={publicTrigger} onChange={(e) => setPublicTrigger(e.target.checked)} />
            Public trigger (signed requests may start runs at the worker URL, from the next deploy)
          </label>
        )}
        {!isFunction && (
          <Field
            id="concurrency"
            label="Concurrency (most runs in progress at once; empty: no limit)"
            placeholder="10"
            value={concurrency}
            onChange={setConcurrency}
          />
        )}
        {pathError("/deployConfig/concurrency") && (
          <p className="field-error">{pathError("/deployConfig/concurrency")}</p>
        )}
        {pathError("/deployConfig") && <p className="field-error">{pathError("/deployConfig")}</p>}
        {local.length > 0 && (
          <ul className="error" role="alert">
            {local.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        )}
        <ErrorMessage error={save.error} title="Settings not saved" />
        {save.isSuccess && (
          <p className="ok" role="status">
            Settings saved.
          </p>
        )}
        <button type="submit" className="primary" disabled={save.isPending}>
          Save settings
        </button>
      </form>
    </section>
  );
}
