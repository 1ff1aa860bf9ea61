import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { NodeDefinition } from "../ir/nodeDefs";
import { SchemaForm } from "./SchemaForm";

afterEach(cleanup);

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
  render(<SchemaForm def={def} data={data} onChange={onChange} idPrefix="t" expressionOptions={options} />);
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

  it("adds, edits and removes tools of each kind", () => {
    const onChange = setup({ tools: [{ workflow: "wf_a", name: "refund" }] });
    fireEvent.click(screen.getByText("Add an HTTP tool"));
    expect(onChange).toHaveBeenLastCalledWith({
      tools: [{ workflow: "wf_a", name: "refund" }, { http: { method: "GET", url: "" } }],
    });
    fireEvent.change(screen.getByLabelText("Workflow id"), { target: { value: "wf_b" } });
    expect(onChange).toHaveBeenLastCalledWith({ tools: [{ workflow: "wf_b", name: "refund" }] });
    fireEvent.click(screen.getByText("Remove tool refund"));
    expect(onChange).toHaveBeenLastCalledWith({});
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
