// The server in front of Next.js answers the methods Next.js cannot route (TRACE, WebDAV's
// PROPFIND…, CONNECT) with 405, the route's Allow header and the API's error body, and hands
// every other method to Next.js untouched. Over real HTTP (fetch cannot send TRACE or CONNECT),
// with a stand-in for Next.js that records what reached it.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiAnswerHeaders } from "~/next.config.js";
import { guardMethods, refuseConnect } from "./method-guard";

const reached: string[] = [];
let server: http.Server;
let port: number;

beforeAll(async () => {
  const nextStandIn = (req: http.IncomingMessage, res: http.ServerResponse) => {
    reached.push(`${req.method} ${req.url}`);
    res.writeHead(200, { "content-type": "text/plain" }).end("from Next.js");
  };
  // As serve.ts finds it: a route's own OPTIONS answer, and none for a page.
  const allowOf = async (req: http.IncomingMessage) => (req.url === "/api/health" ? "GET, HEAD, OPTIONS" : null);
  server = http.createServer(guardMethods(nextStandIn, allowOf));
  server.on("connect", refuseConnect);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function request(method: string, path: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path }, (res) => {
      let body = "";
      res
        .setEncoding("utf8")
        .on("data", (chunk: string) => (body += chunk))
        .on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    // CONNECT answers on the raw socket.
    req.on("connect", (res, socket) => {
      let body = "";
      socket
        .setEncoding("utf8")
        .on("data", (chunk: string) => (body += chunk))
        .on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body || "" }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the method guard in front of Next.js", () => {
  it.each(["TRACE", "PROPFIND", "MKCOL"])("%s /api/health → 405 with the route's Allow and the error body, never reaching Next.js", async (method) => {
    const { status, headers, body } = await request(method, "/api/health");
    expect(status).toBe(405);
    expect(headers.allow).toBe("GET, HEAD, OPTIONS");
    expect(JSON.parse(body)).toEqual({
      error: { code: "METHOD_NOT_ALLOWED", message: `${method} is not allowed here; this route answers GET, HEAD, OPTIONS` },
    });
    expect(reached.filter((line) => line.startsWith(method))).toEqual([]);
    // The headers every API answer carries (nosniff, a policy that allows nothing…).
    for (const { key, value } of apiAnswerHeaders) expect(headers[key.toLowerCase()], key).toBe(value);
  });

  it("a page (no Allow of its own) is GET and HEAD", async () => {
    const { status, headers } = await request("TRACE", "/p/some-project");
    expect(status).toBe(405);
    expect(headers.allow).toBe("GET, HEAD");
  });

  it("CONNECT → 405 on the raw socket instead of a hang-up", async () => {
    const { status, headers } = await request("CONNECT", "127.0.0.1:443");
    expect(status).toBe(405);
    expect(headers.allow).toBe("GET, HEAD");
    for (const { key, value } of apiAnswerHeaders) expect(headers[key.toLowerCase()], key).toBe(value);
  });

  it.each(["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"])("%s goes to Next.js untouched", async (method) => {
    const { status } = await request(method, "/api/health");
    expect(status).toBe(200);
    expect(reached).toContain(`${method} /api/health`);
  });
});
