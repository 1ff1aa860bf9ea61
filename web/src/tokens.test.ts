// The design tokens (tokens.css) are the only place of literal colours, font sizes, spacings and radii: the other
// stylesheets and the code use the custom properties. The light and dark palettes pass WCAG AA contrast for the
// pairs Studio draws text with.
// @vitest-environment node
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const srcDir = path.dirname(new URL(import.meta.url).pathname);
const tokensFile = path.join(srcDir, "tokens.css");

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const rel = (p: string) => path.relative(srcDir, p);
const stripComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, " "));

// A colour literal: hex, a colour function, or a named colour used as a value.
const COLOUR_LITERAL =
  /#[0-9a-fA-F]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|light-dark)\(|(?<![\w-])(?:white|black|red|green|blue|gray|grey|silver|orange|yellow|purple|navy|maroon)(?![\w-])/;
const SIZED = /^(font-size|border-radius|padding|margin|gap|row-gap|column-gap)(-[a-z]+)?$/;

/** offences lists a stylesheet's declarations that bypass the tokens. */
function offences(file: string): string[] {
  const out: string[] = [];
  stripComments(readFileSync(file, "utf8"))
    .split("\n")
    .forEach((line, i) => {
      const decl = /^\s*([a-z-]+)\s*:\s*(.+?);?\s*$/.exec(line);
      if (!decl || line.trim().startsWith("--")) return;
      const [, prop = "", value = ""] = decl;
      const where = `${rel(file)}:${i + 1}: ${line.trim()}`;
      if (COLOUR_LITERAL.test(value)) out.push(`${where} (a literal colour)`);
      if (SIZED.test(prop) && /(?<![\w.-])(?!1px)[0-9.]+(px|rem|em)\b/.test(value))
        out.push(`${where} (a literal size)`);
      if (prop === "box-shadow" && !/^var\(--shadow-[a-z]+\)$|^0 0 0 [0-9]px var\(--[a-z-]+\)$|^none$/.test(value))
        out.push(`${where} (a shadow that is not a token)`);
    });
  return out;
}

/** tokens reads the custom properties of one block of tokens.css ("light" = :root, "dark" = data-theme="dark"). */
function tokens(which: "light" | "dark"): Map<string, string> {
  const css = stripComments(readFileSync(tokensFile, "utf8"));
  const head = which === "light" ? ":root {" : ':root[data-theme="dark"] {';
  const start = css.indexOf(head);
  const block = css.slice(start + head.length, css.indexOf("}", start));
  const map = new Map<string, string>();
  for (const [, name = "", value = ""] of block.matchAll(/(--[a-z0-9-]+)\s*:\s*([^;]+);/g)) map.set(name, value.trim());
  return map;
}

/** resolve gives a token's final value in a theme: the dark block over the light one, var() aliases followed. */
function resolve(name: string, theme: "light" | "dark"): string {
  const light = tokens("light");
  const own = theme === "dark" ? tokens("dark") : new Map<string, string>();
  let value = own.get(name) ?? light.get(name);
  for (let hops = 0; value?.startsWith("var(") && hops < 5; hops++) {
    const alias = /^var\((--[a-z0-9-]+)\)$/.exec(value)?.[1] ?? "";
    value = own.get(alias) ?? light.get(alias);
  }
  if (!value) throw new Error(`token ${name} is not defined`);
  return value;
}

