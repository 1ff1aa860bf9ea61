// The one way Studio talks to edgeflow: the public API under /api, with the session cookie and, on writes, the
// session's CSRF token in X-CSRF-Token (the token comes from GET /api/auth/session and sign-in/sign-up answers).
// Calls are typed by path from the OpenAPI document (schema.gen.ts, `make apidoc`): `api.GET("/api/runs/{runId}",
// { params: { path: { runId } } })` takes that route's parameters and body and answers its JSON type.
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./schema.gen";

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

// errorBody is the API's error answer as far as it can be read: any field may be missing from a body that did not
// come from edgeflow (a proxy's page).
interface ErrorBody {
  error?: string;
  code?: string;
  // a list of ErrorDetail; a stream's error event declares it as any JSON
  details?: unknown;
  requestId?: string;
}

// apiError is the ApiError of an error answer, or of an error event of a stream, with the code and message to use
// where the body has none.
export function apiError(status: number, body: ErrorBody, fallbackCode = "error", fallbackMessage = ""): ApiError {
  const details = Array.isArray(body.details) ? (body.details as ErrorDetail[]) : [];
  return new ApiError(status, body.code ?? fallbackCode, body.error ?? fallbackMessage, details, body.requestId ?? "");
}

// checked is the middleware every call goes through: it adds the CSRF token to writes, turns an answer that is not a
// success into ApiError (so that a call's promise rejects with it), and refuses a success that is not JSON.
const checked: Middleware = {
  onRequest({ request }) {
    if (request.method !== "GET" && request.method !== "HEAD" && csrfToken)
      request.headers.set("X-CSRF-Token", csrfToken);
    return request;
  },
  async onResponse({ response }) {
    if (response.status === 204) return undefined;
    const text = await response.text();
    let data: unknown = undefined;
    if (text !== "") {
      try {
        data = JSON.parse(text);
      } catch {
        if (!response.ok) throw new ApiError(response.status, "bad_response", text.slice(0, 200));
        throw new ApiError(response.status, "bad_response", "the server answered something other than JSON");
      }
    }
    if (!response.ok) throw apiError(response.status, (data ?? {}) as ErrorBody, "error", response.statusText);
    // the body was read and parsed here: the client takes both from a copy without a body rather than copying the
    // text into a new one and parsing it again (a 5,000-node workflow's answer is megabytes, decision 741)
    // (with a length, so that the client asks the copy's json(): without one, as for a chunked answer, it would
    // parse text() again)
    const headers = new Headers(response.headers);
    if (!headers.has("Content-Length")) headers.set("Content-Length", String(text.length));
    const copy = new Response(null, { status: response.status, statusText: response.statusText, headers });
    copy.text = () => Promise.resolve(text);
    copy.json = () => Promise.resolve(data);
    return copy;
  },
};

// api is the typed client of the API (JSON answers only; streams have their own readers, sse.ts and live.ts).
export const api = createClient<paths, "application/json">({
  // a Request needs an absolute URL outside a browser (the unit tests); in Studio this is the page's own origin
  baseUrl: globalThis.location?.origin ?? "",
  credentials: "same-origin",
  headers: { Accept: "application/json" },
  // the fetch of the moment, not the one at load time (tests replace it)
  fetch: (request) => globalThis.fetch(request),
});
api.use(checked);

// ok answers the data of a call. A call that did not succeed has already rejected with ApiError (the middleware
// above), so the answer is the route's success type; for a 204 it is undefined.
export async function ok<T>(call: Promise<{ data?: T; error?: unknown }>): Promise<T> {
  return (await call).data as T;
}

// pageQuery is the query of one page of a list: limit records after cursor ("" for the first page).
export function pageQuery(limit: number, cursor = ""): { limit: number; cursor?: string } {
  return cursor ? { limit, cursor } : { limit };
}
