import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Run, RunStep, VersionDetail as Version } from "../../api/models";
import { ReplayPanel } from "./ReplayPanel";
import { RestartPanel } from "./RestartPanel";
import { StepOutputDialog, stepOutputURL } from "./StepOutputDialog";
import { TraceLink } from "./TraceLink";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function wrap(ui: ReactNode) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={qc}>{ui}</QueryClientProvider>);
}

// serve answers each request by its URL (path and query) and records it with its method and body; requests come as
// a URL with options (fetch by hand) or as a Request (the typed API client).
function serve(answer: (url: string) => Response) {
  const calls: string[] = [];
  vi.stubGlobal("fetch", async (input: string | Request, init?: RequestInit) => {
    let url = typeof input === "string" ? input : input.url;
    const method = typeof input === "string" ? (init?.method ?? "GET") : input.method;
    const body = typeof input === "string" ? (init?.body ? String(init.body) : "") : await input.text();
    if (url.startsWith("http")) {
      const u = new URL(url);
      url = u.pathname + u.search;
    }
    calls.push(`${method} ${url}${body ? ` ${body}` : ""}`);
    return answer(url);
  });
  return calls;
}

const json = (v: unknown, status = 200) =>
  new Response(JSON.stringify(v), { status, headers: { "Content-Type": "application/json" } });

const charge: RunStep = {
  nodeId: "charge",
  name: "Charge card",
  type: "step",
  state: "complete",
  attempts: 2,
  startedAt: null,
  endedAt: null,
  error: null,
  output: null,
  outputTruncated: false,
};
const base = "/api/workflows/wf_1/runs/run_1/steps/charge/output";

describe("StepOutputDialog", () => {
  beforeAll(() => {
    // jsdom has no modal dialogs: opening one marks it open, closing it closed
    HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
      this.open = true;
    };
    HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
      this.open = false;
    };
  });

  it("reads the step's full output, then one attempt with its error", async () => {
    const calls = serve((url) =>
      url.endsWith("?attempt=1")
        ? json({
            runId: "run_1",
            nodeId: "charge",
            name: "Charge card",
            attempt: 1,
            state: "errored",
            error: { name: "Error", message: "card declined" },
            output: null,
            source: "provider",
          })
        : json({
            runId: "run_1",
            nodeId: "charge",
            name: "Charge card",
            state: "complete",
            output: { id: "ch_1" },
            source: "provider",
          }),
    );
    wrap(<StepOutputDialog workflowId="wf_1" runId="run_1" step={charge} onClose={() => {}} />);
    expect((await screen.findByLabelText("Full output of Charge card")).textContent).toContain('"ch_1"');
    fireEvent.change(screen.getByLabelText("Attempt"), { target: { value: "1" } });
    expect(await screen.findByText("card declined")).toBeTruthy();
    expect(calls).toEqual([`GET ${base}`, `GET ${base}?attempt=1`]);
  });

  it("shows a sensitive output as the provider keeps it: [REDACTED]", async () => {
    serve(() =>
      json({
        runId: "run_1",
        nodeId: "charge",
        name: "Charge card",
        state: "complete",
        output: "[REDACTED]",
        source: "provider",
      }),
    );
    wrap(<StepOutputDialog workflowId="wf_1" runId="run_1" step={charge} onClose={() => {}} />);
    expect((await screen.findByLabelText("Full output of Charge card")).textContent).toBe('"[REDACTED]"');
    expect(screen.getByText(/output is sensitive/)).toBeTruthy();
  });

  it("offers a stream output's bytes as a download, never showing them", async () => {
    serve(
      () =>
        new Response("raw bytes", {
          status: 200,
          headers: { "Content-Type": "application/octet-stream", "Edgeflow-Step-State": "complete" },
        }),
    );
    const step: RunStep = {
      nodeId: "export",
      name: "Export #2",
      type: "step",
      state: "complete",
      attempts: 1,
      startedAt: null,
      endedAt: null,
      error: null,
      output: null,
      outputTruncated: false,
    };
    wrap(<StepOutputDialog workflowId="wf_1" runId="run_1" step={step} onClose={() => {}} />);
    const link = (await screen.findByText("Download its bytes")) as HTMLAnchorElement;
    expect(link.getAttribute("href")).toBe("/api/workflows/wf_1/runs/run_1/steps/export/output?iteration=2");
    expect(link.getAttribute("download")).toBe("export.bin");
    expect(screen.queryByText("raw bytes")).toBeNull();
  });

  it("shows the server's refusal", async () => {
    serve(() =>
      json(
        {
          error: "the run has no step of node charge",
          code: "not_found",
          details: [{ path: "/nodeId", message: "unknown" }],
        },
        404,
      ),
    );
    wrap(<StepOutputDialog workflowId="wf_1" runId="run_1" step={charge} onClose={() => {}} />);
    expect((await screen.findByRole("alert")).textContent).toContain("the run has no step of node charge");
  });

  it("names a loop iteration and an attempt in the URL", () => {
    expect(stepOutputURL("w", "r", { ...charge, name: "Charge card #1.3" }, 2)).toBe(
      "/api/workflows/w/runs/r/steps/charge/output?iteration=1.3&attempt=2",
    );
  });
});

