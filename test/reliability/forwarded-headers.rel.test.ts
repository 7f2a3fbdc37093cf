// X-Forwarded-* are believed only from the proxies VERSUS_TRUSTED_PROXIES names, and the
// server that `npm start` runs (scripts/serve.ts) decides that per connection: this test talks
// to it from 127.0.0.1, once as a client nobody vouched for and once as the trusted proxy.
// What it must see: a client that writes its own X-Forwarded-For buys no fresh sign-in attempts
// and its X-Forwarded-Proto earns no HSTS; a trusted proxy's headers are followed, each client
// behind it counted on its own.
import crypto from "node:crypto";
import { afterEach, describe, expect, inject, it } from "vitest";
import { SIGN_IN_RATE_LIMIT } from "~/server/auth/auth-settings";
import { startServer, type Child } from "./processes";

const databaseUrl = inject("databaseUrl");
const servers: Child[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.stop("SIGTERM")));
});

const octet = () => crypto.randomInt(1, 254);

async function serverTrusting(proxies: string) {
  const server = await startServer({ databaseUrl, env: { VERSUS_TRUSTED_PROXIES: proxies } });
  servers.push(server);
  return server;
}

/** One wrong password for an account nobody has (each its own, so no account lock interferes). */
async function guess(url: string, forwardedFor: string): Promise<number> {
  const response = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, "x-forwarded-for": forwardedFor },
    body: JSON.stringify({ email: `nobody-${crypto.randomBytes(4).toString("hex")}@example.test`, password: "wrong password" }),
  });
  await response.body?.cancel();
  return response.status;
}

async function hstsOf(url: string, headers: Record<string, string>): Promise<string | null> {
  const response = await fetch(`${url}/sign-in`, { headers });
  await response.body?.cancel();
  return response.headers.get("strict-transport-security");
}

describe("X-Forwarded-* from the connection's peer", () => {
  it("a client nobody vouched for: its own X-Forwarded-For buys no fresh sign-in attempts, its X-Forwarded-Proto no HSTS", async () => {
    // A proxy is configured, but this client (127.0.0.1) is not it.
    const server = await serverTrusting("10.0.0.0/8");
    const statuses: number[] = [];
    // A new address each time, as a script guessing passwords would write.
    for (let i = 0; i <= SIGN_IN_RATE_LIMIT.max; i++) statuses.push(await guess(server.url, `198.51.100.${octet()}`));
    expect(statuses.slice(0, SIGN_IN_RATE_LIMIT.max), server.tail()).toEqual(Array(SIGN_IN_RATE_LIMIT.max).fill(401));
    expect(statuses.at(-1), server.tail()).toBe(429);
    // Nor a forged chain that ends in the trusted proxy's address.
    expect(await guess(server.url, `203.0.113.${octet()}, 10.0.0.7`)).toBe(429);

    expect(await hstsOf(server.url, { "x-forwarded-proto": "https", "x-forwarded-host": "versus.example.com" })).toBeNull();
  });

  it("the trusted proxy: each client it names has its own count, and its X-Forwarded-Proto is followed", async () => {
    const server = await serverTrusting("127.0.0.1");
    const client = `203.0.113.${octet()}`;
    const statuses: number[] = [];
    // What the client wrote in front is skipped; the proxy appended the address it saw.
    for (let i = 0; i <= SIGN_IN_RATE_LIMIT.max; i++) statuses.push(await guess(server.url, `198.51.100.${octet()}, ${client}`));
    expect(statuses.slice(0, SIGN_IN_RATE_LIMIT.max), server.tail()).toEqual(Array(SIGN_IN_RATE_LIMIT.max).fill(401));
    expect(statuses.at(-1), server.tail()).toBe(429);
    // Someone else behind the same proxy is not held back by that.
    expect(await guess(server.url, `192.0.2.${octet()}`)).toBe(401);

    expect(await hstsOf(server.url, { "x-forwarded-proto": "https", "x-forwarded-host": "versus.example.com" })).toBe("max-age=31536000");
    expect(await hstsOf(server.url, {})).toBeNull();
  });
});
