import { describe, expect, it } from "vitest";
import { env, readEnv } from "./env";

describe("readEnv", () => {
  it("fills defaults, treats empty as unset and splits the trusted proxies", () => {
    const env = readEnv({ DATABASE_URL: "", VERSUS_TRUSTED_PROXIES: " 10.0.0.1, fd00::/8 ,127.0.0.0/8" });
    expect(env).toMatchObject({ DATABASE_URL: undefined, PORT: 3000, HOSTNAME: "0.0.0.0", VERSUS_SKIP_SEED: "0", VERSUS_MAX_BODY_BYTES: 64 * 1024 * 1024 });
    expect(env.VERSUS_TRUSTED_PROXIES).toEqual(["10.0.0.1", "fd00::/8", "127.0.0.0/8"]);
    expect(readEnv({}).VERSUS_TRUSTED_PROXIES).toEqual([]);
  });

  it("names every bad variable at once", () => {
    expect(() =>
      readEnv({ PORT: "http", VERSUS_PUBLIC_URL: "versus.example.com", VERSUS_TRUSTED_PROXIES: "10.0.0.1, proxy.local", DATABASE_URL: "mysql://x/y" }),
    ).toThrow(
      /DATABASE_URL: must be a postgresql:\/\/ URL\n {2}PORT: must be a port number \(1–65535\)[\s\S]*VERSUS_PUBLIC_URL: must be an http:\/\/ or https:\/\/ URL[\s\S]*VERSUS_TRUSTED_PROXIES\.1: "proxy\.local" is not an IP address or CIDR range/,
    );
  });

  it("VERSUS_WORKERS: unset (one per core) or a whole number of server processes from 1 to 256", () => {
    expect(readEnv({}).VERSUS_WORKERS).toBeUndefined();
    expect(readEnv({ VERSUS_WORKERS: "" }).VERSUS_WORKERS).toBeUndefined();
    expect(readEnv({ VERSUS_WORKERS: "4" }).VERSUS_WORKERS).toBe(4);
    for (const bad of ["0", "1.5", "many", "257"])
      expect(() => readEnv({ VERSUS_WORKERS: bad }), bad).toThrow(/VERSUS_WORKERS: must be (a|a whole) number of server processes \(1–256\)/);
  });

  it("VERSUS_HEAP_GROWTH_PERCENT: 25 unless set, 0 leaves V8's own growth, at most 400", () => {
    expect(readEnv({}).VERSUS_HEAP_GROWTH_PERCENT).toBe(25);
    expect(readEnv({ VERSUS_HEAP_GROWTH_PERCENT: "0" }).VERSUS_HEAP_GROWTH_PERCENT).toBe(0);
    expect(readEnv({ VERSUS_HEAP_GROWTH_PERCENT: "10" }).VERSUS_HEAP_GROWTH_PERCENT).toBe(10);
    for (const bad of ["-1", "2.5", "a lot", "401"])
      expect(() => readEnv({ VERSUS_HEAP_GROWTH_PERCENT: bad }), bad).toThrow(/VERSUS_HEAP_GROWTH_PERCENT: must be a (whole )?percentage \(0–400\)/);
  });

  it("reads a bad variable as unset while `next build` evaluates modules", () => {
    expect(readEnv({ VERSUS_SKIP_ENV_VALIDATION: "1", PORT: "http", VERSUS_PUBLIC_URL: "https://versus.example.com" })).toMatchObject({
      PORT: 3000,
      VERSUS_PUBLIC_URL: "https://versus.example.com",
    });
  });
});

describe("env", () => {
  it("reads process.env as it is now: a changed variable is seen, and validated, at the next read", () => {
    const saved = process.env.VERSUS_MAX_BODY_BYTES;
    try {
      process.env.VERSUS_MAX_BODY_BYTES = "1000";
      expect(env.VERSUS_MAX_BODY_BYTES).toBe(1000);
      expect(env.VERSUS_MAX_BODY_BYTES).toBe(1000);
      process.env.VERSUS_MAX_BODY_BYTES = "2000";
      expect(env.VERSUS_MAX_BODY_BYTES).toBe(2000);
      process.env.VERSUS_MAX_BODY_BYTES = "lots";
      expect(() => env.VERSUS_MAX_BODY_BYTES).toThrow(/VERSUS_MAX_BODY_BYTES: must be a number of bytes/);
    } finally {
      if (saved === undefined) delete process.env.VERSUS_MAX_BODY_BYTES;
      else process.env.VERSUS_MAX_BODY_BYTES = saved;
    }
  });

  it("keeps an unchanged variable's value while another one went bad, and reads the bad one as unset while building", () => {
    const saved = { VERSUS_MAX_BODY_BYTES: process.env.VERSUS_MAX_BODY_BYTES, PORT: process.env.PORT, skip: process.env.VERSUS_SKIP_ENV_VALIDATION };
    const restore = (name: string, value: string | undefined) => (value === undefined ? delete process.env[name] : (process.env[name] = value));
    try {
      process.env.PORT = "4321";
      expect(env.PORT).toBe(4321);
      process.env.VERSUS_MAX_BODY_BYTES = "lots";
      expect(env.PORT).toBe(4321);
      expect(() => env.VERSUS_MAX_BODY_BYTES).toThrow(/VERSUS_MAX_BODY_BYTES: must be a number of bytes/);
      process.env.VERSUS_SKIP_ENV_VALIDATION = "1";
      expect(env.VERSUS_MAX_BODY_BYTES).toBe(64 * 1024 * 1024);
    } finally {
      restore("VERSUS_MAX_BODY_BYTES", saved.VERSUS_MAX_BODY_BYTES);
      restore("PORT", saved.PORT);
      restore("VERSUS_SKIP_ENV_VALIDATION", saved.skip);
    }
  });
});
