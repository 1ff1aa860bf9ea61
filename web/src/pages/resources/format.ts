// Pure helpers of the resources browser: sizes, KV values (JSON, text or binary), hex previews and SQL parameters.

// formatBytes gives a size in B, KiB, MiB or GiB.
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`;
}

export type ValueKind =
  | { kind: "json"; value: unknown; pretty: string }
  | { kind: "text"; text: string }
  | { kind: "binary"; bytes: Uint8Array };

// classifyValue tells a KV value's kind: JSON when the text parses as a JSON object, array, string, number, boolean
// or null; text when it is UTF-8 otherwise; binary when the API sent it as base64.
export function classifyValue(value: string, encoding: "utf-8" | "base64"): ValueKind {
  if (encoding === "base64") return { kind: "binary", bytes: fromBase64(value) };
  const t = value.trim();
  if (t !== "" && /^[[{"\-0-9tfn]/.test(t)) {
    try {
      const v: unknown = JSON.parse(t);
      return { kind: "json", value: v, pretty: JSON.stringify(v, null, 2) };
    } catch {
      // not JSON: text
    }
  }
  return { kind: "text", text: value };
}

export function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

// hexDump renders the first `max` bytes as lines of 16: offset, hex bytes, printable ASCII.
export function hexDump(bytes: Uint8Array, max = 512): string {
  const lines: string[] = [];
  const n = Math.min(bytes.length, max);
  for (let off = 0; off < n; off += 16) {
    const chunk = bytes.subarray(off, Math.min(off + 16, n));
    const hex = Array.from(chunk, (b) => b.toString(16).padStart(2, "0")).join(" ");
    const ascii = Array.from(chunk, (b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${off.toString(16).padStart(8, "0")}  ${hex.padEnd(47)}  ${ascii}`);
  }
  return lines.join("\n");
}

export type JsonToken = { text: string; type: "key" | "string" | "number" | "literal" | "punct" };

// jsonTokens splits pretty-printed JSON into tokens for highlighting (keys, strings, numbers, literals, the rest).
export function jsonTokens(pretty: string): JsonToken[] {
  const out: JsonToken[] = [];
  const re = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;
  let last = 0;
  for (let m = re.exec(pretty); m; m = re.exec(pretty)) {
    if (m.index > last) out.push({ text: pretty.slice(last, m.index), type: "punct" });
    if (m[1] !== undefined) {
      out.push({ text: m[1], type: m[2] ? "key" : "string" });
      if (m[2]) out.push({ text: m[2], type: "punct" });
    } else if (m[3] !== undefined) out.push({ text: m[3], type: "number" });
    else out.push({ text: m[4]!, type: "literal" });
    last = re.lastIndex;
  }
  if (last < pretty.length) out.push({ text: pretty.slice(last), type: "punct" });
  return out;
}

// parseParams reads the console's parameters: "" is none, otherwise a JSON array of values.
export function parseParams(text: string): { params?: unknown[]; error?: string } {
  if (text.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { error: `Parameters are not JSON: ${(err as Error).message}` };
  }
  if (!Array.isArray(v)) return { error: 'Parameters must be a JSON array, such as [1, "text"].' };
  return { params: v };
}

// countPlaceholders counts the ? and ?NNN placeholders of a statement outside strings, quoted names and comments.
export function countPlaceholders(sql: string): number {
  let n = 0;
  let maxNumbered = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i];
    if (c === "'" || c === '"' || c === "`") {
      const end = sql.indexOf(c, i + 1);
      i = end < 0 ? sql.length : end;
    } else if (c === "[") {
      const end = sql.indexOf("]", i + 1);
      i = end < 0 ? sql.length : end;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 1;
    } else if (c === "?") {
      const m = /^\d+/.exec(sql.slice(i + 1));
      if (m) {
        maxNumbered = Math.max(maxNumbered, Number(m[0]));
        i += m[0].length;
      } else n++;
    }
  }
  return Math.max(n, maxNumbered);
}

// cellText shows one value of a result row: NULL, numbers and text as they are, anything else as JSON.
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

// formatExpiry gives a KV key's expiration (seconds since the epoch) as a date and how far away it is.
export function formatExpiry(seconds: number | undefined, now = Date.now()): string {
  if (!seconds) return "never";
  const d = new Date(seconds * 1000);
  const mins = Math.round((d.getTime() - now) / 60000);
  const rel =
    mins <= 0
      ? "expired"
      : mins < 60
        ? `in ${mins} min`
        : mins < 48 * 60
          ? `in ${Math.round(mins / 60)} h`
          : `in ${Math.round(mins / 1440)} days`;
  return `${d
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC")} (${rel})`;
}

// destructiveStatements lists the kinds of statements in sql that delete or change stored data or schema (DROP,
// DELETE, UPDATE, ALTER, REPLACE, TRUNCATE), by the first word of each statement, outside strings and comments. It
// is for asking first in the console; whether a statement may write is for the API to decide.
export function destructiveStatements(sql: string): string[] {
  const found = new Set<string>();
  let stmt = "";
  const flush = () => {
    const m = /^\s*(?:WITH\b[\s\S]*?\)\s*)?(DROP|DELETE|UPDATE|ALTER|REPLACE|TRUNCATE)\b/i.exec(stmt);
    if (m) found.add(m[1]!.toUpperCase());
    stmt = "";
  };
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"' || c === "`") {
      const end = sql.indexOf(c, i + 1);
      const j = end < 0 ? sql.length : end;
      stmt += " x ";
      i = j;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      i = end < 0 ? sql.length : end;
      stmt += " ";
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 1;
      stmt += " ";
    } else if (c === ";") flush();
    else stmt += c;
  }
  flush();
  return [...found];
}
