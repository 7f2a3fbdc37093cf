// A handler behind the bridge (fetch-bridge.ts) that refuses a request body before reading all
// of it — from its Content-Length, or once a streamed body passes the limit (readBody) — answers
// 413, the client gets that answer, and the connection serves the client's next request: the
// rest of the body is read and discarded, as Node does for bodies nobody reads. Real HTTP with a
// keep-alive client on one socket.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readBody } from "~/server/api/rest/body";
import { AppError } from "~/server/core/errors";
import { rawPost, type RawAnswer } from "~/test/raw-post";
import { fetchRequestOf, sendResponse, smallBodyOf } from "./fetch-bridge";

const LIMIT = 256 * 1024;
let server: http.Server;
let port: number;
const crashes: unknown[] = [];
const onCrash = (error: unknown) => crashes.push(error);

beforeAll(async () => {
  process.on("uncaughtException", onCrash);
  server = http.createServer(async (req, res) => {
    const request = fetchRequestOf(req, new URL(req.url ?? "/", `http://127.0.0.1:${port}`), undefined, await smallBodyOf(req, 16 * 1024));
    let response: Response;
    try {
      response = Response.json({ bytes: req.method === "POST" ? (await readBody(request, LIMIT)).length : 0 });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      response = Response.json(error.toJSON(), { status: error.httpStatus });
    }
    await sendResponse(res, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  process.off("uncaughtException", onCrash);
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const chunk = Buffer.alloc(64 * 1024, "x");
/** `chunks` chunks of 64 KB, declaring `declared` bytes (or chunked). */
const post = (agent: http.Agent, chunks: number, declared?: number) => rawPost(`http://127.0.0.1:${port}/`, { agent, chunk, chunks, contentLength: declared });

const get = (agent: http.Agent) =>
  new Promise<RawAnswer>((resolve) => {
    http
      .get({ host: "127.0.0.1", port, path: "/", agent }, (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body: "" }));
      })
      .on("error", resolve);
  });

describe("a body refused before it is read to the end", () => {
  it.each([
    ["a Content-Length over the limit", 8, 8 * 64 * 1024],
    ["a chunked body past the limit", 8, undefined],
    ["a Content-Length of 1 GB, 8 chunks of it sent", 8, 1024 ** 3],
  ] as const)("%s → 413 reaches the client, and the same connection serves the next request", async (_name, chunks, declared) => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await post(agent, chunks, declared);
      expect(refused).toMatchObject({ status: 413 });
      expect(JSON.parse((refused as { body: string }).body).error.message).toContain("256 KB");
      if (declared !== 1024 ** 3) expect(await get(agent)).toEqual({ status: 200, body: "" });
      expect(await post(agent, 2, 2 * 64 * 1024)).toEqual({ status: 200, body: JSON.stringify({ bytes: 2 * 64 * 1024 }) });
    } finally {
      agent.destroy();
    }
    expect(crashes).toEqual([]);
  });
});

describe("sendResponse", () => {
  it("sends every Set-Cookie of the answer (not only the last)", async () => {
    const cookieServer = http.createServer((_req, res) => {
      const headers = new Headers({ "content-type": "text/plain" });
      headers.append("set-cookie", "a=1; Path=/");
      headers.append("set-cookie", "b=2; Path=/; HttpOnly");
      void sendResponse(res, new Response("ok", { headers }));
    });
    await new Promise<void>((resolve) => cookieServer.listen(0, "127.0.0.1", resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(cookieServer.address() as AddressInfo).port}/`);
      expect(answer.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/; HttpOnly"]);
      expect(await answer.text()).toBe("ok");
    } finally {
      cookieServer.closeAllConnections();
      await new Promise<void>((resolve) => cookieServer.close(() => resolve()));
    }
  });
});
