// OpenAI Chat 1.3.0: POST {baseUrl}/chat/completions, with a token limit
// and JSON mode.
// https://platform.openai.com/docs/api-reference/chat/create

interface Config {
  model: string;
  system?: string;
  prompt: string;
  temperature?: number;
  maxTokens?: number;
  responseFormat?: "text" | "json_object";
  baseUrl?: string;
}

interface Output {
  text: string;
  json: unknown;
  model: string;
  finishReason: string;
  usage: { promptTokens: number; completionTokens: number; totalTokens: number };
}

interface CompletionResponse {
  model?: string;
  choices?: { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number };
  error?: { message?: string; type?: string; code?: string | null };
}

export default async function openaiChat(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const apiKey = ctx.env["OPENAI_API_KEY"];
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new Error("OpenAI: the secret OPENAI_API_KEY is not set");
  }
  const messages: { role: string; content: string }[] = [];
  if (config.system) messages.push({ role: "system", content: config.system });
  messages.push({ role: "user", content: config.prompt });
  const body: Record<string, unknown> = { model: config.model, messages };
  if (typeof config.temperature === "number") body.temperature = config.temperature;
  if (typeof config.maxTokens === "number") body.max_completion_tokens = config.maxTokens;
  const jsonMode = config.responseFormat === "json_object";
  if (jsonMode) body.response_format = { type: "json_object" };

  const base = (config.baseUrl || "https://api.openai.com/v1").replace(/\/+$/, "");
  const res = await fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { ...ctx.trace, Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const raw = await res.text();
  let data: CompletionResponse = {};
  try {
    data = JSON.parse(raw) as CompletionResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    throw new Error(`OpenAI chat completion failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${data.error?.message ?? raw.slice(0, 500)}`);
  }
  const choice = data.choices?.[0];
  if (!choice) {
    throw new Error("OpenAI chat completion failed: the response has no choices");
  }
  const text = choice.message?.content ?? choice.message?.refusal ?? "";
  let json: unknown = null;
  if (jsonMode && choice.message?.content) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new Error(`OpenAI chat completion returned text that is not JSON (finish reason ${choice.finish_reason ?? "unknown"})`);
    }
  }
  return {
    text,
    json,
    model: data.model ?? config.model,
    finishReason: choice.finish_reason ?? "",
    usage: {
      promptTokens: data.usage?.prompt_tokens ?? 0,
      completionTokens: data.usage?.completion_tokens ?? 0,
      totalTokens: data.usage?.total_tokens ?? 0,
    },
  };
}
