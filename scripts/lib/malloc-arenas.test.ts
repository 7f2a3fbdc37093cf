import { describe, expect, it } from "vitest";
import { serverEnvironment, SERVER_MALLOC_ARENAS } from "./malloc-arenas";

describe("serverEnvironment", () => {
  it("limits the server's malloc arenas and keeps the rest of the environment", () => {
    const env = serverEnvironment({ PORT: "3000", DATABASE_URL: "postgres://x" });
    expect(env).toEqual({ PORT: "3000", DATABASE_URL: "postgres://x", MALLOC_ARENA_MAX: SERVER_MALLOC_ARENAS });
  });

  it("keeps a number the user set, and sets one where the variable is empty", () => {
    expect(serverEnvironment({ MALLOC_ARENA_MAX: "8" }).MALLOC_ARENA_MAX).toBe("8");
    expect(serverEnvironment({ MALLOC_ARENA_MAX: "" }).MALLOC_ARENA_MAX).toBe(SERVER_MALLOC_ARENAS);
  });
});
