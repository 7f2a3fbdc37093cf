import { describe, expect, it } from "vitest";
import { z } from "zod";
import { builtInWorkloads } from "~/agents/reference/workloads/registry";
import { fieldText, parseFieldText, settingsForm, withSetting, type SettingField } from "./settings-fields";

function fieldsOf(schema: unknown): SettingField[] {
  const form = settingsForm(schema);
  if ("unsupported" in form) throw new Error(`unsupported: ${form.unsupported}`);
  return form.fields;
}

describe("settingsForm", () => {
  it("maps each property type to a field, with title, description, default, bounds and required", () => {
    const fields = fieldsOf({
      type: "object",
      properties: {
        host: { type: "string", title: "Host name", description: "Where to connect" },
        ratio: { type: "number", minimum: 0, exclusiveMaximum: 1 },
        size: { type: "integer", minimum: 1, maximum: 64, default: 8 },
        verbose: { type: "boolean", default: false },
        mode: { type: "string", enum: ["fast", "small"] },
        level: { enum: [1, 5, 9] },
        sizes: { type: "array", items: { type: "integer", minimum: 1 } },
        weights: { type: "array", items: { type: "number" } },
        tags: { type: "array", items: { type: "string" } },
        note: { type: ["string", "null"] },
      },
      required: ["host", "size"],
    });
    expect(fields).toEqual([
      { key: "host", kind: "string", label: "Host name", description: "Where to connect", required: true },
      { key: "ratio", kind: "number", label: "ratio", description: "", required: false, minimum: 0, exclusiveMaximum: 1 },
      { key: "size", kind: "integer", label: "size", description: "", required: true, default: 8, minimum: 1, maximum: 64 },
      { key: "verbose", kind: "boolean", label: "verbose", description: "", required: false, default: false },
      { key: "mode", kind: "enum", label: "mode", description: "", required: false, options: ["fast", "small"] },
      { key: "level", kind: "enum", label: "level", description: "", required: false, options: [1, 5, 9] },
      { key: "sizes", kind: "integer-list", label: "sizes", description: "", required: false, minimum: 1 },
      { key: "weights", kind: "number-list", label: "weights", description: "", required: false },
      { key: "tags", kind: "string-list", label: "tags", description: "", required: false },
      { key: "note", kind: "string", label: "note", description: "", required: false },
    ]);
  });

  it("draws the reference agent's gzip settings as a typed form", () => {
    const gzip = builtInWorkloads()
      .adverts()
      .find((advert) => advert.name === "gzip");
    const fields = fieldsOf(gzip?.settingsSchema);
    expect(fields.map((field) => [field.key, field.kind])).toEqual([
      ["sizeBytes", "integer"],
      ["compress", "boolean"],
      ["level", "integer"],
      ["iterations", "integer"],
      ["warmupIterations", "integer"],
      ["seed", "integer"],
    ]);
    expect(fields.find((field) => field.key === "level")).toMatchObject({ minimum: 0, maximum: 9, default: 6, required: false });
    expect(fields.find((field) => field.key === "compress")?.description).toMatch(/Plain/);
  });

  it("hands what the form cannot edit to the raw JSON editor, saying why", () => {
    expect(settingsForm({})).toEqual({ unsupported: "the agent does not describe these settings" });
    expect(settingsForm({ $schema: "https://json-schema.org/draft/2020-12/schema" })).toEqual({ unsupported: "the agent does not describe these settings" });
    expect(settingsForm({ type: "object", properties: {} })).toEqual({ unsupported: "the workload has no settings to fill in" });
    expect(settingsForm({ type: "array" })).toEqual({ unsupported: "the settings are not an object" });
    expect(settingsForm({ type: "object", properties: { headers: { type: "object" } } })).toEqual({ unsupported: 'setting "headers" is an object of its own' });
    expect(settingsForm({ type: "object", properties: { steps: { type: "array", items: { type: "object" } } } })).toEqual({
      unsupported: 'setting "steps" is a list of things the form cannot edit',
    });
    expect(settingsForm({ type: "object", properties: { x: { type: ["string", "number"] } } })).toEqual({ unsupported: 'setting "x" has no single type' });
    expect(settingsForm({ type: "object", properties: { x: { enum: [{ a: 1 }] } } })).toEqual({ unsupported: 'setting "x" allows values the form cannot offer' });
    expect(settingsForm({ anyOf: [{ type: "object" }] })).toEqual({ unsupported: "the settings schema uses anyOf" });
  });

  it("reads Zod's own JSON Schemas, nullable and defaulted properties included", () => {
    const schema = z.toJSONSchema(z.object({ n: z.int().min(2).nullable().default(3), name: z.string().optional() }), { io: "input" });
    expect(fieldsOf(schema)).toEqual([
      // Zod's safe-integer maximum is no bound worth showing.
      { key: "n", kind: "integer", label: "n", description: "", required: false, default: 3, minimum: 2 },
      { key: "name", kind: "string", label: "name", description: "", required: false },
    ]);
  });
});

describe("field text", () => {
  const field = (kind: SettingField["kind"], extra: Partial<SettingField> = {}): SettingField => ({ key: "k", kind, label: "k", description: "", required: false, ...extra });

  it("turns text into values, and empty text into a left-out setting", () => {
    expect(parseFieldText(field("integer"), " 42 ")).toEqual({ value: 42 });
    expect(parseFieldText(field("integer"), "")).toEqual({ value: undefined });
    expect(parseFieldText(field("number"), "0.5")).toEqual({ value: 0.5 });
    expect(parseFieldText(field("string"), " keep spaces ")).toEqual({ value: " keep spaces " });
    expect(parseFieldText(field("boolean"), "false")).toEqual({ value: false });
    expect(parseFieldText(field("enum", { options: [1, 5, 9] }), "5")).toEqual({ value: 5 });
    expect(parseFieldText(field("integer-list"), "1, 2,,3 ")).toEqual({ value: [1, 2, 3] });
    expect(parseFieldText(field("string-list"), "a, b c")).toEqual({ value: ["a", "b c"] });
  });

  it("says what is wrong with text that is not a value of the field's kind", () => {
    expect(parseFieldText(field("integer"), "4.5")).toEqual({ error: "enter a whole number" });
    expect(parseFieldText(field("number"), "fast")).toEqual({ error: "enter a number" });
    expect(parseFieldText(field("integer-list"), "1, two")).toEqual({ error: "item 2 (“two”): enter a number" });
    expect(parseFieldText(field("enum", { options: ["a", "b"] }), "c")).toEqual({ error: "choose one of a, b" });
  });

  it("shows values as text, lists as comma lists", () => {
    expect(fieldText(field("integer-list"), [1, 2])).toBe("1, 2");
    expect(fieldText(field("integer"), undefined)).toBe("");
    expect(fieldText(field("boolean"), true)).toBe("true");
  });

  it("replaces a setting in place and removes a left-out one", () => {
    expect(Object.keys(withSetting({ a: 1, b: 2 }, "a", 3))).toEqual(["a", "b"]);
    expect(withSetting({ a: 1, b: 2 }, "a", 3)).toEqual({ a: 3, b: 2 });
    expect(withSetting({ a: 1, b: 2 }, "a", undefined)).toEqual({ b: 2 });
    expect(withSetting({ a: 1 }, "c", true)).toEqual({ a: 1, c: true });
  });
});
