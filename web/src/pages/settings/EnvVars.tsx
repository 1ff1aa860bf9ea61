import { useMemo, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { envVarNamePattern, fieldErrors, type FieldErrors } from "../../api/forms";
import { useCursorList } from "../../api/queries/cursor";
import { envVarKeys, envVarQueries } from "../../api/queries/envVars";
import { projectQueries } from "../../api/queries/projects";
import { ConfirmDialog, DataTable, Field } from "../../app/fields";
import { Link } from "../../app/Link";
import { useSession } from "../../app/session";
import { Dialog, ErrorMessage, Loading } from "../../app/ui";
import { secretMask, type EnvVarUsage, type EnvVar } from "../../api/models";
import "./settings.css";

interface Row {
  name: string;
  organization?: EnvVar;
  project?: EnvVar;
}

type Scope = "organization" | "project";

// EnvVarsPage shows the organization's and the active project's variables side by side: a project's value wins
// over the organization's of the same name when a workflow of the project is deployed.
export default function EnvVarsPage() {
  const session = useSession().data!;
  const projects = useQuery(projectQueries.list(session.activeOrganizationId));
  const projectName = projects.data?.data.find((p) => p.id === session.activeProjectId)?.name ?? "this project";
  const list = useCursorList(envVarQueries.list());
  const usage = useCursorList(envVarQueries.usage());
  const [editing, setEditing] = useState<{ scope: Scope; name?: string; v?: EnvVar } | null>(null);
  const [deleting, setDeleting] = useState<EnvVar | null>(null);

  const rows = useMemo(() => {
    const m = new Map<string, Row>();
    for (const v of list.items) {
      const r = m.get(v.name) ?? { name: v.name };
      if (v.scope === "project") r.project = v;
      else r.organization = v;
      m.set(v.name, r);
    }
    return [...m.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }, [list.items]);
  const usedBy = useMemo(() => {
    const m = new Map<string, EnvVarUsage[]>();
    for (const w of usage.items)
      for (const u of w.uses) {
        const l = m.get(u.name) ?? [];
        if (!l.includes(w)) l.push(w);
        m.set(u.name, l);
      }
    return m;
  }, [usage.items]);

  return (
    <main className="page settings">
      <div className="page-head">
        <div>
          <h1>Environment variables</h1>
          <p className="muted">
            Values every workflow can read as <code>{"{{env.NAME}}"}</code>. A project&apos;s variable wins over the
            organization&apos;s of the same name. Secrets are stored encrypted and never shown again.
          </p>
        </div>
        <div className="row-actions">
          <button type="button" className="primary" onClick={() => setEditing({ scope: "organization" })}>
            New organization variable
          </button>
          <button type="button" className="primary" onClick={() => setEditing({ scope: "project" })}>
            New project variable
          </button>
        </div>
      </div>
      {list.isPending && <Loading what="environment variables" />}
      <ErrorMessage error={list.error} title="The variables could not be loaded" />
      <ErrorMessage error={usage.error} title="Which workflows use them could not be loaded" />
      {list.isSuccess && rows.length === 0 && (
        <div className="empty">
          <p>There are no environment variables yet.</p>
        </div>
      )}
      {rows.length > 0 && (
        <DataTable
          columns={["Name", "Organization", <>Project {projectName}</>, "In effect", "Used by"]}
          className="env-table"
        >
          {rows.map((r) => (
            <tr key={r.name}>
              <th scope="row">
                <code>{r.name}</code>
              </th>
              {(["organization", "project"] as const).map((scope) => {
                const v = r[scope];
                const overridden = scope === "organization" && v && r.project;
                return (
                  <td key={scope} className={overridden ? "overridden" : undefined}>
                    {v ? (
                      <>
                        <Value v={v} />
                        {overridden && <div className="muted small">overridden by the project</div>}
                        <div className="row-actions start">
                          <button
                            type="button"
                            onClick={() => setEditing({ scope, v })}
                            aria-label={`Edit ${r.name} of the ${scope}`}
                          >
                            Edit
                          </button>
                          <button
                            type="button"
                            className="danger"
                            onClick={() => setDeleting(v)}
                            aria-label={`Delete ${r.name} of the ${scope}`}
                          >
                            Delete
                          </button>
                        </div>
                      </>
                    ) : (
                      <button
                        type="button"
                        onClick={() => setEditing({ scope, name: r.name })}
                        aria-label={`Set ${r.name} for the ${scope}`}
                      >
                        Set
                      </button>
                    )}
                  </td>
                );
              })}
              <td>
                {r.project ? <span className="badge">project</span> : <span className="badge">organization</span>}
              </td>
              <td>
                {usage.isSuccess && !usedBy.get(r.name)?.length && <span className="muted">no workflow</span>}
                <ul className="plain">
                  {(usedBy.get(r.name) ?? []).map((w) => (
                    <li key={w.workflowId}>
                      <Link href={`/workflows/${w.workflowId}`}>{w.workflowName}</Link>
                    </li>
                  ))}
                </ul>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          Load more variables
        </button>
      )}
      {usage.hasNextPage && (
        <button type="button" onClick={() => void usage.fetchNextPage()} disabled={usage.isFetchingNextPage}>
          Load more workflows
        </button>
      )}
      <p className="muted small">
        Used by lists the workflows of this project that read the variable in their current version, or declare a
        variable whose value is <code>{"{{global.env.NAME}}"}</code>, and do not declare one of the same name
        themselves.
      </p>
      {editing && (
        <EditDialog
          scope={editing.scope}
          projectName={projectName}
          v={editing.v}
          presetName={editing.name}
          onClose={() => setEditing(null)}
        />
      )}
      {deleting && <DeleteDialog v={deleting} projectName={projectName} onClose={() => setDeleting(null)} />}
    </main>
  );
}

function Value({ v }: { v: EnvVar }) {
  if (v.isSecret)
    return (
      <span className="secret">
        <span aria-hidden="true">••••••••</span> <span className="badge">secret</span>
        <span className="sr-only">value hidden</span>
      </span>
    );
  return <code className="value">{v.value === "" ? <span className="muted">(empty)</span> : v.value}</code>;
}

function scopeWords(scope: Scope, projectName: string): string {
  return scope === "organization" ? "the organization" : `project ${projectName}`;
}

function EditDialog({
  scope,
  projectName,
  v,
  presetName,
  onClose,
}: {
  scope: Scope;
  projectName: string;
  v?: EnvVar;
  presetName?: string;
  onClose: () => void;
}) {
  const qc = useQueryClient();
  const [name, setName] = useState(v?.name ?? presetName ?? "");
  const [value, setValue] = useState(v && !v.isSecret ? v.value : "");
  const [secret, setSecret] = useState(v?.isSecret ?? false);
  const [errors, setErrors] = useState<FieldErrors>({});
  const keepsSecret = v?.isSecret && secret && value === "";
  const m = useMutation({
    mutationFn: () => {
      if (!v) return ok(api.POST("/api/env-vars", { body: { name, value, isSecret: secret, scope } }));
      const body: Record<string, unknown> = { isSecret: secret, value: keepsSecret ? secretMask : value };
      if (name !== v.name) body.name = name;
      return ok(api.PATCH("/api/env-vars/{id}", { params: { path: { id: v.id } }, body }));
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: envVarKeys.all });
      onClose();
    },
    onError: (err) => setErrors(fieldErrors(err, ["name", "value", "isSecret"])),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err: FieldErrors = {};
    if (!envVarNamePattern.test(name) || name.length > 128)
      err.name = "Use capital letters, digits and _, starting with a letter (such as API_URL).";
    if (v?.isSecret && !secret && value === "")
      err.value = "Enter the new value: a secret becomes plain only with a new value.";
    setErrors(err);
    if (Object.keys(err).length === 0) m.mutate();
  };
  const title = v
    ? `Edit ${v.name} of ${scopeWords(scope, projectName)}`
    : `New variable for ${scopeWords(scope, projectName)}`;
  return (
    <Dialog title={title} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field
          id="env-name"
          label="Name"
          value={name}
          autoFocus={!presetName}
          spellCheck={false}
          onChange={setName}
          error={errors.name}
        />
        <div className="field">
          <label htmlFor="env-value">{v?.isSecret ? "New value" : "Value"}</label>
          <input
            id="env-value"
            type={secret ? "password" : "text"}
            autoComplete="off"
            spellCheck={false}
            autoFocus={!!presetName}
            data-autofocus={presetName ? "" : undefined}
            value={value}
            aria-invalid={errors.value ? true : undefined}
            aria-describedby={errors.value ? "env-value-error" : v?.isSecret ? "env-value-hint" : undefined}
            onChange={(e) => setValue(e.target.value)}
          />
          {errors.value ? (
            <p id="env-value-error" className="field-error">
              {errors.value}
            </p>
          ) : (
            v?.isSecret && (
              <p id="env-value-hint" className="muted small">
                The stored secret is never shown. Leave this empty to keep it; type a value to replace it.
              </p>
            )
          )}
        </div>
        <div className="field">
          <label className="checkbox">
            <input type="checkbox" checked={secret} onChange={(e) => setSecret(e.target.checked)} /> Secret (stored
            encrypted, never shown again)
          </label>
          {errors.isSecret && <p className="field-error">{errors.isSecret}</p>}
        </div>
        {errors[""] && <ErrorMessage error={m.error} title="Not saved" />}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={m.isPending}>
            {v ? "Save" : "Create variable"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ v, projectName, onClose }: { v: EnvVar; projectName: string; onClose: () => void }) {
  const qc = useQueryClient();
  const m = useMutation({
    mutationFn: () => ok(api.DELETE("/api/env-vars/{id}", { params: { path: { id: v.id } } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: envVarKeys.all });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Delete ${v.name} of ${scopeWords(v.scope, projectName)}?`}
      action="Delete variable"
      danger
      failure="Not deleted"
      error={m.error}
      pending={m.isPending}
      onConfirm={() => m.mutate()}
      onClose={onClose}
    >
      <p>
        Deployed workflows keep the value they were deployed with; the next deploy of a workflow that reads{" "}
        <code>{v.name}</code> takes{" "}
        {v.scope === "project" ? "the organization's value, if there is one," : "the project's value, if there is one,"}{" "}
        or fails naming the missing variable.
      </p>
    </ConfirmDialog>
  );
}
