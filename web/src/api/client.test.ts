import { afterEach, describe, expect, it, vi } from "vitest";
import { api, ApiError, ok, setCsrfToken } from "./client";

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken("");
});

// headersOf are the headers of a request the client sent, by the names the assertions use.
function headersOf(req: Request): Record<string, string | undefined> {
  const h: Record<string, string | undefined> = {};
  for (const name of ["X-CSRF-Token", "Content-Type", "Accept"]) h[name] = req.headers.get(name) ?? undefined;
  return h;
}

describe("the typed client", () => {
  it("sends the CSRF token on writes and not on reads", async () => {
    const seen: Array<Record<string, string | undefined>> = [];
    vi.stubGlobal("fetch", async (req: Request) => {
      seen.push(headersOf(req));
      return new Response("{}", { status: 200 });
    });
    setCsrfToken("tok");
    await ok(api.GET("/api/workflows"));
    await ok(api.POST("/api/workflows", { body: { name: "x" } }));
    expect(seen[0]?.["X-CSRF-Token"]).toBeUndefined();
    expect(seen[1]?.["X-CSRF-Token"]).toBe("tok");
    expect(seen[1]?.["Content-Type"]).toBe("application/json");
  });

  it("parses a success answer once, with or without a length", async () => {
    const parse = vi.spyOn(JSON, "parse");
    for (const headers of [{ "Content-Length": "30" }, {}] as Record<string, string>[]) {
      vi.stubGlobal("fetch", async () => new Response('{"data":[{"id":"wf_1"}],"x":1}', { status: 200, headers }));
      parse.mockClear();
      const got = await ok(api.GET("/api/workflows"));
      expect(got).toEqual({ data: [{ id: "wf_1" }], x: 1 });
      expect(parse).toHaveBeenCalledTimes(1);
    }
    parse.mockRestore();
  });

  it("turns an error answer into ApiError with its code and details", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(
          JSON.stringify({
            error: "bad name",
            code: "validation_failed",
            details: [{ path: "/name", message: "required" }],
            requestId: "r1",
          }),
          { status: 422 },
        ),
    );
    const err = await ok(api.POST("/api/workflows", { body: {} })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect([e.status, e.code, e.message, e.details[0]?.path, e.requestId]).toEqual([
      422,
      "validation_failed",
      "bad name",
      "/name",
      "r1",
    ]);
  });

  it("fills in a route's path parameters, encoded, and its query", async () => {
    const urls: string[] = [];
    vi.stubGlobal("fetch", async (req: Request) => {
      urls.push(new URL(req.url).pathname + new URL(req.url).search);
      return new Response(JSON.stringify({ data: [], nextCursor: null }), { status: 200 });
    });
    await ok(
      api.GET("/api/workflows/{workflowId}/runs", { params: { path: { workflowId: "wf 1/x" }, query: { limit: 20 } } }),
    );
    expect(urls).toEqual(["/api/workflows/wf%201%2Fx/runs?limit=20"]);
  });

  it("answers undefined for 204 and refuses a success that is not JSON", async () => {
    vi.stubGlobal("fetch", async () => new Response(null, { status: 204 }));
    expect(await ok(api.DELETE("/api/workflows/{id}", { params: { path: { id: "wf_1" } } }))).toBeUndefined();
    vi.stubGlobal("fetch", async () => new Response("<html>proxy</html>", { status: 200 }));
    const err = await ok(api.GET("/api/workflows")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect([(err as ApiError).code, (err as ApiError).message]).toEqual([
      "bad_response",
      "the server answered something other than JSON",
    ]);
  });
});
