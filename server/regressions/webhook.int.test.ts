// The webhook call against local HTTP servers: a receiver that never answers is given up after
// the timeout (one attempt, recorded as failed), a redirect is not followed.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
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

describe("postWebhook", () => {
  it("gives up on a receiver that never answers, once", async () => {
    const url = await serve(() => {
      hits++; // never answers
    });
    expect(await postWebhook(url, body, 200)).toEqual({ status: "failed", error: "no answer within 0.2 s" });
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
});
