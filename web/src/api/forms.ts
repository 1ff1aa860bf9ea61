// Checks Studio makes before sending a form, so that obvious mistakes are shown at once next to their field. The
// server checks everything again; its answers are shown the same way (fieldErrors).
import { ApiError } from "./client";

export type FieldErrors = Record<string, string>;

const emailPattern = /^[^\s@]+@[^\s@]+$/;

export function validateSignUp(f: { name: string; email: string; password: string }): FieldErrors {
  const e: FieldErrors = {};
  if (f.name.trim() === "") e.name = "Enter your name.";
  if (!emailPattern.test(f.email.trim())) e.email = "Enter an email address such as ada@example.com.";
  if (f.password.length < 8) e.password = "Use at least 8 characters.";
  else if (f.password.trim() === "") e.password = "A password of only spaces is not accepted.";
  return e;
}

export function validateSignIn(f: { email: string; password: string }): FieldErrors {
  const e: FieldErrors = {};
  if (!emailPattern.test(f.email.trim())) e.email = "Enter an email address such as ada@example.com.";
  if (f.password === "") e.password = "Enter your password.";
  return e;
}

// validateName checks a record's name as the API does: 1–200 characters, no control characters.
export function validateName(name: string): string | undefined {
  const t = name.trim();
  if (t === "") return "Enter a name.";
  if ([...t].length > 200) return "Use at most 200 characters.";
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(t))
    return "Remove control and formatting characters.";
  return undefined;
}

export const envVarNamePattern = /^[A-Z][A-Z0-9_]*$/;

// parseJsonObject reads a JSON object typed by the user (run params, a function's body, an imported IR).
export function parseJsonObject(text: string): { value: Record<string, unknown> } | { error: string } {
  if (text.trim() === "") return { value: {} };
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { error: `Not valid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v)) return { error: "Enter a JSON object: { … }." };
  return { value: v as Record<string, unknown> };
}

// fieldErrors maps an API error's details to the form's fields: "/email" → email. Details without a field of
// the form are returned under "" (shown with the form as a whole).
export function fieldErrors(err: unknown, fields: string[]): FieldErrors {
  const out: FieldErrors = {};
  if (!(err instanceof ApiError)) {
    out[""] = err instanceof Error ? err.message : String(err);
    return out;
  }
  const rest: string[] = [];
  for (const d of err.details) {
    const key = (d.path ?? "").replace(/^\//, "").split("/")[0] ?? "";
    if (fields.includes(key) && d.message) out[key] = out[key] ? `${out[key]} ${d.message}` : d.message;
    else if (d.message) rest.push(d.path ? `${d.path}: ${d.message}` : d.message);
  }
  if (Object.keys(out).length === 0 || rest.length > 0) out[""] = rest.length > 0 ? rest.join("; ") : err.message;
  return out;
}
