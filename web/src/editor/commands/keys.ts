// Key bindings such as "Mod+Shift+Z": parsing, matching a key press, and the forms shown to people and to
// assistive technology (aria-keyshortcuts).
import type { KeyBinding } from "./types";

export interface KeyChord {
  key: string; // lower case for letters ("z"), as KeyboardEvent.key names it otherwise ("Delete")
  mod: boolean;
  shift: boolean;
  alt: boolean;
}

// KeyPress is the part of a KeyboardEvent a binding is matched against.
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export function parseBinding(b: KeyBinding): KeyChord {
  const parts = b.split("+");
  const key = parts.pop() ?? "";
  return {
    key: key.length === 1 ? key.toLowerCase() : key,
    mod: parts.includes("Mod"),
    shift: parts.includes("Shift"),
    alt: parts.includes("Alt"),
  };
}

// matches reports whether a key press is the binding. With exactShift false a binding without Shift also takes the
// key pressed with Shift (Ctrl+Shift+C copies as Ctrl+C does), so that the more exact binding is looked for first.
export function matches(b: KeyBinding, e: KeyPress, exactShift = true): boolean {
  const c = parseBinding(b);
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  if (key !== c.key || e.altKey !== c.alt || (e.ctrlKey || e.metaKey) !== c.mod) return false;
  return exactShift ? e.shiftKey === c.shift : !c.shift || e.shiftKey;
}

// isMac: ⌘ stands for Mod on macOS.
export const isMac =
  typeof navigator !== "undefined" && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

// shownBinding is a binding as a person reads it: "Ctrl+Shift+Z", or "⌘⇧Z" on macOS.
export function shownBinding(b: KeyBinding, mac = isMac): string {
  const c = parseBinding(b);
  const key = c.key.length === 1 ? c.key.toUpperCase() : c.key;
  if (mac) return `${c.mod ? "⌘" : ""}${c.alt ? "⌥" : ""}${c.shift ? "⇧" : ""}${key}`;
  return [c.mod && "Ctrl", c.alt && "Alt", c.shift && "Shift", key].filter(Boolean).join("+");
}

// ariaKeyShortcuts is the value of aria-keyshortcuts for bindings: each Mod binding with Control and with Meta.
export function ariaKeyShortcuts(bindings: readonly KeyBinding[]): string | undefined {
  const out: string[] = [];
  for (const b of bindings) {
    const c = parseBinding(b);
    const key = c.key.length === 1 ? c.key.toUpperCase() : c.key;
    const rest = [c.alt && "Alt", c.shift && "Shift", key].filter(Boolean).join("+");
    if (c.mod) out.push(`Control+${rest}`, `Meta+${rest}`);
    else out.push(rest);
  }
  return out.length > 0 ? out.join(" ") : undefined;
}
