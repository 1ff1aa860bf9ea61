import { cleanup, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { NO_FILTERS } from "./filters";
import { UsageSummary } from "./UsageSummary";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// answer stubs GET /api/runs/usage with the body, recording the query strings asked for.
function answer(body: unknown): string[] {
  const asked: string[] = [];
  vi.stubGlobal("fetch", async (input: string | Request) => {
    const url = new URL(typeof input === "string" ? input : input.url, "http://studio");
    if (!url.pathname.endsWith("/api/runs/usage")) return new Response("{}", { status: 404 });
    asked.push(url.search);
    return new Response(JSON.stringify(body), { headers: { "Content-Type": "application/json" } });
  });
  return asked;
}

function show(filters = NO_FILTERS) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <UsageSummary filters={filters} />
    </QueryClientProvider>,
  );
}

describe("the runs' token usage", () => {
  it("sums the filtered runs' tokens, and each workflow's", async () => {
    const asked = answer({
      inputTokens: 15230,
      outputTokens: 3120,
      runs: 41,
      partial: false,
      workflows: [
        { workflowId: "wf_a", workflowName: "Support triage", inputTokens: 15000, outputTokens: 3000, runs: 40 },
        { workflowId: "wf_b", workflowName: "Summaries", inputTokens: 230, outputTokens: 120, runs: 1 },
      ],
    });
    show({ ...NO_FILTERS, status: "complete", q: "refund" });
    const region = await screen.findByRole("region", { name: "Token usage" });
    expect(region.textContent).toContain("15,230 in, 3,120 out across 41 runs with model calls.");
    expect(screen.getByRole("link", { name: "Support triage" }).getAttribute("href")).toBe("/workflows/wf_a");
    expect(region.textContent).toContain("Summaries: 230 in, 120 out (1 run)");
    expect(asked).toEqual(["?status=complete&q=refund"]);
  });

  it("says when the sums cover only the newest runs", async () => {
    answer({ inputTokens: 5, outputTokens: 1, runs: 100000, partial: true, workflows: [] });
    show();
    expect((await screen.findByRole("region", { name: "Token usage" })).textContent).toContain(
      "(the newest 100,000 of them)",
    );
  });

  it("shows nothing when no selected run made a model call", async () => {
    const asked = answer({ inputTokens: 0, outputTokens: 0, runs: 0, partial: false, workflows: [] });
    const { container } = show();
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    expect(container.textContent).toBe("");
  });
});
