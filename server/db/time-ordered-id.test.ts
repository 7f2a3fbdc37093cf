// The ids' order is what runs of one statement are sorted by (store-runs.ts): each id must sort
// after the one before, also within one millisecond and across a batch of random bytes.
import { validate, version } from "uuid";
import { describe, expect, it, vi } from "vitest";
import { timeOrderedId } from "./time-ordered-id";

describe("timeOrderedId", () => {
  it("makes valid UUIDv7s, each after the one before, many within one millisecond", () => {
    const ids = Array.from({ length: 5000 }, () => timeOrderedId());
    for (const id of ids.slice(0, 50)) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    for (let i = 1; i < ids.length; i++) expect((ids[i] as string) > (ids[i - 1] as string), `${ids[i]} after ${ids[i - 1]}`).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("carries the time it was made in its first 48 bits, and stays ordered when the clock steps back", () => {
    const now = Date.now() + 60_000;
    const clock = vi.spyOn(Date, "now").mockReturnValue(now);
    try {
      const first = timeOrderedId();
      expect(parseInt(first.replace(/-/g, "").slice(0, 12), 16)).toBe(now);
      clock.mockReturnValue(now - 5_000);
      const after = timeOrderedId();
      expect(after > first).toBe(true);
    } finally {
      clock.mockRestore();
    }
  });
});
