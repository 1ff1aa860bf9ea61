import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Rollbacks } from "../pages/run/StepTimeline";
import type { RunStep } from "../api/models";
import { RollbackForm } from "./RollbackForm";

afterEach(cleanup);

function setup(rollback: Parameters<typeof RollbackForm>[0]["rollback"], problems = new Map<string, string[]>()) {
  const onChange = vi.fn();
  const { container } = render(
    <RollbackForm
      rollback={rollback}
      idPrefix="t"
      problems={problems}
      expressionOptions={() => [{ path: "step.attempt", detail: "" }]}
      onChange={onChange}
    />,
  );
  return { onChange, container };
}

describe("RollbackForm", () => {
  it("shows the rollback's code in the code editor and its retries and timeout", () => {
    const { container } = setup({
      code: "await refund(output.id);",
      retries: { limit: 3, delay: "5 seconds" },
      timeout: 60,
    });
    expect(screen.getByRole("group", { name: "Rollback" })).toBeTruthy();
    expect(container.querySelector(".cm-content")?.textContent).toBe("await refund(output.id);");
    expect((screen.getByLabelText("Rollback retry limit") as HTMLInputElement).value).toBe("3");
    expect((screen.getByLabelText("Rollback retry delay") as HTMLInputElement).value).toBe("5 seconds");
    expect((screen.getByLabelText("Rollback timeout") as HTMLInputElement).value).toBe("60");
  });

  it("writes retries and timeout beside the code, and removes the rollback when every part is cleared", () => {
    const { onChange } = setup({ code: "undo();" });
    fireEvent.change(screen.getByLabelText("Rollback retry limit"), { target: { value: "2" } });
    expect(onChange).toHaveBeenLastCalledWith({ code: "undo();", retries: { limit: 2 } });
    fireEvent.change(screen.getByLabelText("Rollback timeout"), { target: { value: "30" } });
    expect(onChange).toHaveBeenLastCalledWith({ code: "undo();", timeout: 30 });
    cleanup();
    const empty = setup({ code: "", timeout: "1 minute" });
    fireEvent.change(screen.getByLabelText("Rollback timeout"), { target: { value: "" } });
    expect(empty.onChange).toHaveBeenLastCalledWith(undefined);
  });

  it("shows the problems validation names at the rollback", () => {
    setup(
      { code: "" },
      new Map([["config/rollback", ["a rollback undoes a durable step; sleep nodes do not run as one"]]]),
    );
    expect(screen.getByText(/sleep nodes do not run as one/)).toBeTruthy();
  });
});

describe("Rollbacks", () => {
  const step = (name: string, state: RunStep["state"], type = "rollback"): RunStep =>
    ({
      nodeId: name,
      name,
      type,
      state,
      attempts: 1,
      startedAt: null,
      endedAt: null,
      output: null,
      outputTruncated: false,
      error: state === "rollback_failed" ? { name: "Error", message: "refund refused" } : null,
    }) as RunStep;

  it("lists the rollbacks in the order they ran, with their outcome", () => {
    render(
      <Rollbacks
        steps={[step("charge", "complete", "step"), step("reserve", "rolled_back"), step("charge", "rollback_failed")]}
      />,
    );
    const items = screen.getByRole("list", { name: "Rollbacks, in the order they ran" }).querySelectorAll("li");
    expect([...items].map((li) => li.textContent)).toEqual([
      expect.stringContaining("rolled back undid reserve"),
      expect.stringContaining("rollback failed undid charge"),
    ]);
    expect(screen.getByText(/refund refused/)).toBeTruthy();
  });

  it("shows nothing when no rollback ran", () => {
    const { container } = render(<Rollbacks steps={[step("charge", "complete", "step")]} />);
    expect(container.textContent).toBe("");
  });
});
