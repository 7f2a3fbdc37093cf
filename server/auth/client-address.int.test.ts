// The per-address sign-in limit behind a reverse proxy: with VERSUS_TRUSTED_PROXIES the client's
// address is read from the right of X-Forwarded-For, past the trusted proxies, so what a client
// writes in front of it cannot buy fresh attempts, and each client behind the proxy keeps its own
// count (the proxy's address is not the key).
import crypto from "node:crypto";
import { betterAuth } from "better-auth";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { authOptions } from "~/server/auth/auth";
import { SIGN_IN_RATE_LIMIT } from "~/server/auth/auth-settings";
import { db } from "~/server/db/client";

afterEach(() => {
  delete process.env.VERSUS_TRUSTED_PROXIES;
});
afterAll(() => db.$disconnect());

const octet = () => crypto.randomInt(1, 254);

describe("the sign-in limit behind trusted proxies", () => {
  it("counts guesses per client address, whatever the client put before it", async () => {
    process.env.VERSUS_TRUSTED_PROXIES = "10.0.0.0/8";
    const behindProxy = betterAuth(authOptions());
    const guess = (forwardedFor: string) =>
      behindProxy.handler(
        new Request("http://localhost:3000/api/auth/sign-in/email", {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": forwardedFor },
          body: JSON.stringify({ email: `nobody-${crypto.randomBytes(4).toString("hex")}@example.test`, password: "wrong password" }),
        }),
      );
    const client = `203.0.113.${octet()}`;
    const statuses: number[] = [];
    // The proxy (10.0.0.7) appended the address it saw; the client forged a new one each time.
    for (let i = 0; i <= SIGN_IN_RATE_LIMIT.max; i++) statuses.push((await guess(`198.51.100.${octet()}, ${client}, 10.0.0.7`)).status);
    expect(statuses.slice(0, SIGN_IN_RATE_LIMIT.max)).toEqual(Array(SIGN_IN_RATE_LIMIT.max).fill(401));
    expect(statuses.at(-1)).toBe(429);
    // Someone else behind the same proxy is not held back by that.
    expect((await guess(`192.0.2.${octet()}, 10.0.0.7`)).status).toBe(401);
  });
});
