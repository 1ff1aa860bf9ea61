import { describe, expect, it } from "vitest";
import { ariaKeyShortcuts, matches, shownBinding, type KeyPress } from "./keys";

const press = (key: string, mods: Partial<KeyPress> = {}): KeyPress => ({
  key,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe("key bindings", () => {
  it("take Ctrl or ⌘ for Mod, and letters in either case", () => {
    expect(matches("Mod+Z", press("z", { ctrlKey: true }))).toBe(true);
    expect(matches("Mod+Z", press("Z", { metaKey: true }))).toBe(true);
    expect(matches("Mod+Z", press("z"))).toBe(false);
    expect(matches("Mod+Z", press("z", { ctrlKey: true, altKey: true }))).toBe(false);
    expect(matches("Delete", press("Delete"))).toBe(true);
    expect(matches("Delete", press("Delete", { ctrlKey: true }))).toBe(false);
  });

  it("match Shift exactly, or, asked so, a binding without Shift with Shift pressed", () => {
    const shifted = press("Z", { ctrlKey: true, shiftKey: true });
    expect(matches("Mod+Shift+Z", shifted)).toBe(true);
    expect(matches("Mod+Z", shifted)).toBe(false);
    expect(matches("Mod+Z", shifted, false)).toBe(true);
    expect(matches("Mod+Shift+Z", press("z", { ctrlKey: true }), false)).toBe(false);
  });

  it("are shown as people read them and named for assistive technology", () => {
    expect(shownBinding("Mod+Shift+Z", false)).toBe("Ctrl+Shift+Z");
    expect(shownBinding("Mod+Shift+Z", true)).toBe("⌘⇧Z");
    expect(shownBinding("Delete", false)).toBe("Delete");
    expect(ariaKeyShortcuts(["Mod+Shift+Z", "Mod+Y"])).toBe("Control+Shift+Z Meta+Shift+Z Control+Y Meta+Y");
    expect(ariaKeyShortcuts(["Delete", "Backspace"])).toBe("Delete Backspace");
    expect(ariaKeyShortcuts([])).toBeUndefined();
  });
});
