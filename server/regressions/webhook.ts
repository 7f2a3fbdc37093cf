// Delivers one new alert to its rule's webhook: a JSON POST with the alert's fields and a
// Slack-compatible `text` (Slack's incoming webhooks, and Mattermost and Discord's Slack-
// compatible ones, post `text` as the message). One attempt with a timeout: a slow or failing
// receiver is recorded on the alert and shown, never retried in a loop and never the failure of
// the upload that raised the alert.
import type { TAlertWebhookBody } from "../schemas/alerts";

/** How long a receiver gets to answer. */
export const WEBHOOK_TIMEOUT_MS = 5_000;

export type WebhookDelivery = { status: "sent"; error: null } | { status: "failed"; error: string };

export async function postWebhook(url: string, body: TAlertWebhookBody, timeoutMs = WEBHOOK_TIMEOUT_MS): Promise<WebhookDelivery> {
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "Versus alerts" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
      // A redirect could lead anywhere; the configured URL is the one that gets the alert.
      redirect: "manual",
    });
    // The answer's body is not needed; drop it so the connection is released.
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { status: "sent", error: null };
    return { status: "failed", error: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}` };
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") return { status: "failed", error: `no answer within ${timeoutMs / 1000} s` };
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined;
    const reason = (cause as { code?: string } | undefined)?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
    return { status: "failed", error: `could not connect (${reason})` };
  }
}
