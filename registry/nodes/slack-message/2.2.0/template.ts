// Slack Message 2.2.0: POST {baseUrl}/chat.postMessage with a bot token,
// with Block Kit blocks and thread replies.
// https://api.slack.com/methods/chat.postMessage

interface Config {
  channel: string;
  text: string;
  blocks?: unknown;
  threadTs?: string;
  unfurlLinks?: boolean;
  baseUrl?: string;
}

interface Output {
  channel: string;
  ts: string;
  threadTs: string | null;
}

interface PostMessageResponse {
  ok?: boolean;
  error?: string;
  channel?: string;
  ts?: string;
  message?: { thread_ts?: string };
}

export default async function slackMessage(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const token = ctx.env["SLACK_BOT_TOKEN"];
  if (typeof token !== "string" || token === "") {
    throw new Error("Slack: the secret SLACK_BOT_TOKEN is not set");
  }
  const body: Record<string, unknown> = {
    channel: config.channel,
    text: config.text,
    unfurl_links: config.unfurlLinks ?? false,
  };
  if (config.blocks !== undefined && config.blocks !== null && config.blocks !== "") {
    if (!Array.isArray(config.blocks)) {
      throw new Error("Slack: blocks must be a JSON array of Block Kit blocks");
    }
    body.blocks = config.blocks;
  }
  if (config.threadTs) {
    body.thread_ts = config.threadTs;
  }
  const base = (config.baseUrl || "https://slack.com/api").replace(/\/+$/, "");
  const res = await fetch(`${base}/chat.postMessage`, {
    method: "POST",
    headers: {
      ...ctx.trace,
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json; charset=utf-8",
    },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  let data: PostMessageResponse = {};
  try {
    data = JSON.parse(raw) as PostMessageResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    throw new Error(`Slack chat.postMessage failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${data.error ?? raw.slice(0, 500)}`);
  }
  if (data.ok !== true) {
    throw new Error(`Slack chat.postMessage failed: ${data.error ?? "unknown error"}`);
  }
  return { channel: data.channel ?? "", ts: data.ts ?? "", threadTs: data.message?.thread_ts ?? null };
}