function luminance(hex: string): number {
  const h = hex.replace("#", "");
  const full = h.length === 3 ? [...h].map((c) => c + c).join("") : h;
  const lin = (i: number) => {
    const c = parseInt(full.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(0) + 0.7152 * lin(2) + 0.0722 * lin(4);
}
/** contrast is WCAG 2's contrast ratio of two opaque hex colours. */
function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

describe("design tokens", () => {
  const sources = walk(srcDir);

  it("no stylesheet but tokens.css has a literal colour, font size, spacing, radius or shadow", () => {
    const sheets = sources.filter((f) => f.endsWith(".css") && f !== tokensFile);
    expect(sheets.length).toBeGreaterThan(3);
    expect(sheets.flatMap(offences)).toEqual([]);
  });

  it("no code sets a literal colour (inline styles and SVG attributes use the tokens too)", () => {
    const code = sources.filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$|schema\.gen\.ts$/.test(f));
    const found = code.flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .map((line, i) => ({ line, i }))
        .filter(({ line }) => /["'`](?:#[0-9a-fA-F]{3,8}|(?:rgba?|hsla?)\([^)]*\))["'`]/.test(line))
        .map(({ line, i }) => `${rel(f)}:${i + 1}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it("every custom property a stylesheet reads is a token (or one of its own)", () => {
    const defined = new Set<string>();
    const used = new Map<string, string>();
    for (const f of sources.filter((s) => s.endsWith(".css"))) {
      const css = stripComments(readFileSync(f, "utf8"));
      for (const [, name = ""] of css.matchAll(/(--[a-z0-9-]+)\s*:/g)) defined.add(name);
      for (const [, name = ""] of css.matchAll(/var\((--[a-z0-9-]+)/g)) if (!used.has(name)) used.set(name, rel(f));
    }
    const missing = [...used].filter(([name]) => !defined.has(name)).map(([n, f]) => `${n} (${f})`);
    expect(missing).toEqual([]);
  });

  it("the dark theme redefines only tokens the light one has, and every colour of the light one", () => {
    const light = tokens("light");
    const dark = tokens("dark");
    expect([...dark.keys()].filter((k) => !light.has(k))).toEqual([]);
    const literalColours = [...light].filter(([, v]) => /^#|^rgb\(/.test(v)).map(([k]) => k);
    expect(literalColours.filter((k) => !dark.has(k))).toEqual([]);
  });

  // [text, background] pairs Studio draws; 4.5:1 is WCAG AA for body text.
  const PAIRS: [string, string][] = [
    ["--fg", "--bg"],
    ["--fg", "--panel"],
    ["--muted", "--bg"],
    ["--muted", "--panel"],
    ["--accent", "--bg"],
    ["--accent", "--panel"],
    ["--accent", "--accent-bg"],
    ["--accent-text", "--accent-bg"],
    ["--on-accent", "--accent"],
    ["--on-accent", "--accent-hover"],
    ["--on-accent", "--danger"],
    ["--on-accent", "--ok"],
    ["--danger", "--bg"],
    ["--danger", "--panel"],
    ["--danger", "--danger-bg"],
    ["--danger-muted", "--danger-bg"],
    ["--warn", "--warn-bg"],
    ["--warn", "--bg"],
    ["--fg", "--warn-surface"],
    ["--ok", "--ok-bg"],
    ["--ok", "--bg"],
    ["--neutral-fg", "--neutral-bg"],
    ["--fg", "--state-replayed-bg"],
    ["--fg", "--state-done-bg"],
    ["--fg", "--state-failed-bg"],
    ["--fg", "--state-running-bg"],
    ["--fg", "--state-stopped-bg"],
    ["--state-running-text", "--state-running-bg"],
    ["--state-waiting", "--state-waiting-bg"],
    ["--note-fg", "--note-bg"],
    ["--fg", "--diff-del-bg"],
    ["--fg", "--diff-ins-bg"],
    ["--fg", "--row-hover"],
    ["--code-keyword", "--panel"],
    ["--code-string", "--panel"],
    ["--code-number", "--panel"],
    ["--code-literal", "--panel"],
    ["--code-comment", "--bg"],
    ["--code-property", "--bg"],
    ["--code-name", "--bg"],
    ["--fg", "--code-selection"],
  ];
  for (const theme of ["light", "dark"] as const) {
    it(`the ${theme} theme's text colours pass WCAG AA on their backgrounds`, () => {
      const low = PAIRS.map(([fg, bg]) => ({ fg, bg, ratio: contrast(resolve(fg, theme), resolve(bg, theme)) }))
        .filter((p) => p.ratio < 4.5)
        .map((p) => `${p.fg} on ${p.bg}: ${p.ratio.toFixed(2)}`);
      expect(low).toEqual([]);
    });
  }
});
