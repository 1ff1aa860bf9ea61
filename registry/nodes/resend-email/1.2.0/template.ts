// Resend Email 1.2.0: POST {baseUrl}/emails.
// https://resend.com/docs/api-reference/emails/send-email

interface Config {
  from: string;
  to: string;
  subject: string;
  html?: string;
  text?: string;
  cc?: string;
  bcc?: string;
  replyTo?: string;
  idempotencyKey?: string;
  baseUrl?: string;
}

interface Output {
  id: string;
}

interface ResendResponse {
  id?: string;
  message?: string;
  name?: string;
}

function addresses(list: string | undefined): string[] {
  return (list ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export default async function resendEmail(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const apiKey = ctx.env["RESEND_API_KEY"];
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new Error("Resend: the secret RESEND_API_KEY is not set");
  }
  const to = addresses(config.to);
  if (to.length === 0) {
    throw new Error("Resend: no recipient in 'to'");
  }
  if (!config.html && !config.text) {
    throw new Error("Resend: give an HTML body, a text body or both");
  }
  const body: Record<string, unknown> = { from: config.from, to, subject: config.subject };
  if (config.html) body.html = config.html;
  if (config.text) body.text = config.text;
  const cc = addresses(config.cc);
  const bcc = addresses(config.bcc);
  const replyTo = addresses(config.replyTo);
  if (cc.length > 0) body.cc = cc;
  if (bcc.length > 0) body.bcc = bcc;
  if (replyTo.length > 0) body.reply_to = replyTo;

  const headers: Record<string, string> = {
    ...ctx.trace,
    Authorization: `Bearer ${apiKey}`,
    "Content-Type": "application/json",
  };
  if (config.idempotencyKey) {
    headers["Idempotency-Key"] = config.idempotencyKey;
  }
  const base = (config.baseUrl || "https://api.resend.com").replace(/\/+$/, "");
  const res = await fetch(`${base}/emails`, { method: "POST", headers, body: JSON.stringify(body) });
  const raw = await res.text();
  let data: ResendResponse = {};
  try {
    data = JSON.parse(raw) as ResendResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    const detail = data.message ? `${data.name ? `${data.name}: ` : ""}${data.message}` : raw.slice(0, 500);
    throw new Error(`Resend send email failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  if (!data.id) {
    throw new Error("Resend send email failed: the response has no email id");
  }
  return { id: data.id };
}
