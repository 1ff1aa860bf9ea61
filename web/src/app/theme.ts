// Studio's colour theme (decision 731). The user chooses System, Light or Dark (the Theme select in the top bar); the
// choice is kept in the browser's localStorage. System follows the operating system's setting (prefers-color-scheme)
// and changes with it while the page is open. The theme is applied as data-theme="light" or "dark" on <html>, which
// picks the token block of tokens.css; every colour of every page, the canvas and the code editors derives from it.
import { useSyncExternalStore } from "react";

export type ThemeChoice = "system" | "light" | "dark";
export type Theme = "light" | "dark";

/** THEME_KEY is the localStorage key of the user's choice. */
export const THEME_KEY = "edgeflow.theme";
export const THEME_CHOICES: [ThemeChoice, string][] = [
  ["system", "System"],
  ["light", "Light"],
  ["dark", "Dark"],
];
const DARK_QUERY = "(prefers-color-scheme: dark)";

/** parseChoice reads a stored choice; anything else (nothing stored, an old or edited value) is System. */
export function parseChoice(stored: string | null | undefined): ThemeChoice {
  return stored === "light" || stored === "dark" ? stored : "system";
}

/** resolveTheme is the theme a choice shows when the system prefers dark (prefersDark) or not. */
export function resolveTheme(choice: ThemeChoice, prefersDark: boolean): Theme {
  if (choice === "system") return prefersDark ? "dark" : "light";
  return choice;
}

function readStored(): ThemeChoice {
  try {
    return parseChoice(localStorage.getItem(THEME_KEY));
  } catch {
    return "system"; // storage refused (a privacy mode): the system's setting
  }
}

function darkQuery(): MediaQueryList | null {
  return typeof matchMedia === "function" ? matchMedia(DARK_QUERY) : null;
}

let choice: ThemeChoice = "system";
const listeners = new Set<() => void>();

function apply() {
  const theme = resolveTheme(choice, darkQuery()?.matches ?? false);
  document.documentElement.dataset.theme = theme;
  for (const l of listeners) l();
}

/**
 * startTheme applies the stored choice to the document and follows the system's setting from then on; main.tsx
 * calls it before the first render, so no page is drawn in the wrong theme.
 */
export function startTheme(): () => void {
  choice = readStored();
  apply();
  const q = darkQuery();
  q?.addEventListener("change", apply);
  return () => q?.removeEventListener("change", apply);
}

/** setThemeChoice remembers a new choice and applies it at once. */
export function setThemeChoice(next: ThemeChoice) {
  choice = next;
  try {
    if (next === "system") localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, next);
  } catch {
    // not remembered, still applied for this page's life
  }
  apply();
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** useThemeChoice gives the user's current choice, re-rendering when it changes. */
export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(subscribe, () => choice);
}
