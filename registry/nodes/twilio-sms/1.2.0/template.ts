// Twilio SMS 1.2.0: POST {baseUrl}/2010-04-01/Accounts/{AccountSid}/Messages.json
// (form encoded, HTTP basic auth with the account SID and auth token).
// https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource

interface Config {
  to: string;
  from?: string;
  messagingServiceSid?: string;
  body: string;
  baseUrl?: string;
}

interface Output {
  sid: string;
  status: string;
  to: string;
  from: string | null;
}

interface TwilioResponse {
  sid?: string;
  status?: string | number;
  to?: string;
  from?: string | null;
  code?: number;
  message?: string;
}

export default async function twilioSms(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const sid = ctx.env["TWILIO_ACCOUNT_SID"];
  const token = ctx.env["TWILIO_AUTH_TOKEN"];
  if (typeof sid !== "string" || sid === "") {
    throw new Error("Twilio: the secret TWILIO_ACCOUNT_SID is not set");
  }
  if (typeof token !== "string" || token === "") {
    throw new Error("Twilio: the secret TWILIO_AUTH_TOKEN is not set");
  }
  const form = new URLSearchParams();
  form.set("To", config.to);
  if (config.from) {
    form.set("From", config.from);
  } else if (config.messagingServiceSid) {
    form.set("MessagingServiceSid", config.messagingServiceSid);
  } else {
    throw new Error("Twilio: give From or a messaging service SID");
  }
  form.set("Body", config.body);

  const base = (config.baseUrl || "https://api.twilio.com").replace(/\/+$/, "");
  const res = await fetch(`${base}/2010-04-01/Accounts/${encodeURIComponent(sid)}/Messages.json`, {
    method: "POST",
    headers: {
      ...ctx.trace,
      Authorization: `Basic ${btoa(`${sid}:${token}`)}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: form.toString(),
  });
  const raw = await res.text();
  let data: TwilioResponse = {};
  try {
    data = JSON.parse(raw) as TwilioResponse;
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    const detail = data.message ? `${data.message}${data.code !== undefined ? ` (code ${data.code})` : ""}` : raw.slice(0, 500);
    throw new Error(`Twilio create message failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${detail}`);
  }
  return { sid: data.sid ?? "", status: String(data.status ?? ""), to: data.to ?? config.to, from: data.from ?? null };
}
