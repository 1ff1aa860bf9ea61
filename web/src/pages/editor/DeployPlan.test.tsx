import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { changesTitle, DeployPlanView, inFlightText, InFlightChoice, type Plan } from "./DeployPlan";

afterEach(cleanup);

// plan is the plan of v2 over an active v1 with one run of v1 waiting past a renamed step.
function plan(over: Partial<Plan> = {}): Plan {
  return {
    workflowId: "wf_1",
    connectionId: "con_1",
    versionId: "ver_2",
    number: 2,
    activeVersionId: "ver_1",
    inFlight: { total: 1, byVersion: [{ versionId: "ver_1", number: 1, count: 1 }] },
    changes: [
      { kind: "renamed", nodeId: "prepare", step: "prepare the order", detail: 'renamed from "prepare"' },
      { kind: "code-changed", nodeId: "finish", step: "finish", detail: "its code or settings changed" },
    ],
    compatible: false,
    reasons: ['run run_1 has passed step "prepare", which the new version renames'],
    ...over,
  };
}

describe("the deploy plan's words", () => {
  it("counts the runs in flight per version", () => {
    expect(inFlightText(plan({ inFlight: { total: 0, byVersion: [] } }))).toBe("No runs in flight here.");
    expect(inFlightText(plan())).toBe("1 run in flight here: 1 of version 1.");
    expect(
      inFlightText(
        plan({
          inFlight: {
            total: 3,
            byVersion: [
              { versionId: "ver_1", number: 1, count: 2 },
              { versionId: "ver_2", number: 2, count: 1 },
            ],
          },
        }),
      ),
    ).toBe("3 runs in flight here: 2 of version 1, 1 of version 2.");
  });

  it("says what the changes are compared with", () => {
    expect(changesTitle(plan({ activeVersionId: "" }), undefined)).toBe(
      "Nothing is deployed here yet: version 2 will be the first.",
    );
    expect(changesTitle(plan({ activeVersionId: "ver_2" }), 2)).toBe("Version 2 is already active here.");
    expect(changesTitle(plan({ changes: [] }), 1)).toBe("No step changes from version 1.");
    expect(changesTitle(plan(), undefined)).toBe("Step changes from the active version to version 2:");
  });
});

describe("DeployPlanView", () => {
  it("lists the step changes and why the runs in flight are not compatible", () => {
    render(<DeployPlanView plan={plan()} activeNumber={1} />);
    const changes = screen.getByRole("list", { name: "Step changes" });
    expect(changes.textContent).toContain("renamed");
    expect(changes.textContent).toContain("prepare the order");
    expect(screen.getByText(/Not compatible/)).toBeTruthy();
    expect(screen.getByRole("list", { name: "Why not compatible" }).textContent).toContain('"prepare"');
  });

  it("says a compatible plan is compatible and lists no reasons", () => {
    render(<DeployPlanView plan={plan({ compatible: true, reasons: [] })} activeNumber={1} />);
    expect(screen.getByText(/^Compatible/)).toBeTruthy();
    expect(screen.queryByRole("list", { name: "Why not compatible" })).toBeNull();
  });
});

describe("InFlightChoice", () => {
  function setup(value: "pin" | "migrate" | "drain", p: Plan | undefined = plan()) {
    const onChange = vi.fn();
    const onForce = vi.fn();
    render(<InFlightChoice plan={p} value={value} onChange={onChange} force={false} onForce={onForce} />);
    return { onChange, onForce };
  }

  it("offers pin, migrate and drain with the runs they concern, pin chosen", () => {
    const { onChange } = setup("pin");
    expect(screen.getByRole("group", { name: "Runs in flight" })).toBeTruthy();
    const pin = screen.getByRole("radio", { name: /^Pin/ }) as HTMLInputElement;
    expect(pin.checked).toBe(true);
    expect(pin.closest("label")?.textContent).toContain("The runs in flight (1) finish on the version they started on");
    fireEvent.click(screen.getByRole("radio", { name: /^Drain/ }));
    expect(onChange).toHaveBeenLastCalledWith("drain");
    expect(screen.queryByRole("checkbox")).toBeNull();
  });

  it("asks to migrate anyway only when migrating runs the plan finds not compatible", () => {
    const { onForce } = setup("migrate");
    fireEvent.click(screen.getByRole("checkbox", { name: /Migrate anyway/ }));
    expect(onForce).toHaveBeenLastCalledWith(true);
    cleanup();
    setup("migrate", plan({ compatible: true, reasons: [] }));
    expect(screen.queryByRole("checkbox")).toBeNull();
  });
});
