import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Choice } from "./bulk";
import { BulkBar } from "./BulkBar";
import { NO_FILTERS } from "./filters";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

interface Call {
  method: string;
  path: string;
  body: unknown;
}

// serve stubs the bulk API: a dry run matching two runs, a job whose reads answer jobs() in turn (the last one
// again), and a cancel; it records every call.
function serve(jobs: { state: string; done: number }[]): Call[] {
  const calls: Call[] = [];
  let read = 0;
  const job = (j: { state: string; done: number }) => ({
    id: "bulk_1",
    action: "restart",
    filter: {},
    projectId: "prj_1",
    matched: 2,
    failed: [],
    failedCount: 0,
    createdAt: "2026-12-06T10:00:00Z",
    updatedAt: "2026-12-06T10:00:00Z",
    endedAt: null,
    ...j,
  });
  vi.stubGlobal("fetch", async (req: Request) => {
    const url = new URL(req.url);
    const text = await req.text();
    calls.push({ method: req.method, path: url.pathname, body: text ? JSON.parse(text) : undefined });
    const json = (v: unknown, status = 200) =>
      new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json" } });
    if (req.method === "POST" && url.pathname === "/api/runs/bulk") {
      return JSON.parse(text).dryRun
        ? json({ matched: 2, dryRun: true, runIds: ["run_a", "run_b"] }, 202)
        : json({ id: "bulk_1", matched: 2 }, 202);
    }
    if (req.method === "GET" && url.pathname === "/api/runs/bulk/bulk_1") {
      return json(job(jobs[Math.min(read++, jobs.length - 1)]!));
    }
    if (req.method === "DELETE" && url.pathname === "/api/runs/bulk/bulk_1")
      return json(job({ state: "cancelled", done: 0 }));
    return json({ error: "no", code: "not_found" }, 404);
  });
  return calls;
}

function show(choice: Choice) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <BulkBar filters={{ ...NO_FILTERS, status: "errored" }} choice={choice} onChoice={() => undefined} />
    </QueryClientProvider>,
  );
}

describe("bulk actions on runs", () => {
  beforeAll(() => {
    // jsdom has no modal dialogs: opening one marks it open, closing it closed
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.open = false;
    };
  });

  it("counts the ticked runs with a dry run, then follows the job until it is done", async () => {
    const calls = serve([
      { state: "running", done: 1 },
      { state: "complete", done: 2 },
    ]);
    show({ kind: "ticked", ids: ["run_a", "run_b"] });
    fireEvent.change(screen.getByLabelText("Starting step (optional)"), { target: { value: "check" } });
    fireEvent.change(screen.getByLabelText("Code to run"), { target: { value: "current" } });
    fireEvent.click(screen.getByRole("button", { name: "Restart 2 runs selected…" }));
    const confirm = await screen.findByRole("button", { name: "Restart 2 runs" });
    expect(screen.getByText("They are: run_a, run_b")).toBeTruthy();
    expect(calls).toEqual([
      {
        method: "POST",
        path: "/api/runs/bulk",
        body: {
          action: "restart",
          filter: { runIds: ["run_a", "run_b"] },
          fromStep: "check",
          version: "current",
          dryRun: true,
        },
      },
    ]);
    fireEvent.click(confirm);
    expect(await screen.findByText("Done: 2 of 2 runs done.")).toBeTruthy();
    expect(calls[1]).toEqual({
      method: "POST",
      path: "/api/runs/bulk",
      body: { action: "restart", filter: { runIds: ["run_a", "run_b"] }, fromStep: "check", version: "current" },
    });
    expect((screen.getByRole("progressbar", { name: "Restart progress" }) as HTMLProgressElement).value).toBe(2);
    expect(screen.queryByRole("button", { name: "Cancel job" })).toBeNull();
  });

  it("acts on all runs matching the filters, and cancels the job", async () => {
    const calls = serve([{ state: "running", done: 0 }]);
    show({ kind: "matching" });
    fireEvent.change(screen.getByLabelText("Action"), { target: { value: "terminate" } });
    fireEvent.click(screen.getByRole("button", { name: "Terminate all runs matching the filters…" }));
    fireEvent.click(await screen.findByRole("button", { name: "Terminate 2 runs" }));
    expect(await screen.findByText("0 of 2 runs done…")).toBeTruthy();
    expect(calls[1]?.body).toEqual({ action: "terminate", filter: { status: "errored" } });
    fireEvent.click(screen.getByRole("button", { name: "Cancel job" }));
    expect(await screen.findByText("Cancelled: 0 of 2 runs done; the others were left alone.")).toBeTruthy();
    expect(calls.some((c) => c.method === "DELETE" && c.path === "/api/runs/bulk/bulk_1")).toBe(true);
  });
});
