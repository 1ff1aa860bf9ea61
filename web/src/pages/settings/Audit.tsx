import { useMemo, useState, type FormEvent } from "react";
import { useQuery } from "@tanstack/react-query";
import { fieldErrors } from "../../api/forms";
import { apiKeyQueries } from "../../api/queries/apiKeys";
import { auditQueries } from "../../api/queries/audit";
import { useCursorList } from "../../api/queries/cursor";
import { organizationQueries } from "../../api/queries/organizations";
import { DataTable } from "../../app/fields";
import { useSession } from "../../app/session";
import { ErrorMessage, formatTime, Loading } from "../../app/ui";
import type { AuditEntry } from "../../api/models";
import "./settings.css";

// The actions the API records (docs/api.md, the route table's Audit names), offered as suggestions.
const knownActions = [
  "api_key.create", "api_key.revoke", "connection.create", "connection.delete", "connection.update", "env_var.create",
  "env_var.delete", "env_var.update", "function.invoke", "invitation.accept", "invitation.create", "invitation.revoke",
  "member.remove", "member.role_change", "node.install", "node.uninstall", "node.update", "organization.create",
  "organization.delete", "organization.transfer_ownership", "organization.update", "project.create", "project.delete",
  "project.update", "run.pause", "run.restart", "run.resume", "run.terminate", "session.revoke", "session.sign_in",
  "session.sign_out", "session.switch", "user.password_change", "user.sign_up", "version.create", "version.delete",
  "version.revert", "version.update", "workflow.create", "workflow.delete", "workflow.deploy", "workflow.move",
  "workflow.takedown", "workflow.trigger", "workflow.update",
];

export interface Filters {
  actor: string;
  action: string;
  target: string;
  since: string;
  until: string;
}

export const noFilters: Filters = { actor: "", action: "", target: "", since: "", until: "" };

// auditPath is the GET /api/audit request of the filters.
export function auditPath(f: Filters): string {
  const s = auditSearch(f);
  return s ? `/api/audit?${s}` : "/api/audit";
}

// auditSearch is the query string of the filters (without page and cursor), "" for none.
export function auditSearch(f: Filters): string {
  const q = new URLSearchParams();
  if (f.actor) q.set("actor", f.actor);
  if (f.action.trim()) q.set("action", f.action.trim());
  if (f.target.trim()) q.set("target", f.target.trim());
  // datetime-local values are the browser's local time; the API takes RFC 3339
  if (f.since) q.set("since", new Date(f.since).toISOString());
  if (f.until) q.set("until", new Date(f.until).toISOString());
  return q.toString();
}

// AuditPage lists the organization's audit log, newest first, each entry's actor by email, with filters (owners
// and admins; the API refuses everyone else).
export default function AuditPage() {
  const session = useSession().data!;
  const orgId = session.activeOrganizationId;
  const role = session.organizations.find((o) => o.id === orgId)?.role;
  const mayRead = role === "owner" || role === "admin";
  return (
    <main className="page settings">
      <div className="page-head">
        <div>
          <h1>Audit log</h1>
          <p className="muted">
            Every change made in the organization, allowed or refused, with who made it and the answer it got. Request
            bodies are never recorded.
          </p>
        </div>
      </div>
      {mayRead ? (
        <AuditList orgId={orgId} />
      ) : (
        <p className="empty">Only owners and admins of the organization can read its audit log. You are a {role}.</p>
      )}
    </main>
  );
}

