import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { NodeDefinition } from "../ir/nodeDefs";
import { SchemaForm } from "./SchemaForm";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

// The project's workflows, as GET /api/workflows answers: two workflows and a function (not offered as a tool).
beforeEach(() => {
  vi.stubGlobal("fetch", async (input: string | Request) => {
    const url = typeof input === "string" ? input : input.url;
    if (!new URL(url, "http://studio").pathname.endsWith("/api/workflows")) return new Response("{}", { status: 404 });
    const data = [
      { id: "wf_a", name: "Refund", kind: "workflow" },
      { id: "wf_b", name: "Escalate", kind: "workflow" },
      { id: "fn_c", name: "Format", kind: "function" },
    ];
    return new Response(JSON.stringify({ data, nextCursor: null }), {
      headers: { "Content-Type": "application/json" },
    });
  });
});

// The agent's structured fields, as GET /api/nodes serves them (internal/nodes/agent.go).
const def: NodeDefinition = {
  id: "agent",
  name: "Agent",
  description: "Calls a model in turns",
  category: "AI",
  version: "1.0.0",
  builtin: true,
  allowedInFunctions: true,
  outputSchema: {},
  configSchema: {
    apiKey: { type: "secretRef", label: "API key" },
    tools: { type: "agentTools", label: "Tools" },
    output: { type: "jsonSchema", label: "Output schema" },
    approval: { type: "toolNames", label: "Needs approval" },
  },
};

function setup(data: Record<string, unknown>) {
  const onChange = vi.fn();
  const options = () => [
    { path: "env.OPENAI_API_KEY", detail: "secret" },
    { path: "load.text", detail: "" },
  ];
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <SchemaForm def={def} data={data} onChange={onChange} idPrefix="t" expressionOptions={options} />
    </QueryClientProvider>,
  );
  return onChange;
}

describe("the agent node's form", () => {
  it("stores the key as a reference to an env var, offering the workflow's env vars", () => {
    const onChange = setup({});
    const input = screen.getByLabelText(/API key/) as HTMLInputElement;
    expect([...document.querySelectorAll("datalist option")].map((o) => (o as HTMLOptionElement).value)).toEqual([
      "OPENAI_API_KEY",
    ]);
    fireEvent.change(input, { target: { value: "openai_api_key" } });
    expect(onChange).toHaveBeenLastCalledWith({ apiKey: "{{env.OPENAI_API_KEY}}" });
  });

  it("shows the env var of a stored reference, never a literal", () => {
    setup({ apiKey: "{{env.LLM_KEY}}" });
    expect((screen.getByLabelText(/API key/) as HTMLInputElement).value).toBe("LLM_KEY");
    cleanup();
    setup({ apiKey: "sk-literal" });
    expect((screen.getByLabelText(/API key/) as HTMLInputElement).value).toBe("");
  });

  it("adds, edits and removes tools of each kind", async () => {
    const onChange = setup({ tools: [{ workflow: "wf_a", name: "refund" }] });
    fireEvent.click(screen.getByText("Add an HTTP tool"));
    expect(onChange).toHaveBeenLastCalledWith({
      tools: [{ workflow: "wf_a", name: "refund" }, { http: { method: "GET", url: "" } }],
    });
    await screen.findByRole("option", { name: "Escalate" });
    fireEvent.change(screen.getByLabelText("Workflow"), { target: { value: "wf_b" } });
    expect(onChange).toHaveBeenLastCalledWith({ tools: [{ workflow: "wf_b", name: "refund" }] });
    fireEvent.click(screen.getByText("Remove tool refund"));
    expect(onChange).toHaveBeenLastCalledWith({});
  });

  it("picks a workflow tool's workflow among the project's workflows, not its functions", async () => {
    const onChange = setup({ tools: [{ workflow: "" }] });
    await screen.findByRole("option", { name: "Escalate" });
    const picker = screen.getByLabelText("Workflow") as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual(["Choose a workflow", "Refund", "Escalate"]);
    fireEvent.change(picker, { target: { value: "wf_a" } });
    expect(onChange).toHaveBeenLastCalledWith({ tools: [{ workflow: "wf_a" }] });
    fireEvent.change(picker, { target: { value: "" } });
    expect(onChange).toHaveBeenLastCalledWith({ tools: [{ workflow: "" }] });
  });

  it("keeps a stored workflow id that is not among the project's workflows, marked", async () => {
    setup({ tools: [{ workflow: "wf_gone" }] });
    await screen.findByRole("option", { name: "Escalate" });
    const picker = screen.getByLabelText("Workflow") as HTMLSelectElement;
    expect(picker.value).toBe("wf_gone");
    expect(picker.selectedOptions[0]?.textContent).toBe("wf_gone (not among the project's workflows)");
  });

  it("offers every workflow of a project with more than a page of them", async () => {
    // 250 workflows, 100 a page: the picker reads the pages one after the other.
    vi.stubGlobal("fetch", async (input: string | Request) => {
      const url = new URL(typeof input === "string" ? input : input.url, "http://studio");
      if (!url.pathname.endsWith("/api/workflows")) return new Response("{}", { status: 404 });
      const from = Number(url.searchParams.get("cursor") ?? "0");
      const data = Array.from({ length: Math.min(100, 250 - from) }, (_, i) => ({
        id: `wf_${from + i}`,
        name: `Workflow ${from + i}`,
        kind: "workflow",
      }));
      const nextCursor = from + 100 < 250 ? String(from + 100) : null;
      return new Response(JSON.stringify({ data, nextCursor }), { headers: { "Content-Type": "application/json" } });
    });
    setup({ tools: [{ workflow: "wf_249" }] });
    await screen.findByRole("option", { name: "Workflow 249" });
    const picker = screen.getByLabelText("Workflow") as HTMLSelectElement;
    expect(picker.options).toHaveLength(251);
    expect(picker.selectedOptions[0]?.textContent).toBe("Workflow 249");
  });

  it("edits an http tool's request inside http", () => {
    const onChange = setup({ tools: [{ http: { method: "GET", url: "" } }] });
    fireEvent.change(screen.getByLabelText("URL"), { target: { value: "https://api.example.com/{id}" } });
    expect(onChange).toHaveBeenLastCalledWith({
      tools: [{ http: { method: "GET", url: "https://api.example.com/{id}" } }],
    });
    fireEvent.change(screen.getByLabelText("Method"), { target: { value: "POST" } });
    expect(onChange).toHaveBeenLastCalledWith({ tools: [{ http: { method: "POST", url: "" } }] });
  });

  it("picks approvals among the node's tools, by their names", () => {
    const onChange = setup({ tools: [{ workflow: "wf_a", name: "refund" }, { http: { url: "https://x.example" } }] });
    fireEvent.click(screen.getByLabelText("http_2"));
    expect(onChange).toHaveBeenLastCalledWith(expect.objectContaining({ approval: ["http_2"] }));
  });

  it("keeps the last valid schema while the JSON is being typed", () => {
    const onChange = setup({});
    const box = screen.getByLabelText("Output schema");
    fireEvent.change(box, { target: { value: '{"type": "obj' } });
    expect(onChange).not.toHaveBeenCalled();
    expect(box.getAttribute("aria-invalid")).toBe("true");
    fireEvent.change(box, { target: { value: '{"type": "object"}' } });
    expect(onChange).toHaveBeenLastCalledWith({ output: { type: "object" } });
  });
});
