// Slack Message 1.0.0: POST {baseUrl}/chat.postMessage with a bot token.
// https://api.slack.com/methods/chat.postMessage

interface Config {
  channel: string;
  text: string;
  baseUrl?: string;
}

interface Output {
  channel: string;
  ts: string;
}

interface PostMessageResponse {
  ok?: boolean;
  error?: string;
  channel?: string;
  ts?: string;
}

export default async function slackMessage(ctx: { config: Config; env: Record<string, unknown> }): Promise<Output> {
  const token = ctx.env["SLACK_BOT_TOKEN"];
  if (typeof token !== "string" || token === "") {
    throw new Error("Slack: the secret SLACK_BOT_TOKEN is not set");
  }
  const base = (ctx.config.baseUrl || "https://slack.com/api").replace(/\/+$/, "");
  const res = await fetch(`${base}/chat.postMessage`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": "application/json; charset=utf-8",
    },
    body: JSON.stringify({ channel: ctx.config.channel, text: ctx.config.text }),
  });
  const raw = await res.text();
  let data: PostMessageResponse = {};
  try {
    data = JSON.parse(raw) as PostMessageResponse;
  } catch {
    // not JSON: reported below with the status
  }
  if (!res.ok) {
    throw new Error(`Slack chat.postMessage failed: HTTP ${res.status}: ${data.error ?? raw.slice(0, 500)}`);
  }
  if (data.ok !== true) {
    throw new Error(`Slack chat.postMessage failed: ${data.error ?? "unknown error"}`);
  }
  return { channel: data.channel ?? "", ts: data.ts ?? "" };
}