function AuditList({ orgId }: { orgId: string }) {
  const [draft, setDraft] = useState<Filters>(noFilters);
  const [applied, setApplied] = useState<Filters>(noFilters);
  const members = useQuery(organizationQueries.firstMembers(orgId));
  const keys = useQuery(apiKeyQueries.firstPage());
  const list = useCursorList(auditQueries.list(orgId, auditSearch(applied)));
  const errors = list.error ? fieldErrors(list.error, ["?actor", "?action", "?target", "?since", "?until"]) : {};
  const emails = useMemo(() => new Map((members.data?.data ?? []).map((m) => [m.userId, m.email])), [members.data]);
  const keyNames = useMemo(() => new Map((keys.data?.data ?? []).map((k) => [k.id, k])), [keys.data]);
  const actor = (a: AuditEntry["actor"]) => {
    if (a.type === "user") return emails.get(a.id) ?? `former member ${a.id}`;
    const k = keyNames.get(a.id);
    return k ? `API key ${k.name} (${emails.get(k.userId) ?? k.userId})` : `API key ${a.id}`;
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setApplied(draft);
  };
  const set = (k: keyof Filters) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [k]: e.target.value }));
  const fieldError = (k: string) =>
    errors[`?${k}`] && (
      <p id={`audit-${k}-error`} className="field-error">
        {errors[`?${k}`]}
      </p>
    );
  return (
    <>
      <form className="audit-filters" onSubmit={submit} aria-label="Filters">
        <div className="field">
          <label htmlFor="audit-actor">Actor</label>
          <select id="audit-actor" value={draft.actor} onChange={set("actor")}>
            <option value="">Anyone</option>
            {(members.data?.data ?? []).map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.email}
              </option>
            ))}
            {(keys.data?.data ?? []).map((k) => (
              <option key={k.id} value={k.id}>
                API key {k.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="audit-action">Action</label>
          <input id="audit-action" list="audit-actions" value={draft.action} onChange={set("action")} placeholder="workflow.deploy" />
          <datalist id="audit-actions">
            {knownActions.map((a) => (
              <option key={a} value={a} />
            ))}
          </datalist>
          {fieldError("action")}
        </div>
        <div className="field">
          <label htmlFor="audit-target">Target id</label>
          <input id="audit-target" value={draft.target} onChange={set("target")} placeholder="wf_…" />
          {fieldError("target")}
        </div>
        <div className="field">
          <label htmlFor="audit-since">From</label>
          <input
            id="audit-since"
            type="datetime-local"
            value={draft.since}
            onChange={set("since")}
            aria-invalid={errors["?since"] ? true : undefined}
            aria-describedby={errors["?since"] ? "audit-since-error" : undefined}
          />
          {fieldError("since")}
        </div>
        <div className="field">
          <label htmlFor="audit-until">Until</label>
          <input
            id="audit-until"
            type="datetime-local"
            value={draft.until}
            onChange={set("until")}
            aria-invalid={errors["?until"] ? true : undefined}
            aria-describedby={errors["?until"] ? "audit-until-error" : undefined}
          />
          {fieldError("until")}
        </div>
        <div className="field buttons">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(noFilters);
              setApplied(noFilters);
            }}
          >
            Clear
          </button>
        </div>
      </form>
      {list.isPending && <Loading what="the audit log" />}
      {list.error && errors[""] !== undefined && <ErrorMessage error={list.error} title="The audit log could not be loaded" />}
      {list.isSuccess && list.items.length === 0 && <p className="empty">No entries match.</p>}
      {list.items.length > 0 && (
        <DataTable columns={["Time", "Actor", "Action", "Target", "Outcome", "Request"]}>
          {list.items.map((e) => (
            <tr key={e.id}>
              <td className="small">{formatTime(e.time)}</td>
              <td>{actor(e.actor)}</td>
              <td>
                <code>{e.action}</code>
              </td>
              <td className="small">
                {e.target.id ? (
                  <>
                    {e.target.type} <code>{e.target.id}</code>
                  </>
                ) : (
                  <span className="muted">—</span>
                )}
              </td>
              <td>
                <span className={e.outcome < 400 ? "badge status-complete" : "badge status-errored"}>{e.outcome}</span>
              </td>
              <td className="small">
                <code>{e.requestId}</code>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          Load more
        </button>
      )}
    </>
  );
}
