// Stripe Customer Lookup 1.2.0: GET {baseUrl}/v1/customers/{id}, or
// GET {baseUrl}/v1/customers?email=…&limit=1.
// https://docs.stripe.com/api/customers/retrieve
// https://docs.stripe.com/api/customers/list

interface Config {
  lookup: "id" | "email";
  customerId?: string;
  email?: string;
  baseUrl?: string;
}

interface Customer {
  id: string;
  deleted?: boolean;
  [key: string]: unknown;
}

interface Output {
  found: boolean;
  customer: Customer | null;
}

interface StripeError {
  error?: { type?: string; code?: string; message?: string };
}

export default async function stripeCustomer(ctx: { config: Config; env: Record<string, unknown>; trace?: Record<string, string> }): Promise<Output> {
  const { config } = ctx;
  const apiKey = ctx.env["STRIPE_SECRET_KEY"];
  if (typeof apiKey !== "string" || apiKey === "") {
    throw new Error("Stripe: the secret STRIPE_SECRET_KEY is not set");
  }
  const base = (config.baseUrl || "https://api.stripe.com").replace(/\/+$/, "");
  let url: string;
  if (config.lookup === "email") {
    if (!config.email) throw new Error("Stripe: give the email to find");
    url = `${base}/v1/customers?${new URLSearchParams({ email: config.email, limit: "1" }).toString()}`;
  } else {
    if (!config.customerId) throw new Error("Stripe: give the customer ID to find");
    url = `${base}/v1/customers/${encodeURIComponent(config.customerId)}`;
  }
  const res = await fetch(url, { method: "GET", headers: { ...ctx.trace, Authorization: `Bearer ${apiKey}` } });
  const raw = await res.text();
  let data: unknown = null;
  try {
    data = JSON.parse(raw);
  } catch {
    // not JSON: reported below with the status
  }
  // The service's Retry-After, which retries.delay "retry-after" reads from the error.
  const wait = res.headers.get("retry-after");
  if (!res.ok) {
    const err = (data as StripeError | null)?.error;
    if (res.status === 404 && err?.code === "resource_missing") {
      return { found: false, customer: null };
    }
    throw new Error(`Stripe customer lookup failed: HTTP ${res.status}${wait ? ` (Retry-After: ${wait})` : ""}: ${err?.message ?? raw.slice(0, 500)}`);
  }
  let customer: Customer | null;
  if (config.lookup === "email") {
    customer = ((data as { data?: Customer[] } | null)?.data ?? [])[0] ?? null;
  } else {
    customer = data as Customer | null;
  }
  if (!customer || customer.deleted === true) {
    return { found: false, customer: null };
  }
  return { found: true, customer };
}
