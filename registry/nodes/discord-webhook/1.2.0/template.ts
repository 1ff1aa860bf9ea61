// Discord Webhook 1.2.0: POST {webhookUrl}?wait=true (Execute Webhook).
// https://discord.com/developers/docs/resources/webhook#execute-webhook

interface Config {
  content: string;
  username?: string;
  avatarUrl?: string;
  threadId?: string;
  allowMentions?: boolean;
}

interface Output {
  id: string;
  channelId: string;
}

interface DiscordResponse {
  id?: string;
  channel_id?: string;
  message?: string;
  code?: number;
}

export default async function discordWebhook(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const webhook = ctx.env["DISCORD_WEBHOOK_URL"];
  if (typeof webhook !== "string" || webhook === "") {
    throw new Error("Discord: the secret DISCORD_WEBHOOK_URL is not set");
  }
  let url: URL;
  try {
    url = new URL(webhook);
  } catch {
    throw new Error("Discord: DISCORD_WEBHOOK_URL is not a URL");
  }
  url.searchParams.set("wait", "true");
  if (config.threadId) {
    url.searchParams.set("thread_id", config.threadId);
  }
  const body: Record<string, unknown> = { content: config.content };
  if (config.username) body.username = config.username;
  if (config.avatarUrl) body.avatar_url = config.avatarUrl;
  if (!config.allowMentions) body.allowed_mentions = { parse: [] };
  const res = await fetch(url.toString(), {
    method: "POST",
    headers: { ...ctx.trace, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  let data: DiscordResponse = {};
  try {
    data = JSON.parse(raw) as DiscordResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    const detail = data.message ? `${data.message}${data.code !== undefined ? ` (code ${data.code})` : ""}` : raw.slice(0, 500);
    throw new Error(`Discord webhook failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  return { id: data.id ?? "", channelId: data.channel_id ?? "" };
}
