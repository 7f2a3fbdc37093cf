// Delivers one new alert to its rule's webhook: a JSON POST with the alert's fields and a
// Slack-compatible `text` (Slack's incoming webhooks, and Mattermost and Discord's Slack-
// compatible ones, post `text` as the message). One attempt with a timeout: a slow or failing
// receiver is recorded on the alert and shown, never retried in a loop and never the failure of
// the upload that raised the alert.
//
// Any project member can name a webhook URL and read back how its delivery went, so the server
// must not become their way into its own network (SSRF): only public addresses are called —
// never loopback, private, link-local (cloud metadata), carrier-grade NAT, multicast or reserved
// ones — unless VERSUS_WEBHOOK_ALLOWED_ADDRESSES lists them. The address is checked as the
// connection is made (request-filtering-agent), after DNS, so a name that resolves to an
// internal address is refused too, whatever it resolved to when the rule was saved.
import http from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { env } from "../core/env";
import type { TAlertWebhookBody } from "../schemas/alerts";

/** How long a receiver gets to answer. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

export type WebhookDelivery = { status: "sent"; error: null } | { status: "failed"; error: string };

/** The library's refusal names the address it refused: "DNS lookup 10.0.0.1(family:4, host:…) is not allowed…". */
const REFUSED = /^DNS lookup (.+?)\(family:.*\bis not allowed\b/;

export async function postWebhook(url: string, body: TAlertWebhookBody, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<WebhookDelivery> {
  const target = new URL(url);
  const secure = target.protocol === "https:";
  const filter = { allowIPAddressList: [...env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES], keepAlive: false };
  const agent = secure ? new RequestFilteringHttpsAgent(filter) : new RequestFilteringHttpAgent(filter);
  const payload = JSON.stringify(body);
  try {
    // node:http rather than fetch: it takes the agent that checks the address. It follows no
    // redirect either — a redirect could lead anywhere; the configured URL is the one that gets the alert.
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = (secure ? https : http).request(
        target,
        {
          method: "POST",
          agent,
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload), "User-Agent": "Versus alerts" },
          signal: AbortSignal.timeout(timeoutMs),
        },
        resolve,
      );
      request.once("error", reject);
      request.end(payload);
    });
    // The answer's body is not needed; drop it so the connection is released.
    response.destroy();
    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return { status: "sent", error: null };
    return { status: "failed", error: `HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ""}` };
  } catch (error) {
    return { status: "failed", error: failureOf(error, timeoutMs) };
  } finally {
    agent.destroy();
  }
}

function failureOf(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === "AbortError" && error.cause instanceof DOMException && error.cause.name === "TimeoutError") {
    return `no answer within ${timeoutMs / 1000} s`;
  }
  const refused = error instanceof Error ? REFUSED.exec(error.message) : null;
  if (refused) return `refused: ${refused[1]} is not a public address (allow it with VERSUS_WEBHOOK_ALLOWED_ADDRESSES)`;
  const reason = (error as { code?: string } | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
  return `could not connect (${reason})`;
}
