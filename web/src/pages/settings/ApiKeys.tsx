import { useMemo, useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import { fieldErrors, validateName, type FieldErrors } from "../../api/forms";
import { apiKeyKeys, apiKeyQueries } from "../../api/queries/apiKeys";
import { useCursorList } from "../../api/queries/cursor";
import { projectQueries } from "../../api/queries/projects";
import { ConfirmDialog, CopyField, DataTable, Field } from "../../app/fields";
import { useSession } from "../../app/session";
import { Dialog, ErrorMessage, formatTime, Loading } from "../../app/ui";
import type { APIKey, Scope } from "../../api/models";
import "./settings.css";

const scopeInfo: { scope: Scope; label: string; hint: string }[] = [
  { scope: "read", label: "read", hint: "list and read workflows, runs and resources" },
  { scope: "write", label: "write", hint: "create and change workflows, variables and connections" },
  { scope: "deploy", label: "deploy", hint: "deploy, take down, run and send events" },
];

const expiryChoices = [
  { value: "never", label: "Never" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In one year" },
  { value: "date", label: "On a date…" },
];

// ApiKeysPage lists the organization's API keys (admins see every key, others their own) and creates and revokes
// them. A new key is shown once, in the dialog that created it, and is kept nowhere else in the browser.
export default function ApiKeysPage() {
  const session = useSession().data!;
  const projects = useQuery(projectQueries.list(session.activeOrganizationId));
  const list = useCursorList(apiKeyQueries.list());
  const keys = useMemo(
    () => [...list.items].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: "base", numeric: true })),
    [list.items],
  );
  const projectName = (id: string | null) =>
    id === null ? "whole organization" : projects.data?.data.find((p) => p.id === id)?.name ?? id;
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<APIKey | null>(null);
  return (
    <main className="page settings">
      <div className="page-head">
        <div>
          <h1>API keys</h1>
          <p className="muted">
            Keys let scripts and CI call the API as you, with at most your role. Send one as{" "}
            <code>Authorization: Bearer ask_…</code>.
          </p>
        </div>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          Create API key
        </button>
      </div>
      {list.isPending && <Loading what="API keys" />}
      <ErrorMessage error={list.error} title="The API keys could not be loaded" />
      {list.isSuccess && keys.length === 0 && (
        <div className="empty">
          <p>There are no API keys yet.</p>
        </div>
      )}
      {keys.length > 0 && (
        <DataTable columns={["Name", "Prefix", "Scopes", "Project", "Last used", "Expires"]} actions>
          {keys.map((k) => {
            const expired = k.expiresAt !== null && new Date(k.expiresAt).getTime() <= Date.now();
            return (
              <tr key={k.id} className={k.revokedAt ? "revoked" : undefined}>
                <td className="strong">{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{k.scopes.join(", ")}</td>
                <td>{projectName(k.projectId)}</td>
                <td className="small">{k.lastUsedAt ? formatTime(k.lastUsedAt) : <span className="muted">never</span>}</td>
                <td className="small">{k.expiresAt ? formatTime(k.expiresAt) : <span className="muted">never</span>}</td>
                <td className="row-actions">
                  {k.revokedAt ? (
                    <span className="badge">revoked {formatTime(k.revokedAt)}</span>
                  ) : expired ? (
                    <span className="badge">expired</span>
                  ) : (
                    <button type="button" className="danger" onClick={() => setRevoking(k)} aria-label={`Revoke ${k.name}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </DataTable>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          Load more
        </button>
      )}
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
      {revoking && <RevokeDialog k={revoking} onClose={() => setRevoking(null)} />}
    </main>
  );
}

function expiresAt(choice: string, date: string): string | null {
  if (choice === "never") return null;
  if (choice === "date") return new Date(`${date}T23:59:59`).toISOString();
  return new Date(Date.now() + Number(choice) * 86_400_000).toISOString();
}

// CreateDialog creates a key and shows it once. The key lives only in this dialog's state: it is not put in the
// query cache (the request is sent directly, not through a cached mutation) and is gone when the dialog closes.
function CreateDialog({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const session = useSession().data!;
  const projects = useQuery(projectQueries.list(session.activeOrganizationId));
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<Scope[]>(["read"]);
  const [project, setProject] = useState(session.activeProjectId);
  const [expiry, setExpiry] = useState("90");
  const [date, setDate] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const role = session.organizations.find((o) => o.id === session.activeOrganizationId)?.role;
  const mayOrgKey = role === "owner" || role === "admin";

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const err: FieldErrors = {};
    const n = validateName(name);
    if (n) err.name = n;
    if (!scopes.includes("read")) err.scopes = "Every key needs read.";
    if (expiry === "date") {
      if (date === "") err.expiresAt = "Choose the day the key stops working.";
      else if (new Date(`${date}T23:59:59`).getTime() <= Date.now()) err.expiresAt = "Choose a day in the future.";
    }
    setErrors(err);
    setFailure(null);
    if (Object.keys(err).length > 0) return;
    setPending(true);
    try {
      const body: Record<string, unknown> = { name: name.trim(), scopes, expiresAt: expiresAt(expiry, date) };
      if (project !== "") body.projectId = project;
      const answer = await ok(api.POST("/api/api-keys", { body }));
      setCreated({ name: answer.name, key: answer.key });
      void qc.invalidateQueries({ queryKey: apiKeyKeys.all });
    } catch (er) {
      setErrors(fieldErrors(er, ["name", "scopes", "projectId", "expiresAt"]));
      setFailure(er);
    } finally {
      setPending(false);
    }
  };

  if (created)
    return (
      <Dialog title={`API key ${created.name}`} onClose={onClose}>
        <p>
          <strong>Copy the key now.</strong> It is shown only this once: edgeflow stores only its hash, and it is gone
          when this dialog closes.
        </p>
        <CopyField id="new-key" label="Key" value={created.key} what="key" />
        <div className="actions">
          <button type="button" onClick={onClose}>
            Done
          </button>
        </div>
      </Dialog>
    );
  return (
    <Dialog title="Create API key" onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field id="key-name" label="Name" value={name} autoFocus placeholder="CI deploys" onChange={setName} error={errors.name} />
        <fieldset className="field choice" aria-describedby={errors.scopes ? "key-scopes-error" : undefined}>
          <legend>Scopes</legend>
          {scopeInfo.map((s) => (
            <label key={s.scope} className="checkbox">
              <input
                type="checkbox"
                checked={scopes.includes(s.scope)}
                onChange={(e) =>
                  setScopes((l) => (e.target.checked ? [...l, s.scope] : l.filter((x) => x !== s.scope)))
                }
              />{" "}
              {s.label} <span className="muted small">— {s.hint}</span>
            </label>
          ))}
          {errors.scopes && (
            <p id="key-scopes-error" className="field-error">
              {errors.scopes}
            </p>
          )}
        </fieldset>
        <div className="field">
          <label htmlFor="key-project">Project</label>
          <select
            id="key-project"
            value={project}
            aria-invalid={errors.projectId ? true : undefined}
            aria-describedby={errors.projectId ? "key-project-error" : "key-project-hint"}
            onChange={(e) => setProject(e.target.value)}
          >
            {!projects.data && <option value={session.activeProjectId}>Loading…</option>}
            {projects.data?.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            {mayOrgKey && <option value="">Whole organization</option>}
          </select>
          {errors.projectId ? (
            <p id="key-project-error" className="field-error">
              {errors.projectId}
            </p>
          ) : (
            <p id="key-project-hint" className="muted small">
              A project key reaches only that project. An organization key (owners and admins) acts in the project its
              X-Edgeflow-Project header names.
            </p>
          )}
        </div>
        <div className="field">
          <label htmlFor="key-expiry">Expires</label>
          <select id="key-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {expiryChoices.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        {expiry === "date" && (
          <div className="field">
            <label htmlFor="key-date">Expiry date</label>
            <input
              id="key-date"
              type="date"
              value={date}
              aria-invalid={errors.expiresAt ? true : undefined}
              aria-describedby={errors.expiresAt ? "key-date-error" : undefined}
              onChange={(e) => setDate(e.target.value)}
            />
          </div>
        )}
        {errors.expiresAt && (
          <p id="key-date-error" className="field-error">
            {errors.expiresAt}
          </p>
        )}
        {errors[""] && <ErrorMessage error={failure} title="Not created" />}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={pending}>
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function RevokeDialog({ k, onClose }: { k: APIKey; onClose: () => void }) {
  const qc = useQueryClient();
  const m = useMutation({
    mutationFn: () => ok(api.DELETE("/api/api-keys/{id}", { params: { path: { id: k.id } } })),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: apiKeyKeys.all });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Revoke ${k.name}?`}
      action="Revoke key"
      danger
      failure="Not revoked"
      error={m.error}
      pending={m.isPending}
      onConfirm={() => m.mutate()}
      onClose={onClose}
    >
      <p>
        Requests with the key <code>{k.prefix}…</code> are refused from now on. This cannot be undone; create a new key
        if it is needed again.
      </p>
    </ConfirmDialog>
  );
}
