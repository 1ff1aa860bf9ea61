// Server-Sent Events as POST /api/workflows/:id/deploy-stream sends them: a parser that takes the body in pieces as
// they arrive, and the deploy call built on it. The events of a stream are typed from the route's text/event-stream
// answer in the OpenAPI document (schema.gen.ts): one {event, id, data} per event name.
import { apiError, ApiError, writeHeaders } from "./client";
import type { paths } from "./schema.gen";

// StreamEvent is the union of the events of the stream the route at path answers to method, as a client reads
// them: narrowing on `event` gives the type of `data`.
export type StreamEvent<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: { 200: { content: { "text/event-stream": infer E } } };
}
  ? E
  : never;

// EventData is the data of the event named name of a stream's events E.
export type EventData<E, Name extends string> = Extract<E, { event: Name }> extends { data: infer D } ? D : never;

export interface SseEvent {
  event: string;
  id: string;
  data: string;
}

// SseParser turns chunks of an event stream into events. It keeps an unfinished line or event until the rest
// arrives; lines end with \n, \r\n or \r; comments (":") are skipped; several data lines are joined with \n.
export class SseParser {
  private buffer = "";
  private event = "";
  private id = "";
  private data: string[] = [];
  private hasData = false;

  push(chunk: string): SseEvent[] {
    this.buffer += chunk;
    const out: SseEvent[] = [];
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) break;
      // a lone \r at the very end may be the first half of \r\n: wait for the next chunk
      if (m[0] === "\r" && m.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const ev = this.line(line);
      if (ev) out.push(ev);
    }
    return out;
  }

  // end flushes an event that the stream's end closed without a blank line.
  end(): SseEvent[] {
    // a last lone \r ends its line after all
    const out: SseEvent[] = this.buffer.endsWith("\r") ? this.push("\n") : [];
    if (this.buffer !== "") {
      const ev = this.line(this.buffer);
      this.buffer = "";
      if (ev) out.push(ev);
    }
    const ev = this.line("");
    if (ev) out.push(ev);
    return out;
  }

  private line(line: string): SseEvent | undefined {
    if (line === "") {
      if (!this.hasData) {
        this.event = "";
        return undefined;
      }
      const ev = { event: this.event || "message", id: this.id, data: this.data.join("\n") };
      this.event = "";
      this.data = [];
      this.hasData = false;
      return ev;
    }
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "id") this.id = value;
    else if (field === "data") {
      this.data.push(value);
      this.hasData = true;
    }
    return undefined;
  }
}

type DeployPath = "/api/workflows/{workflowId}/deploy-stream";
export type DeployEvent = StreamEvent<DeployPath, "post">;
export type DeployProgress = EventData<DeployEvent, "progress">;
export type DeployResult = EventData<DeployEvent, "result">;
type DeployRequest = NonNullable<paths[DeployPath]["post"]["requestBody"]>["content"]["application/json"];

// deployStream deploys through the streaming endpoint, calling onProgress for each stage as it arrives. It
// resolves with the deploy answer, and rejects with an ApiError for a refusal or an error event.
export async function deployStream(
  workflowId: string,
  body: DeployRequest,
  onProgress: (p: DeployProgress) => void,
  signal?: AbortSignal,
): Promise<DeployResult> {
  const res = await fetch(`/api/workflows/${encodeURIComponent(workflowId)}/deploy-stream`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream", ...writeHeaders() },
    body: JSON.stringify(body),
    credentials: "same-origin",
    signal,
  });
  if (!res.ok || !res.body) {
    const text = await res.text();
    let e = {};
    try {
      e = JSON.parse(text) as object;
    } catch {
      // not JSON: the status text says enough
    }
    throw apiError(res.status, e, "error", res.statusText);
  }
  const parser = new SseParser();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let result: DeployResult | undefined;
  let failure: ApiError | undefined;
  const handle = (events: SseEvent[]) => {
    for (const frame of events) {
      // the server's frames are the route's events; a frame that is not JSON becomes {message}
      const ev = { event: frame.event, id: frame.id, data: parseData(frame.data) } as DeployEvent;
      if (ev.event === "progress") onProgress(ev.data);
      else if (ev.event === "result") result = ev.data;
      else if (ev.event === "error")
        failure = apiError(res.status === 200 ? 502 : res.status, ev.data, "deploy_failed", "the deploy failed");
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    handle(parser.push(value));
  }
  handle(parser.end());
  if (failure) throw failure;
  if (!result) throw new ApiError(502, "deploy_failed", "the deploy stream ended without a result");
  return result;
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return { message: data };
  }
}
