import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, setCsrfToken } from "./client";
import { deployStream, SseParser, type DeployProgress } from "./sse";

afterEach(() => {
  vi.unstubAllGlobals();
  setCsrfToken("");
});

describe("SseParser", () => {
  it("parses events split anywhere across chunks", () => {
    const text =
      'event: progress\nid: 0\ndata: {"stage":"INITIALIZING"}\n\nevent: result\nid: 1\ndata: {"ok":true}\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const p = new SseParser();
      const events = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut)), ...p.end()];
      expect(events).toEqual([
        { event: "progress", id: "0", data: '{"stage":"INITIALIZING"}' },
        { event: "result", id: "1", data: '{"ok":true}' },
      ]);
    }
  });

  it("accepts CRLF and CR line ends, joins data lines, skips comments", () => {
    const p = new SseParser();
    const events = [...p.push(": keep-alive\r\nevent: x\r\ndata: a\r\ndata: b\r\n\r\ndata:c\r\r"), ...p.end()];
    expect(events).toEqual([
      { event: "x", id: "", data: "a\nb" },
      { event: "message", id: "", data: "c" },
    ]);
  });

  it("waits for the \\n of a \\r\\n split across chunks", () => {
    const p = new SseParser();
    expect(p.push("data: a\r")).toEqual([]);
    expect(p.push("\n\r\n")).toEqual([{ event: "message", id: "", data: "a" }]);
  });

  it("flushes a last event the stream closed without a blank line", () => {
    const p = new SseParser();
    expect(p.push("event: result\ndata: 1")).toEqual([]);
    expect(p.end()).toEqual([{ event: "result", id: "", data: "1" }]);
  });
});

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  return new ReadableStream({
    start(c) {
      for (const ch of chunks) c.enqueue(enc.encode(ch));
      c.close();
    },
  });
}

describe("deployStream", () => {
  it("reports each stage and resolves with the result, sending the CSRF token", async () => {
    let headers: Record<string, string> = {};
    vi.stubGlobal("fetch", async (_url: string, init: RequestInit) => {
      headers = init.headers as Record<string, string>;
      return new Response(
        streamOf([
          'event: progress\nid: 0\ndata: {"stage":"INITIALIZING","message":"m","progress":5}\n\nevent: prog',
          'ress\nid: 1\ndata: {"stage":"COMPLETED","message":"done","progress":100}\n\n',
          'event: result\nid: 2\ndata: {"id":"dep_1","url":"http://x","success":true}\n\n',
        ]),
        { status: 200, headers: { "Content-Type": "text/event-stream" } },
      );
    });
    setCsrfToken("tok");
    const seen: DeployProgress[] = [];
    const r = await deployStream("wf_1", { connectionId: "con_1" }, (p) => seen.push(p));
    expect(headers["X-CSRF-Token"]).toBe("tok");
    expect(seen.map((s) => s.stage)).toEqual(["INITIALIZING", "COMPLETED"]);
    expect(r.id).toBe("dep_1");
  });

  it("rejects with the error event's code and message", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(
          streamOf([
            'event: progress\ndata: {"stage":"INITIALIZING","message":"m","progress":5}\n\n',
            'event: error\ndata: {"error":"bundle failed","code":"deploy_failed","details":[{"path":"/nodes/0"}]}\n\n',
          ]),
          { status: 200 },
        ),
    );
    const err = await deployStream("wf_1", { connectionId: "c" }, () => undefined).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe("deploy_failed");
    expect((err as ApiError).message).toBe("bundle failed");
    expect((err as ApiError).details[0]?.path).toBe("/nodes/0");
  });

  it("turns a refusal before the stream into ApiError", async () => {
    vi.stubGlobal(
      "fetch",
      async () =>
        new Response(JSON.stringify({ error: "no such connection", code: "not_found", details: [] }), { status: 404 }),
    );
    const err = await deployStream("wf_1", { connectionId: "c" }, () => undefined).catch((e: unknown) => e);
    expect((err as ApiError).status).toBe(404);
    expect((err as ApiError).code).toBe("not_found");
  });

  it("rejects a stream that ends without a result", async () => {
    vi.stubGlobal(
      "fetch",
      async () => new Response(streamOf(['event: progress\ndata: {"stage":"A"}\n\n']), { status: 200 }),
    );
    const err = await deployStream("wf_1", { connectionId: "c" }, () => undefined).catch((e: unknown) => e);
    expect((err as ApiError).message).toMatch(/without a result/);
  });
});
