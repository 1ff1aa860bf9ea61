import { afterEach, describe, expect, it, vi } from "vitest";
import { parseChoice, resolveTheme, setThemeChoice, startTheme, THEME_KEY } from "./theme";

/** fakeSystem stands in for the browser's matchMedia with a system setting the test changes. */
function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = {
    get matches() {
      return dark;
    },
    addEventListener: (_: string, l: () => void) => listeners.add(l),
    removeEventListener: (_: string, l: () => void) => listeners.delete(l),
  };
  vi.stubGlobal("matchMedia", () => query);
  return {
    set(next: boolean) {
      dark = next;
      for (const l of listeners) l();
    },
  };
}

const shown = () => document.documentElement.dataset.theme;

describe("theme", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it("reads a stored choice; anything else is System", () => {
    expect(parseChoice("dark")).toBe("dark");
    expect(parseChoice("light")).toBe("light");
    expect(parseChoice(null)).toBe("system");
    expect(parseChoice("solarized")).toBe("system");
  });

  it("System follows the system's setting; Light and Dark do not", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });

  it("applies the stored choice at start, follows the system while on System, and remembers a new choice", () => {
    const system = fakeSystem(true);
    const stop = startTheme();
    expect(shown()).toBe("dark");
    system.set(false);
    expect(shown()).toBe("light");

    setThemeChoice("dark");
    expect(shown()).toBe("dark");
    expect(localStorage.getItem(THEME_KEY)).toBe("dark");
    system.set(true);
    system.set(false);
    expect(shown()).toBe("dark");

    setThemeChoice("system");
    expect(localStorage.getItem(THEME_KEY)).toBeNull();
    expect(shown()).toBe("light");
    stop();

    localStorage.setItem(THEME_KEY, "light");
    fakeSystem(true);
    startTheme()();
    expect(shown()).toBe("light");
  });
});
