import { useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api, ok } from "../api/client";
import { fieldErrors, validateName, type FieldErrors } from "../api/forms";
import { projectKeys, projectQueries } from "../api/queries/projects";
import type { Project, SignedIn } from "../api/models";
import { Field } from "../app/fields";
import { Link } from "../app/Link";
import { mayLeave } from "../app/leave";
import { useSetSession } from "../app/session";
import { setThemeChoice, parseChoice, THEME_CHOICES, useThemeChoice } from "../app/theme";
import { Dialog, ErrorMessage } from "../app/ui";

// The main navigation: the daily screens in the bar, the organization's settings in one menu.
const MAIN_LINKS: [string, string][] = [
  ["/", "Workflows"],
  ["/runs", "Runs"],
  ["/events", "Events"],
  ["/resources", "Resources"],
  ["/marketplace", "Marketplace"],
];
const SETTINGS_LINKS: [string, string][] = [
  ["/connections", "Connections"],
  ["/env-vars", "Variables"],
  ["/webhooks", "Webhooks"],
  ["/api-keys", "API keys"],
  ["/connect-assistant", "Connect an assistant"],
  ["/team", "Team"],
  ["/audit", "Audit log"],
];

// isCurrent tells whether the page at path belongs to the nav entry href (a workflow's pages belong to Workflows).
function isCurrent(href: string, path: string): boolean {
  if (href === "/") return path === "/" || path.startsWith("/workflows");
  return path === href || path.startsWith(`${href}/`);
}

// MainNav is the top bar's navigation. The Settings button opens a menu of the settings screens (a disclosure:
// Escape or a click elsewhere closes it, focus goes back to the button); the current screen is marked for screen
// readers (aria-current) and by style.
function MainNav() {
  const [path] = useLocation();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => setOpen(false), [path]);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);
  const inSettings = SETTINGS_LINKS.some(([href]) => isCurrent(href, path));
  return (
    <nav aria-label="Main" className="main-nav">
      {MAIN_LINKS.map(([href, label]) => (
        <Link key={href} href={href} aria-current={isCurrent(href, path) ? "page" : undefined}>
          {label}
        </Link>
      ))}
      <div className="nav-menu" ref={box}>
        <button
          ref={button}
          type="button"
          className={inSettings ? "nav-menu-button current" : "nav-menu-button"}
          aria-expanded={open}
          aria-controls="settings-menu"
          onClick={() => setOpen((o) => !o)}
        >
          Settings <span aria-hidden="true">▾</span>
        </button>
        <ul id="settings-menu" className="nav-menu-list" hidden={!open}>
          {SETTINGS_LINKS.map(([href, label]) => (
            <li key={href}>
              <Link
                href={href}
                aria-current={isCurrent(href, path) ? "page" : undefined}
                onClick={() => setOpen(false)}
              >
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}

// ThemeSelect chooses Studio's colour theme: System (the operating system's setting), Light or Dark (app/theme.ts).
function ThemeSelect() {
  const choice = useThemeChoice();
  return (
    <span className="theme-select">
      <label htmlFor="theme-select">Theme</label>
      <select id="theme-select" value={choice} onChange={(e) => setThemeChoice(parseChoice(e.target.value))}>
        {THEME_CHOICES.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </span>
  );
}

// Shell is the frame of every signed-in page: the top bar with the organization and project switcher, the user,
// the theme and Sign out.
export function Shell({ session, children }: { session: SignedIn; children: ReactNode }) {
  const qc = useQueryClient();
  const setSession = useSetSession();
  const [, navigate] = useLocation();
  const projects = useQuery(projectQueries.list(session.activeOrganizationId));
  const [creating, setCreating] = useState(false);
  const switchTo = useMutation({
    mutationFn: (b: { organizationId: string; projectId?: string }) => ok(api.PUT("/api/session/active", { body: b })),
    onSuccess: (s) => {
      setSession(s);
      navigate("/");
    },
  });
  const signOut = useMutation({
    mutationFn: () => ok(api.POST("/api/auth/sign-out")),
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
        <MainNav />
        <div className="user">
          <span title={session.user.email}>
            {session.user.name}
            {activeOrg ? <span className="muted"> · {activeOrg.role}</span> : null}
          </span>
          <ThemeSelect />
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
            void qc.invalidateQueries({ queryKey: projectKeys.all });
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
    mutationFn: () => ok(api.POST("/api/projects", { body: { name: name.trim() } })),
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
        <Field id="project-name" label="Name" value={name} autoFocus onChange={setName} error={errors.name} />
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
