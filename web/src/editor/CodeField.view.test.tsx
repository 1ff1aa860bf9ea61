import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { CodeField } from "./CodeField";

afterEach(cleanup);

describe("a code field", () => {
  it("keeps its editor, focus and text when its description changes (a validation answer arrives)", () => {
    const field = (describedBy?: string) => (
      <CodeField id="f" labelId="f-label" describedBy={describedBy} value="return 1;" language="typescript" />
    );
    const { container, rerender } = render(field());
    const content = container.querySelector<HTMLElement>(".cm-content")!;
    content.focus();
    expect(content.getAttribute("aria-describedby")).toBeNull();
    rerender(field("f-help f-problems"));
    const after = container.querySelector<HTMLElement>(".cm-content")!;
    expect(after).toBe(content);
    expect(after.getAttribute("aria-describedby")).toBe("f-help f-problems");
    expect(after.getAttribute("aria-labelledby")).toBe("f-label");
    expect(document.activeElement).toBe(after);
    expect(after.textContent).toBe("return 1;");
  });
});
