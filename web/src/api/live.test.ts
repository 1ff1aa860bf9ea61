import { afterEach, describe, expect, it, vi } from "vitest";
import { readRunStream, RUN_STREAM_PATH } from "./live";
import type { RunEvent } from "./models";

afterEach(() => {
  vi.unstubAllGlobals();
});

function streamOf(text: string): Response {
  return new Response(
    new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(text));
        c.close();
      },
    }),
    { status: 200, headers: { "Content-Type": "text/event-stream" } },
  );
}

describe("readRunStream", () => {
  it("reports the stream open before its changes, each with its event id", async () => {
    const fetchMock = vi.fn(async (_url: string) =>
      streamOf(': connected\n\nevent: run\nid: 7\ndata: {"id":"run_a","status":"errored"}\n\n: heartbeat\n\n'),
    );
    vi.stubGlobal("fetch", fetchMock);
    const seen: string[] = [];
    await readRunStream(new AbortController().signal, {
      onOpen: () => seen.push("open"),
      onChange: (c: RunEvent, id: string) => seen.push(`${c.id} ${c.status} ${id}`),
    });
    expect(seen).toEqual(["open", "run_a errored 7"]);
    expect(fetchMock.mock.calls[0]?.[0]).toBe(RUN_STREAM_PATH);
  });

  it("resumes after the last event received", async () => {
    const fetchMock = vi.fn(async (_url: string) => streamOf(": connected\n\n"));
    vi.stubGlobal("fetch", fetchMock);
    await readRunStream(new AbortController().signal, { onChange: () => undefined }, "42");
    expect(fetchMock.mock.calls[0]?.[0]).toBe(`${RUN_STREAM_PATH}?after=42`);
  });

  it("is not opened when the server refuses it", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("{}", { status: 401 })));
    const onOpen = vi.fn();
    await expect(readRunStream(new AbortController().signal, { onOpen, onChange: () => undefined })).rejects.toThrow(/401/);
    expect(onOpen).not.toHaveBeenCalled();
  });
});
