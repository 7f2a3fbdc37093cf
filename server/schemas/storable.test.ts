// What no input may hold, whatever its schema: where unstorableIssues finds it and how it says so.
import { describe, expect, it } from "vitest";
import { MAX_INPUT_DEPTH, unstorableIssues } from "./storable";

const nested = (levels: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { inner: value };
  return value;
};
const paths = (input: unknown) => unstorableIssues(input).map((issue) => issue.path.join("."));

describe("unstorableIssues", () => {
  it("finds nothing in ordinary input: text, numbers, a Date, emoji (surrogate pairs are fine)", () => {
    expect(unstorableIssues({ name: "plain 😀", n: [1, 2, 3], at: new Date(), env: { os: "linux", cores: 8, ok: true, none: null } })).toEqual([]);
  });

  it("finds a NUL in a value and in a key, in document order, with the path to each", () => {
    const issues = unstorableIssues({ a: "fine", runs: [{ variant: "x\u0000" }, { environment: { "k\u0000": 1 } }] });
    expect(issues).toEqual([
      { path: ["runs", 0, "variant"], message: "contains a NUL character (U+0000), which cannot be stored" },
      { path: ["runs", 1, "environment", "k\u0000"], message: "its name contains a NUL character (U+0000), which cannot be stored" },
    ]);
  });

  it("finds lone surrogates, high or low, and names the code unit", () => {
    const issues = unstorableIssues(["a\ud800", "\udfffb", "ok \ud83d\ude00"]);
    expect(issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["0", "contains a lone UTF-16 surrogate (U+D800), which is not valid Unicode text"],
      ["1", "contains a lone UTF-16 surrogate (U+DFFF), which is not valid Unicode text"],
    ]);
  });

  it(`accepts ${MAX_INPUT_DEPTH} levels of objects and arrays and refuses one more, once, where it starts`, () => {
    expect(paths(nested(MAX_INPUT_DEPTH))).toEqual([]);
    const issues = unstorableIssues(nested(MAX_INPUT_DEPTH + 1));
    expect(issues).toHaveLength(1);
    expect(issues[0]!.path).toHaveLength(MAX_INPUT_DEPTH);
    expect(issues[0]!.message).toBe(`nested deeper than ${MAX_INPUT_DEPTH} levels of objects and arrays (the limit for any input)`);
  });

  it("walks 100,000 levels without overflowing the stack", () => {
    expect(unstorableIssues(nested(100_000))).toHaveLength(1);
  });

  it("reports at most 20 issues, so a hostile document is not echoed back whole", () => {
    expect(unstorableIssues(Array.from({ length: 1000 }, () => "\u0000"))).toHaveLength(20);
  });
});