const version = {
  id: "ver_1",
  workflowId: "wf_1",
  version: 1,
  locked: false,
  createdAt: "2026-11-27T06:40:12Z",
  ir: { nodes: [{ id: "charge", type: "step", name: "Charge card", data: {} }], edges: [], entryNodeId: "charge" },
} as unknown as Version;
const run = { id: "run_1", workflowId: "wf_1", status: "errored", steps: [charge] } as unknown as Run;

describe("RestartPanel", () => {
  it("restarts in place when asked, and shows why not when the provider cannot", async () => {
    const calls = serve(() =>
      json(
        { error: "the run's version is no longer the one deployed: restart it as a new run", code: "conflict" },
        409,
      ),
    );
    const onRestarted = vi.fn();
    wrap(
      <RestartPanel
        workflowId="wf_1"
        run={run}
        version={version}
        fromStep="charge"
        setFromStep={() => {}}
        onRestarted={onRestarted}
      />,
    );
    fireEvent.click(screen.getByLabelText(/This run, in place/));
    fireEvent.click(screen.getByRole("button", { name: "Restart from Charge card in place" }));
    expect((await screen.findByRole("alert")).textContent).toContain("no longer the one deployed");
    expect(calls).toEqual([`POST /api/workflows/wf_1/runs/run_1/restart {"fromStep":"charge","mode":"in-place"}`]);
    expect(onRestarted).not.toHaveBeenCalled();
  });

  it("starts a new run by default, with the version chosen", async () => {
    const calls = serve(() => json({ id: "run_2", workflowId: "wf_1", status: "queued" }, 201));
    const onRestarted = vi.fn();
    wrap(
      <RestartPanel
        workflowId="wf_1"
        run={run}
        version={version}
        fromStep="charge"
        setFromStep={() => {}}
        onRestarted={onRestarted}
      />,
    );
    fireEvent.click(screen.getByLabelText(/The version deployed now/));
    fireEvent.click(screen.getByRole("button", { name: "Restart from Charge card" }));
    await vi.waitFor(() => expect(onRestarted).toHaveBeenCalled());
    expect(calls).toEqual([`POST /api/workflows/wf_1/runs/run_1/restart {"fromStep":"charge","version":"current"}`]);
  });
});

describe("TraceLink", () => {
  it("links a traced run to its trace, in a new tab", () => {
    wrap(
      <TraceLink
        run={{
          traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
          traceUrl: "https://jaeger.example/trace/4bf92f3577b34da6a3ce929d0e0e4736",
        }}
      />,
    );
    const link = screen.getByRole("link", { name: "View trace" });
    expect(link.getAttribute("href")).toBe("https://jaeger.example/trace/4bf92f3577b34da6a3ce929d0e0e4736");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.getByText("4bf92f3577b34da6a3ce929d0e0e4736")).toBeTruthy();
  });

  it("shows nothing without a link", () => {
    const { container } = wrap(<TraceLink run={{ traceId: "4bf92f3577b34da6a3ce929d0e0e4736" }} />);
    expect(container.textContent).toBe("");
  });
});

describe("ReplayPanel", () => {
  it("opens the run's params in the JSON editor and replays with the edited ones", async () => {
    const calls = serve(() => json({ id: "run_3", workflowId: "wf_1", status: "queued", replayOf: "run_1" }, 201));
    const onReplayed = vi.fn();
    wrap(
      <ReplayPanel
        workflowId="wf_1"
        run={{ ...run, params: { orderId: "A-1" } }}
        fromStep=""
        onReplayed={onReplayed}
      />,
    );
    fireEvent.click(screen.getByRole("button", { name: "Replay with changes" }));
    const editor = screen.getByLabelText("Params (JSON)") as HTMLTextAreaElement;
    expect(JSON.parse(editor.value)).toEqual({ orderId: "A-1" });
    fireEvent.change(editor, { target: { value: '{"orderId": "A-2"}' } });
    fireEvent.click(screen.getByRole("button", { name: "Replay" }));
    await vi.waitFor(() => expect(onReplayed).toHaveBeenCalled());
    expect(calls).toEqual([`POST /api/workflows/wf_1/runs/run_1/replay {"params":{"orderId":"A-2"}}`]);
  });

  it("refuses params that are not a JSON object without asking the server", () => {
    const calls = serve(() => json({}, 500));
    wrap(<ReplayPanel workflowId="wf_1" run={run} fromStep="charge" onReplayed={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: "Replay with changes" }));
    fireEvent.change(screen.getByLabelText("Params (JSON)"), { target: { value: "[1]" } });
    fireEvent.click(screen.getByRole("button", { name: "Replay" }));
    expect(screen.getByText(/object/)).toBeTruthy();
    expect(calls).toEqual([]);
  });
});
