import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, request, setCsrfToken } from "./client";

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken("");
});

describe("request", () => {
  it("sends the CSRF token on writes and not on reads", async () => {
    const seen: Array<Record<string, string>> = [];
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      seen.push(init.headers as Record<string, string>);
      return new Response("{}", { status: 200 });
    });
    setCsrfToken("tok");
    await request("GET", "/api/workflows");
    await request("POST", "/api/workflows", { body: { name: "x" } });
    expect(seen[0]?.["X-CSRF-Token"]).toBeUndefined();
    expect(seen[1]?.["X-CSRF-Token"]).toBe("tok");
    expect(seen[1]?.["Content-Type"]).toBe("application/json");
  });

  it("turns an error answer into ApiError with its code and details", async () => {
    vi.stubGlobal("fetch", async () =>
      new Response(JSON.stringify({ error: "bad name", code: "validation_failed", details: [{ path: "/name", message: "required" }], requestId: "r1" }), { status: 422 }),
    );
    const err = await request("POST", "/api/workflows", { body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect([e.status, e.code, e.message, e.details[0]?.path, e.requestId]).toEqual([422, "validation_failed", "bad name", "/name", "r1"]);
  });
});
