import { describe, expect, it } from "vitest";
import { distinctPart, shorten } from "./variant-tick";

describe("variant names on a crowded axis", () => {
  const go = ["BenchmarkEncode/codec=hex/size=16 [procs=2]", "BenchmarkEncode/codec=fmt/size=1024 [procs=2]", "BenchmarkSortInts [procs=2]"];

  it("drops what every name shares", () => {
    expect(go.map((name) => distinctPart(name, go))).toEqual(["Encode/codec=hex/size=16", "Encode/codec=fmt/size=1024", "SortInts"]);
    expect(distinctPart("plain", ["plain"])).toBe("plain");
    // Nothing would be left of "v1" in ["v1", "v12"]: keep the names whole.
    expect(distinctPart("v1", ["v1", "v12"])).toBe("v1");
  });

  it("cuts in the middle, keeping both ends", () => {
    expect(shorten("Encode/codec=hex/size=16", 12)).toBe("Enco…size=16");
    expect(shorten("gzip", 12)).toBe("gzip");
  });
});
