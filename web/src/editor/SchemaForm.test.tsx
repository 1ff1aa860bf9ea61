import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultData, type NodeDefinition } from "../ir/nodeDefs";
import { SchemaForm } from "./SchemaForm";

afterEach(cleanup);

const def: NodeDefinition = {
  id: "acme/notify",
  name: "Notify",
  description: "Sends a note",
  category: "Messaging",
  version: "1.2.0",
  builtin: false,
  allowedInFunctions: true,
  outputSchema: {},
  configSchema: {
    channel: {
      type: "string",
      label: "Channel",
      required: true,
      description: "Where the note goes.",
      placeholder: "#general",
    },
    retries: { type: "number", label: "Attempts", default: 3, validation: { min: 1, max: 9, integer: true } },
    urgent: { type: "boolean", label: "Urgent", default: false },
    level: { type: "select", label: "Level", options: ["info", "warn", "error"], default: "info" },
    format: { type: "select", label: "Format", options: ["text", "markdown"] },
    token: { type: "secret", label: "API token", envVarName: "ACME_TOKEN", required: true },
  },
};

function setup(data: Record<string, unknown>) {
  const onChange = vi.fn();
  render(<SchemaForm def={def} data={data} onChange={onChange} idPrefix="t" />);
  return onChange;
}

describe("SchemaForm", () => {
  it("renders the right control for each field type, required first, with help text and defaults", () => {
    setup(defaultData(def));
    const channel = screen.getByLabelText(/Channel/) as HTMLInputElement;
    expect(channel.type).toBe("text");
    expect(channel.required).toBe(true);
    expect(channel.placeholder).toBe("#general");
    expect(document.querySelector("label[for=t-data-channel]")!.textContent).toBe("Channel (required)");
    expect(channel.getAttribute("aria-describedby")).toBeTruthy();
    expect(document.getElementById(channel.getAttribute("aria-describedby")!)!.textContent).toContain(
      "Where the note goes.",
    );
    const attempts = screen.getByLabelText("Attempts") as HTMLInputElement;
    expect([attempts.type, attempts.value, attempts.min, attempts.max, attempts.step]).toEqual([
      "number",
      "3",
      "1",
      "9",
      "1",
    ]);
    const urgent = screen.getByLabelText("Urgent") as HTMLInputElement;
    expect([urgent.type, urgent.checked]).toEqual(["checkbox", false]);
    const level = screen.getByLabelText("Level") as HTMLSelectElement;
    expect(level.tagName).toBe("SELECT");
    expect(level.value).toBe("info");
    expect([...level.options].map((o) => o.value)).toEqual(["info", "warn", "error"]);
    const format = screen.getByLabelText("Format") as HTMLSelectElement;
    expect([...format.options].map((o) => o.value)).toEqual(["", "text", "markdown"]);
    // a secret has no input: the form names its env var
    expect(screen.queryByLabelText(/API token/)).toBeNull();
    expect(screen.getByText("ACME_TOKEN").tagName).toBe("CODE");
    // required fields come first
    const ids = [...document.querySelectorAll("[id^='t-data-']")].map((e) => e.id);
    expect(ids).toEqual([
      "t-data-channel",
      "t-data-token",
      "t-data-retries",
      "t-data-urgent",
      "t-data-level",
      "t-data-format",
    ]);
  });

  it("new nodes get the defaults, and never a secret value", () => {
    expect(defaultData(def)).toEqual({ retries: 3, urgent: false, level: "info" });
  });

  it("produces the right data", () => {
    const data = defaultData(def);
    const onChange = setup(data);
    fireEvent.change(screen.getByLabelText(/Channel/), { target: { value: "#ops" } });
    expect(onChange).toHaveBeenLastCalledWith({ ...data, channel: "#ops" });
    fireEvent.change(screen.getByLabelText("Attempts"), { target: { value: "5" } });
    expect(onChange).toHaveBeenLastCalledWith({ ...data, retries: 5 });
    fireEvent.change(screen.getByLabelText("Attempts"), { target: { value: "" } });
    expect(onChange).toHaveBeenLastCalledWith({ urgent: false, level: "info" });
    fireEvent.click(screen.getByLabelText("Urgent"));
    expect(onChange).toHaveBeenLastCalledWith({ ...data, urgent: true });
    fireEvent.change(screen.getByLabelText("Level"), { target: { value: "error" } });
    expect(onChange).toHaveBeenLastCalledWith({ ...data, level: "error" });
    fireEvent.change(screen.getByLabelText("Format"), { target: { value: "markdown" } });
    expect(onChange).toHaveBeenLastCalledWith({ ...data, format: "markdown" });
  });

  it("shows a field's problems and marks it invalid", () => {
    render(
      <SchemaForm
        def={def}
        data={{}}
        onChange={() => {}}
        idPrefix="t"
        problems={new Map([["channel", ["is required"]]])}
      />,
    );
    const channel = screen.getByLabelText(/Channel/);
    expect(channel.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText("is required")).toBeTruthy();
  });

  it("keeps data keys the definition does not know and says so", () => {
    setup({ channel: "#a", legacy: 1 });
    expect(screen.getByText(/Other keys in this node's data, kept as they are: legacy/)).toBeTruthy();
  });
});
