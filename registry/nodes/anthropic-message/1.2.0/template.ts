// Anthropic Claude 1.2.0: POST {baseUrl}/v1/messages.
// https://docs.anthropic.com/en/api/messages

interface Config {
  model: string;
  system?: string;
  prompt: string;
  maxTokens: number;
  temperature?: number;
  baseUrl?: string;
}

interface Output {
  id: string;
  text: string;
  model: string;
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number };
}

interface MessageResponse {
  id?: string;
  model?: string;
  content?: { type: string; text?: string }[];
  stop_reason?: string | null;
  usage?: { input_tokens?: number; output_tokens?: number };
  error?: { type?: string; message?: string };
}

export default async function anthropicMessage(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const apiKey = ctx.env["ANTHROPIC_API_KEY"];
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new Error("Anthropic: the secret ANTHROPIC_API_KEY is not set");
  }
  const body: Record<string, unknown> = {
    model: config.model,
    max_tokens: config.maxTokens,
    messages: [{ role: "user", content: config.prompt }],
  };
  if (config.system) body.system = config.system;
  if (typeof config.temperature === "number") body.temperature = config.temperature;

  const base = (config.baseUrl || "https://api.anthropic.com").replace(/\/+$/, "");
  const res = await fetch(`${base}/v1/messages`, {
    method: "POST",
    headers: {
      ...ctx.trace,
      "x-api-key": apiKey,
      "anthropic-version": "2023-06-01",
      "content-type": "application/json",
    },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  let data: MessageResponse = {};
  try {
    data = JSON.parse(raw) as MessageResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    const detail = data.error?.message ? `${data.error.type ? `${data.error.type}: ` : ""}${data.error.message}` : raw.slice(0, 500);
    throw new Error(`Anthropic messages failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  const text = (data.content ?? [])
    .filter((block) => block.type === "text")
    .map((block) => block.text ?? "")
    .join("");
  return {
    id: data.id ?? "",
    text,
    model: data.model ?? config.model,
    stopReason: data.stop_reason ?? "",
    usage: { inputTokens: data.usage?.input_tokens ?? 0, outputTokens: data.usage?.output_tokens ?? 0 },
  };
}
