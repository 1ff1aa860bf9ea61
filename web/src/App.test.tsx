import { cleanup, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { App } from "./App";
import { setCsrfToken } from "./api/client";
import { signUpNote } from "./pages/Auth";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setCsrfToken("");
});

const session = {
  user: { id: "usr_1", email: "ada@example.com", name: "Ada", createdAt: "2026-11-27T06:40:12Z" },
  organizations: [{ id: "org_1", name: "Ada's org", slug: "ada", role: "owner", createdAt: "2026-11-27T06:40:12Z" }],
  activeOrganizationId: "org_1",
  activeProjectId: "prj_1",
  csrfToken: "tok",
  expiresAt: "2026-12-27T06:40:12Z",
};

function serve(routes: Record<string, () => Response>) {
  const calls: string[] = [];
  vi.stubGlobal("fetch", async (input: string | Request) => {
    const url = typeof input === "string" ? input : input.url;
    calls.push(url);
    const path = new URL(url, "http://localhost").pathname;
    const h = routes[path];
    if (h) return h();
    return new Response(JSON.stringify({ data: [], nextCursor: null }), { status: 200 });
  });
  return calls;
}

function renderAt(path: string) {
  window.history.replaceState(null, "", path);
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <App />
    </QueryClientProvider>,
  );
}

describe("route guard", () => {
  it("sends a signed-out visit of a private URL to sign-in, remembering it", async () => {
    serve({
      "/api/auth/session": () =>
        new Response(JSON.stringify({ error: "no session", code: "unauthorized", details: [] }), { status: 401 }),
    });
    renderAt("/workflows/wf_1/versions");
    expect(await screen.findByRole("heading", { name: "Sign in" })).toBeTruthy();
    expect(window.location.pathname).toBe("/sign-in");
    expect(new URLSearchParams(window.location.search).get("next")).toBe("/workflows/wf_1/versions");
    expect(screen.getByLabelText("Email")).toBeTruthy();
    expect(screen.getByLabelText("Password")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign in" })).toBeTruthy();
  });

  it("sends a signed-in visit of sign-in on to the remembered page", async () => {
    serve({ "/api/auth/session": () => new Response(JSON.stringify(session), { status: 200 }) });
    renderAt("/sign-in?next=%2F");
    expect(await screen.findByRole("heading", { name: "Workflows and functions" })).toBeTruthy();
    expect(window.location.pathname).toBe("/");
    expect(screen.getByRole("button", { name: "New workflow" })).toBeTruthy();
    expect(await screen.findByText(/This project has no workflows yet/)).toBeTruthy();
  });

  it("shows the server's error instead of a blank page when the session cannot be read", async () => {
    serve({
      "/api/auth/session": () =>
        new Response(JSON.stringify({ error: "database unavailable", code: "unavailable", details: [] }), {
          status: 503,
        }),
    });
    renderAt("/");
    expect(await screen.findByRole("alert")).toBeTruthy();
    expect(screen.getByText(/database unavailable/)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});

describe("setup and invitation links", () => {
  const signedOut = () =>
    new Response(JSON.stringify({ error: "no session", code: "unauthorized", details: [] }), { status: 401 });

  it("shows the owner account form for a setup link, with the optional organization name", async () => {
    serve({ "/api/auth/session": signedOut });
    renderAt("/setup?token=setup_abc");
    expect(await screen.findByRole("heading", { name: "Create the owner account" })).toBeTruthy();
    expect(screen.getByLabelText("Name")).toBeTruthy();
    expect(screen.getByLabelText("Organization name (optional)")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Create account" })).toBeTruthy();
    expect(document.title).toBe("Create the owner account · edgeflow Studio");
  });

  it("says before the sign-up form that a new server's first account comes from the setup link", async () => {
    serve({
      "/api/auth/session": signedOut,
      "/api/auth/sign-up": () => new Response(JSON.stringify({ mode: "invite", firstUser: true }), { status: 200 }),
    });
    renderAt("/sign-up");
    const note = await screen.findByRole("note");
    expect(note.textContent).toContain("This server has no account yet");
    expect(note.textContent).toContain("edgeflow serve");
    const name = screen.getByLabelText("Name");
    expect(note.compareDocumentPosition(name) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("words the sign-up note after the server's mode", () => {
    expect(signUpNote({ mode: "open", firstUser: true })).toContain("organization and a project of your own");
    expect(signUpNote({ mode: "invite", firstUser: false })).toContain("by invitation");
    expect(signUpNote({ mode: "closed", firstUser: false })).toContain("closed");
    expect(signUpNote({ mode: "closed", firstUser: true })).toContain("setup link");
    expect(signUpNote(undefined)).toContain("organization and a project");
  });

  it("says what is missing when the setup link has no token", async () => {
    serve({ "/api/auth/session": signedOut });
    renderAt("/setup");
    expect(await screen.findByRole("alert")).toBeTruthy();
    expect(screen.getByRole("alert").textContent).toContain("edgeflow admin setup-link");
    expect(screen.queryByRole("button", { name: "Create account" })).toBeNull();
  });

  it("offers sign-up and sign-in to a signed-out visit of an invitation", async () => {
    serve({ "/api/auth/session": signedOut });
    renderAt("/invite?token=inv_abc");
    expect(await screen.findByText("You were invited to an organization on edgeflow.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign up and join" })).toBeTruthy();
    const link = screen.getByRole("link", { name: "Sign in to accept" });
    expect(link.getAttribute("href")).toBe(`/sign-in?next=${encodeURIComponent("/invite?token=inv_abc")}`);
    expect(window.location.pathname).toBe("/invite");
  });

  it("offers to accept an invitation to a signed-in visit", async () => {
    serve({ "/api/auth/session": () => new Response(JSON.stringify(session), { status: 200 }) });
    renderAt("/invite?token=inv_abc");
    expect(await screen.findByRole("button", { name: "Accept invitation" })).toBeTruthy();
    expect(screen.getByText(/ada@example\.com/)).toBeTruthy();
  });
});
