// Live run data: which run routes this server has (read from its OpenAPI document), the project's run changes as
// GET /api/runs/stream sends them (Server-Sent Events), and polling where the server has no stream.
import { useEffect, useRef, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { ApiError } from "./client";
import { openapiQueries } from "./queries/openapi";
import { SseParser, type EventData, type StreamEvent } from "./sse";

export const RUN_STREAM_PATH = "/api/runs/stream";

// RunChange is a run's change as the run stream sends it: the data of the route's `run` event (models' RunEvent).
type RunChange = EventData<StreamEvent<typeof RUN_STREAM_PATH, "get">, "run">;
export const RUN_LOGS_PATTERN = "/api/workflows/{workflowId}/runs/{runId}/logs";

// useApiPaths answers the route patterns of this server's API (the paths of GET /api/openapi.json), read once.
export function useApiPaths(): ReadonlySet<string> | undefined {
  return useQuery(openapiQueries.paths()).data;
}

// readRunStream reads GET /api/runs/stream until signal aborts or the stream ends. onOpen is called once the server
// has subscribed the stream (changes from then on arrive), onChange for each run change with the event's id. With
// after (the id of the last event received) the server first sends again the changes since that event, so that a
// reconnect loses nothing. It resolves when the stream ends and rejects on a refusal or a network failure.
export async function readRunStream(
  signal: AbortSignal,
  handlers: { onOpen?: () => void; onChange: (c: RunChange, id: string) => void },
  after = "",
): Promise<void> {
  const url = after ? `${RUN_STREAM_PATH}?after=${encodeURIComponent(after)}` : RUN_STREAM_PATH;
  const res = await fetch(url, { headers: { Accept: "text/event-stream" }, credentials: "same-origin", signal });
  if (!res.ok || !res.body) throw new ApiError(res.status, "stream_failed", `the run stream answered ${res.status}`);
  handlers.onOpen?.();
  const parser = new SseParser();
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const deliver = (events: ReturnType<SseParser["push"]>) => {
    for (const ev of events) {
      if (ev.event !== "message" && ev.event !== "run") continue;
      try {
        const c = JSON.parse(ev.data) as RunChange;
        if (typeof c.id === "string" && typeof c.status === "string") handlers.onChange(c, ev.id);
      } catch {
        // a line that is not a run change is skipped
      }
    }
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    deliver(parser.push(value));
  }
  deliver(parser.end());
}

export type LiveMode = "connecting" | "stream" | "polling";

// useRunChanges calls onChange for every run change of the active project. Where the server has the run stream it
// listens to it (reconnecting after 1, 2, 4 … 30 s when it breaks, resuming after the last event received) and
// answers mode "stream"; otherwise it answers "polling" and the caller refreshes on its own timer (the lists refetch
// every few seconds). onChange is also called without a change each time the stream opens: what the caller read
// before that may have changed unseen, so it reads again.
export function useRunChanges(onChange: (c?: RunChange) => void): LiveMode {
  const paths = useApiPaths();
  const hasStream = paths?.has(RUN_STREAM_PATH) ?? false;
  const [mode, setMode] = useState<LiveMode>("connecting");
  const handler = useRef(onChange);
  handler.current = onChange;
  useEffect(() => {
    if (!paths) return;
    if (!hasStream) {
      setMode("polling");
      return;
    }
    const abort = new AbortController();
    let delay = 1_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastId = "";
    const connect = () => {
      readRunStream(
        abort.signal,
        {
          onOpen: () => {
            setMode("stream");
            handler.current();
          },
          onChange: (c, id) => {
            delay = 1_000;
            if (id) lastId = id;
            handler.current(c);
          },
        },
        lastId,
      )
        .catch(() => undefined)
        .finally(() => {
          if (abort.signal.aborted) return;
          setMode("polling"); // until the stream is back, the lists poll
          timer = setTimeout(connect, delay);
          delay = Math.min(delay * 2, 30_000);
        });
    };
    connect();
    return () => {
      abort.abort();
      if (timer) clearTimeout(timer);
    };
  }, [paths, hasStream]);
  return mode;
}
