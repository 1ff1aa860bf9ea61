// Server-Sent Events as POST /api/workflows/:id/deploy-stream sends them: a parser that takes the body in pieces as
// they arrive, and the deploy call built on it.
import { ApiError, writeHeaders, type ErrorDetail } from "./client";
import type { Deployment } from "./types";

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

export interface DeployProgress {
  stage: string;
  message: string;
  progress: number;
}

export type DeployResult = Deployment & { success: boolean; deploymentId: string };

// deployStream deploys through the streaming endpoint, calling onProgress for each stage as it arrives. It
// resolves with the deploy answer, and rejects with an ApiError for a refusal or an error event.
export async function deployStream(
  workflowId: string,
  body: { connectionId: string; versionId?: string },
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
    let e: { error?: string; code?: string; details?: ErrorDetail[]; requestId?: string } = {};
    try {
      e = JSON.parse(text) as typeof e;
    } catch {
      // not JSON: the status text says enough
    }
    throw new ApiError(res.status, e.code ?? "error", e.error ?? res.statusText, e.details ?? [], e.requestId ?? "");
  }
  const parser = new SseParser();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let result: DeployResult | undefined;
  let failure: ApiError | undefined;
  const handle = (events: SseEvent[]) => {
    for (const ev of events) {
      const data = parseData(ev.data);
      if (ev.event === "progress") onProgress(data as DeployProgress);
      else if (ev.event === "result") result = data as DeployResult;
      else if (ev.event === "error") {
        const e = data as { error?: string; code?: string; details?: ErrorDetail[]; requestId?: string };
        failure = new ApiError(res.status === 200 ? 502 : res.status, e.code ?? "deploy_failed",
          e.error ?? "the deploy failed", e.details ?? [], e.requestId ?? "");
      }
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
