import { useState, type FormEvent, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api } from "../api/client";
import { fieldErrors, validateName, type FieldErrors } from "../api/forms";
import type { Page, Project, Session } from "../api/types";
import { Link } from "../app/Link";
import { mayLeave } from "../app/leave";
import { useSetSession } from "../app/session";
import { Dialog, ErrorMessage } from "../app/ui";

export function useProjects(session: Session) {
  return useQuery({
    queryKey: ["projects", session.activeOrganizationId],
    queryFn: () => api.get<Page<Project>>("/api/projects?limit=100"),
  });
}

// Shell is the frame of every signed-in page: the top bar with the organization and project switcher, the user
// and Sign out.
export function Shell({ session, children }: { session: Session; children: ReactNode }) {
  const qc = useQueryClient();
  const setSession = useSetSession();
  const [, navigate] = useLocation();
  const projects = useProjects(session);
  const [creating, setCreating] = useState(false);
  const switchTo = useMutation({
    mutationFn: (b: { organizationId: string; projectId?: string }) => api.put<Session>("/api/session/active", b),
    onSuccess: (s) => {
      setSession(s);
      navigate("/");
    },
  });
  const signOut = useMutation({
    mutationFn: () => api.post<void>("/api/auth/sign-out"),
    onSuccess: () => {
      qc.clear();
      setSession(null);
      navigate("/sign-in");
    },
  });
  const activeOrg = session.organizations.find((o) => o.id === session.activeOrganizationId);
  return (
    <div className="shell">
      <header className="topbar">
        <Link href="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{" "}
          edgeflow Studio
        </Link>
        <div className="switcher">
          <label htmlFor="org-switch">Organization</label>
          <select
            id="org-switch"
            value={session.activeOrganizationId}
            disabled={switchTo.isPending}
            onChange={(e) => mayLeave() && switchTo.mutate({ organizationId: e.target.value })}
          >
            {session.organizations.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name}
              </option>
            ))}
          </select>
          <label htmlFor="project-switch">Project</label>
          <select
            id="project-switch"
            value={session.activeProjectId}
            disabled={switchTo.isPending || !projects.data}
            onChange={(e) =>
              mayLeave() && switchTo.mutate({ organizationId: session.activeOrganizationId, projectId: e.target.value })
            }
          >
            {!projects.data && <option value={session.activeProjectId}>Loading…</option>}
            {projects.data?.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
          <button type="button" onClick={() => setCreating(true)}>
            New project
          </button>
        </div>
        <nav aria-label="Main">
          <Link href="/">Workflows</Link>
          <Link href="/runs">Runs</Link>
          <Link href="/webhooks">Webhooks</Link>
          <Link href="/connections">Connections</Link>
          <Link href="/resources">Resources</Link>
          <Link href="/env-vars">Variables</Link>
          <Link href="/api-keys">API keys</Link>
          <Link href="/team">Team</Link>
          <Link href="/audit">Audit log</Link>
        </nav>
        <div className="user">
          <span title={session.user.email}>
            {session.user.name}
            {activeOrg ? <span className="muted"> · {activeOrg.role}</span> : null}
          </span>
          <button type="button" onClick={() => mayLeave() && signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
        </div>
      </header>
      {(switchTo.error || signOut.error || projects.error) && (
        <div className="page">
          <ErrorMessage error={switchTo.error ?? signOut.error ?? projects.error} />
        </div>
      )}
      {children}
      {creating && (
        <NewProjectDialog
          onClose={() => setCreating(false)}
          onCreated={(p) => {
            setCreating(false);
            void qc.invalidateQueries({ queryKey: ["projects"] });
            switchTo.mutate({ organizationId: p.organizationId, projectId: p.id });
          }}
        />
      )}
    </div>
  );
}

function NewProjectDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (p: Project) => void }) {
  const [name, setName] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const m = useMutation({
    mutationFn: () => api.post<Project>("/api/projects", { name: name.trim() }),
    onSuccess: onCreated,
    onError: (err) => setErrors(fieldErrors(err, ["name"])),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err = validateName(name);
    setErrors(err ? { name: err } : {});
    if (!err) m.mutate();
  };
  return (
    <Dialog title="New project" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="project-name">Name</label>
          <input
            id="project-name"
            value={name}
            autoFocus
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={errors.name ? "project-name-error" : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          {errors.name && (
            <p id="project-name-error" className="field-error">
              {errors.name}
            </p>
          )}
        </div>
        {errors[""] && <ErrorMessage error={m.error} />}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={m.isPending}>
            Create project
          </button>
        </div>
      </form>
    </Dialog>
  );
}
