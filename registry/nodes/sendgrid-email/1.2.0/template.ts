// SendGrid Email 1.2.0: POST {baseUrl}/v3/mail/send.
// https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send

interface Config {
  from: string;
  fromName?: string;
  to: string;
  cc?: string;
  bcc?: string;
  replyTo?: string;
  subject: string;
  text?: string;
  html?: string;
  baseUrl?: string;
}

interface Output {
  messageId: string | null;
  status: number;
}

interface SendGridError {
  errors?: { message?: string; field?: string | null }[];
}

function recipients(list: string | undefined): { email: string }[] {
  return (list ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((email) => ({ email }));
}

export default async function sendgridEmail(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const apiKey = ctx.env["SENDGRID_API_KEY"];
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new Error("SendGrid: the secret SENDGRID_API_KEY is not set");
  }
  const to = recipients(config.to);
  if (to.length === 0) {
    throw new Error("SendGrid: no recipient in 'to'");
  }
  // SendGrid requires text/plain before text/html.
  const content: { type: string; value: string }[] = [];
  if (config.text) content.push({ type: "text/plain", value: config.text });
  if (config.html) content.push({ type: "text/html", value: config.html });
  if (content.length === 0) {
    throw new Error("SendGrid: give a text body, an HTML body or both");
  }
  const personalization: Record<string, unknown> = { to };
  const cc = recipients(config.cc);
  const bcc = recipients(config.bcc);
  if (cc.length > 0) personalization.cc = cc;
  if (bcc.length > 0) personalization.bcc = bcc;
  const body: Record<string, unknown> = {
    personalizations: [personalization],
    from: config.fromName ? { email: config.from, name: config.fromName } : { email: config.from },
    subject: config.subject,
    content,
  };
  if (config.replyTo) body.reply_to = { email: config.replyTo };

  const base = (config.baseUrl || "https://api.sendgrid.com").replace(/\/+$/, "");
  const res = await fetch(`${base}/v3/mail/send`, {
    method: "POST",
    headers: { ...ctx.trace, Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    const raw = await res.text();
    let detail = raw.slice(0, 500);
    try {
      const data = JSON.parse(raw) as SendGridError;
      if (data.errors && data.errors.length > 0) {
        detail = data.errors.map((e) => (e.field ? `${e.field}: ${e.message ?? ""}` : e.message ?? "")).join("; ");
      }
    } catch {
      // not JSON: keep the text
    }
    throw new Error(`SendGrid mail send failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  await res.body?.cancel();
  return { messageId: res.headers.get("X-Message-Id"), status: res.status };
}
