// The webhook call against local HTTP servers: a receiver that never answers is given up after
// the timeout (one attempt, recorded as failed), a redirect is not followed, and loopback (like
// every private, link-local or otherwise non-public address) is refused before any connection
// unless VERSUS_WEBHOOK_ALLOWED_ADDRESSES allows it. These local receivers are allowed by
// default here, the way an installation allows its own chat server.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TAlertWebhookBody } from "~/server/schemas/alerts";
import { postWebhook } from "./webhook";

const servers: http.Server[] = [];
let hits = 0;

async function serve(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const body = { text: "t", alert: {} } as unknown as TAlertWebhookBody;

beforeEach(() => {
  process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES = "127.0.0.1, ::1";
});
afterEach(() => {
  delete process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES;
});

describe("postWebhook", () => {
  it("gives up on a receiver that never answers, once", async () => {
    const url = await serve(() => {
      hits++; // never answers
    });
    // (2 s, not less: on a loaded machine the request must still reach the receiver in time for
    // "once" to be seen.)
    expect(await postWebhook(url, body, 2000)).toEqual({ status: "failed", error: "no answer within 2 s" });
    expect(hits).toBe(1);
  });

  it("does not follow a redirect", async () => {
    let followed = false;
    const target = await serve((_req, res) => {
      followed = true;
      res.writeHead(204).end();
    });
    const url = await serve((_req, res) => res.writeHead(302, { location: target }).end());
    expect(await postWebhook(url, body)).toEqual({ status: "failed", error: "HTTP 302 Found" });
    expect(followed).toBe(false);
  });

  it("refuses loopback by address and by a name that resolves to it, before connecting, unless allowed", async () => {
    let reached = 0;
    const url = await serve((_req, res) => {
      reached++;
      res.writeHead(204).end();
    });
    const port = new URL(url).port;
    delete process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES;
    for (const target of [url, `http://localhost:${port}`, `http://[::ffff:127.0.0.1]:${port}`]) {
      const delivery = await postWebhook(target, body);
      expect(delivery.status, target).toBe("failed");
      expect(delivery.error, target).toMatch(
        /^refused: (127\.0\.0\.1|::1|::ffff:7f00:1) is not a public address \(allow it with VERSUS_WEBHOOK_ALLOWED_ADDRESSES\)$/,
      );
    }
    expect(reached).toBe(0);
    // An allow list of other addresses does not let it through either.
    process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES = "10.0.0.0/8";
    expect((await postWebhook(url, body)).status).toBe("failed");
    process.env.VERSUS_WEBHOOK_ALLOWED_ADDRESSES = "127.0.0.0/8";
    expect(await postWebhook(url, body)).toEqual({ status: "sent", error: null });
    expect(reached).toBe(1);
  });
});
