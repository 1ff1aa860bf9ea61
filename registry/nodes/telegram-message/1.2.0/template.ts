// Telegram Message 1.2.0: POST {baseUrl}/bot<token>/sendMessage.
// https://core.telegram.org/bots/api#sendmessage

interface Config {
  chatId: string;
  text: string;
  parseMode?: "none" | "MarkdownV2" | "HTML";
  disableNotification?: boolean;
  baseUrl?: string;
}

interface Output {
  messageId: number;
  chatId: number;
  date: number;
}

interface TelegramResponse {
  ok?: boolean;
  description?: string;
  error_code?: number;
  result?: { message_id?: number; date?: number; chat?: { id?: number } };
}

export default async function telegramMessage(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const token = ctx.env["TELEGRAM_BOT_TOKEN"];
  if (typeof token !== "string" || token === "") {
    throw new Error("Telegram: the secret TELEGRAM_BOT_TOKEN is not set");
  }
  const body: Record<string, unknown> = {
    chat_id: config.chatId,
    text: config.text,
    disable_notification: config.disableNotification ?? false,
  };
  if (config.parseMode && config.parseMode !== "none") {
    body.parse_mode = config.parseMode;
  }
  const base = (config.baseUrl || "https://api.telegram.org").replace(/\/+$/, "");
  // The token is part of the path: never put the URL into an error message.
  const res = await fetch(`${base}/bot${token}/sendMessage`, {
    method: "POST",
    headers: { ...ctx.trace, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  let data: TelegramResponse = {};
  try {
    data = JSON.parse(raw) as TelegramResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok || data.ok !== true) {
    throw new Error(`Telegram sendMessage failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${data.description ?? raw.slice(0, 500)}`);
  }
  const msg = data.result ?? {};
  return { messageId: msg.message_id ?? 0, chatId: msg.chat?.id ?? 0, date: msg.date ?? 0 };
}
