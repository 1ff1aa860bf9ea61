// The one way Studio talks to edgeflow: the public API under /api, with the session cookie and, on writes, the
// session's CSRF token in X-CSRF-Token (the token comes from GET /api/auth/session and sign-in/sign-up answers).

export interface ErrorDetail {
  path?: string;
  message?: string;
  nodeId?: string;
  rule?: string;
  [key: string]: unknown;
}

// ApiError is an error answer of the API: {error, code, details, requestId} and the HTTP status.
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: ErrorDetail[];
  readonly requestId: string;

  constructor(status: number, code: string, message: string, details: ErrorDetail[] = [], requestId = "") {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
  }
}

let csrfToken = "";

// setCsrfToken records the session's CSRF token; sign-out clears it with "".
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

// writeHeaders are the headers every write must carry: the CSRF token while a session holds one.
export function writeHeaders(): Record<string, string> {
  return csrfToken ? { "X-CSRF-Token": csrfToken } : {};
}

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

// request sends one API call and returns the parsed JSON answer (undefined for 204). Errors become ApiError.
export async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.body);
  }
  if (method !== "GET" && method !== "HEAD" && csrfToken) headers["X-CSRF-Token"] = csrfToken;
  const res = await fetch(path, { method, headers, body, credentials: "same-origin", signal: opts.signal });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = undefined;
  if (text !== "") {
    try {
      data = JSON.parse(text);
    } catch {
      if (!res.ok) throw new ApiError(res.status, "bad_response", text.slice(0, 200));
      throw new ApiError(res.status, "bad_response", "the server answered something other than JSON");
    }
  }
  if (!res.ok) {
    const e = (data ?? {}) as { error?: string; code?: string; details?: ErrorDetail[]; requestId?: string };
    throw new ApiError(res.status, e.code ?? "error", e.error ?? res.statusText, e.details ?? [], e.requestId ?? "");
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => request<T>("GET", path, { signal }),
  post: <T>(path: string, body?: unknown) => request<T>("POST", path, { body }),
  put: <T>(path: string, body?: unknown) => request<T>("PUT", path, { body }),
  patch: <T>(path: string, body?: unknown) => request<T>("PATCH", path, { body }),
  del: <T>(path: string) => request<T>("DELETE", path),
};
