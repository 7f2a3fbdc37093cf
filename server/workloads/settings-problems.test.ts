import { describe, expect, it } from "vitest";
import { builtInWorkloads } from "~/agents/reference/workloads/registry";
import goWorkloads from "./built-in/go-workloads.json";
import { settingsProblems } from "./settings-problems";

const gzipSchema = builtInWorkloads()
  .adverts()
  .find((advert) => advert.name === "gzip")?.settingsSchema as Record<string, unknown>;

describe("settingsProblems", () => {
  it("accepts the example's settings and settings left to their defaults", () => {
    expect(settingsProblems(gzipSchema, { compress: false })).toEqual({});
    expect(settingsProblems(gzipSchema, { compress: true, level: 6 })).toEqual({});
    expect(settingsProblems(gzipSchema, {})).toEqual({});
  });

  it("names each wrong setting with what it must be", () => {
    expect(settingsProblems(gzipSchema, { level: 12, sizeBytes: 0, compress: "yes", iterations: 2.5, colour: "red" })).toEqual({
      level: "must be at most 9",
      sizeBytes: "must be at least 1",
      compress: "must be true or false",
      iterations: "must be a whole number",
      "": 'unknown setting "colour"; valid settings are sizeBytes, compress, level, iterations, warmupIterations, seed',
    });
  });

  it("words required settings, exclusive bounds, enums and list items", () => {
    const schema = {
      type: "object",
      properties: {
        host: { type: "string", minLength: 2 },
        ratio: { type: "number", exclusiveMinimum: 0 },
        mode: { enum: ["fast", "small"] },
        sizes: { type: "array", items: { type: "integer" } },
      },
      required: ["host"],
    };
    expect(settingsProblems(schema, { ratio: 0, mode: "slow", sizes: [1, "x"] })).toEqual({
      host: "required",
      ratio: "must be more than 0",
      mode: 'must be one of "fast", "small"',
      sizes: "item 2: must be a number",
    });
    expect(settingsProblems(schema, { host: "a" })).toEqual({ host: "needs at least 2 characters" });
  });

  it("names the item and its setting in a list of objects", () => {
    const schema = {
      type: "object",
      properties: {
        targets: {
          type: "array",
          items: { type: "object", properties: { name: { type: "string" }, addr: { type: "string" } }, required: ["name", "addr"] },
        },
      },
    };
    expect(settingsProblems(schema, { targets: [{ name: "app-1", addr: "127.0.0.1:17811" }, { name: "app-2" }] })).toEqual({
      targets: "item 2, addr: required",
    });
  });

  it("leaves settings unchecked when the schema cannot be read here", () => {
    expect(settingsProblems({ type: "object", properties: { x: { $ref: "#/$defs/missing" } } }, { x: 1 })).toEqual({});
  });
});

describe("settings that must not be given together (the top level's not/required)", () => {
  const httpSchema = (goWorkloads as { name: string; settingsSchema: Record<string, unknown> }[]).find((advert) => advert.name === "http")?.settingsSchema;

  it("names the one to take out, as the Go agent does, and checks the rest as before", () => {
    expect(httpSchema).toBeDefined();
    const schema = httpSchema as Record<string, unknown>;
    expect(settingsProblems(schema, { url: "http://127.0.0.1:8080/", selfTarget: { responseBytes: 10 } })).toEqual({
      selfTarget: "cannot be given together with url (give one or the other)",
    });
    expect(settingsProblems(schema, { url: "http://127.0.0.1:8080/" })).toEqual({});
    expect(settingsProblems(schema, { selfTarget: { responseBytes: 10 } })).toEqual({});
    expect(settingsProblems(schema, { selfTarget: { responseBytes: -1 } })).toEqual({ "selfTarget.responseBytes": "must be at least 0" });
  });
});
