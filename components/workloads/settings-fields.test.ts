// The typed settings form, on the schemas the built-in agents really advertise
// (server/workloads/built-in/*-workloads.json, printed by the agents themselves): every built-in
// workload gets a form, none falls back to raw JSON, and nested objects, maps, lists, choices,
// units and defaults come out as fields.
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import goWorkloads from "~/server/workloads/built-in/go-workloads.json";
import jvmWorkloads from "~/server/workloads/built-in/jvm-workloads.json";
import referenceWorkloads from "~/server/workloads/built-in/reference-workloads.json";
import { listValue } from "./list-editor";
import { mapValue } from "./map-editor";
import { SchemaForm } from "./schema-form";
import {
  fieldHint,
  fieldText,
  parseFieldText,
  settingsForm,
  withSetting,
  type ListField,
  type MapField,
  type ObjectField,
  type RowsField,
  type ScalarField,
  type ScalarSpec,
  type SettingField,
} from "./settings-fields";

interface Advert {
  name: string;
  settingsSchema: unknown;
}

function fieldsOf(schema: unknown): SettingField[] {
  const form = settingsForm(schema);
  if ("unsupported" in form) throw new Error(`unsupported: ${form.unsupported}`);
  return form.fields;
}

const schemaOf = (adverts: Advert[], name: string) => {
  const advert = adverts.find((candidate) => candidate.name === name);
  if (!advert) throw new Error(`no workload ${name}`);
  return advert.settingsSchema;
};
const byKey = (fields: SettingField[], key: string) => {
  const field = fields.find((candidate) => candidate.key === key);
  if (!field) throw new Error(`no field ${key} among ${fields.map((f) => f.key).join(", ")}`);
  return field;
};
const kinds = (fields: SettingField[]) => fields.map((field) => [field.key, field.kind]);

describe("settingsForm on the built-in agents' workloads", () => {
  const every = [
    ...(goWorkloads as Advert[]).map((advert) => ["go", advert.name, advert] as const),
    ...(jvmWorkloads as Advert[]).map((advert) => ["jvm", advert.name, advert] as const),
    ...(referenceWorkloads as Advert[]).map((advert) => ["reference", advert.name, advert] as const),
  ];

  it.each(every)("%s %s: a typed form with no setting left to JSON", (_agent, _name, advert) => {
    const walk = (fields: SettingField[]): SettingField[] => fields.flatMap((field) => (field.kind === "object" ? [field, ...walk(field.fields)] : [field]));
    const fields = walk(fieldsOf(advert.settingsSchema));
    expect(fields.length).toBeGreaterThan(0);
    expect(fields.filter((field) => field.kind === "json").map((field) => field.key)).toEqual([]);
    // Every setting says what it is for.
    expect(fields.filter((field) => !field.description).map((field) => field.key)).toEqual([]);
  });

  it("Go http: url, headers as a name → value map, selfTarget as fields of its own, model as a choice, units and defaults", () => {
    const fields = fieldsOf(schemaOf(goWorkloads as Advert[], "http"));
    expect(kinds(fields)).toEqual([
      ["url", "string"],
      ["method", "string"],
      ["headers", "map"],
      ["body", "string"],
      ["bodyFile", "string"],
      ["bodySizeBytes", "integer"],
      ["bodyFormat", "enum"],
      ["bodyJsonField", "string"],
      ["model", "enum"],
      ["connections", "integer"],
      ["rate", "number"],
      ["maxConnections", "integer"],
      ["duration", "number"],
      ["requests", "integer"],
      ["warmupSeconds", "number"],
      ["keepAlive", "boolean"],
      ["http2", "boolean"],
      ["timeoutMs", "integer"],
      ["insecureSkipVerify", "boolean"],
      ["selfTarget", "object"],
      ["targets", "rows"],
    ]);
    expect(byKey(fields, "url").description).toMatch(/Leave it out to aim at the agent's own loopback server/);
    expect((byKey(fields, "headers") as MapField).value).toEqual({ kind: "string" });
    expect(byKey(fields, "model")).toMatchObject({ kind: "enum", options: ["closed", "open"] });
    expect(byKey(fields, "duration")).toMatchObject({ unit: "s", default: 10, exclusiveMinimum: 0, maximum: 86400 });
    expect(fieldHint(byKey(fields, "duration"))).toBe(
      "Measured load after the warm-up. Give duration or requests, not both; neither: 10 seconds. · >0 to 86,400 s · default 10 s",
    );
    expect(fieldHint(byKey(fields, "timeoutMs"))).toMatch(/· 1 to 600,000 ms · default 10000 ms$/);
    const selfTarget = byKey(fields, "selfTarget") as ObjectField;
    expect(selfTarget.fields).toEqual([
      {
        key: "responseBytes",
        label: "responseBytes",
        kind: "integer",
        description: "Response body size in bytes.",
        required: false,
        default: 1024,
        minimum: 0,
        maximum: 67108864,
        unit: "B",
      },
      {
        key: "delayMs",
        label: "delayMs",
        kind: "number",
        description: "Time the server waits before answering, in milliseconds.",
        required: false,
        default: 0,
        minimum: 0,
        maximum: 60000,
        unit: "ms",
      },
    ]);
  });

  it("Go http, grpc and s3: targets as a list of objects, each item's name and address required and its flags a list", () => {
    for (const workload of ["http", "grpc", "s3"]) {
      const targets = byKey(fieldsOf(schemaOf(goWorkloads as Advert[], workload)), "targets") as RowsField;
      expect(targets).toMatchObject({ kind: "rows", maxItems: 8 });
      expect(targets.fields.map((field) => [field.key, field.kind, field.required])).toEqual([
        ["name", "string", true],
        ["addr", "string", true],
        ["grpcAddr", "string", false],
        ["args", "list", false],
      ]);
    }
  });

  it("Go s3: the bucket required, the operation and payload as choices, sizes and times with their units, no credential field", () => {
    const fields = fieldsOf(schemaOf(goWorkloads as Advert[], "s3"));
    expect(byKey(fields, "bucket")).toMatchObject({ kind: "string", required: true });
    expect(byKey(fields, "operation")).toMatchObject({ kind: "enum", options: ["put", "get"], default: "put" });
    expect(byKey(fields, "payload")).toMatchObject({ kind: "enum", options: ["html-mail", "sms", "file"], default: "html-mail" });
    expect(byKey(fields, "sizeBytes")).toMatchObject({ kind: "integer", unit: "B" });
    expect(byKey(fields, "timeoutMs")).toMatchObject({ kind: "integer", unit: "ms", default: 30000 });
    expect(byKey(fields, "gzip")).toMatchObject({ kind: "boolean", default: false });
    expect(fields.map((field) => field.key).filter((key) => /key|secret|token|password/i.test(key) && key !== "keyPrefix")).toEqual([]);
  });

  it("Go exec: the command and exit codes as lists, timeout with its unit", () => {
    const fields = fieldsOf(schemaOf(goWorkloads as Advert[], "exec"));
    expect(byKey(fields, "command")).toMatchObject({ kind: "list", item: { kind: "string" }, minItems: 1 });
    expect(byKey(fields, "okExitCodes")).toMatchObject({ kind: "list", item: { kind: "integer", minimum: 0, maximum: 255 }, default: [0] });
    expect(fieldHint(byKey(fields, "okExitCodes"))).toBe("Exit codes of a successful run · each 0 to 255 · default 0");
    expect(byKey(fields, "timeoutSeconds")).toMatchObject({ kind: "number", unit: "s", default: 600 });
  });

  it("gzip is the same form on the Go, JVM and reference agents where they share settings", () => {
    const go = fieldsOf(schemaOf(goWorkloads as Advert[], "gzip"));
    const reference = fieldsOf(schemaOf(referenceWorkloads as Advert[], "gzip"));
    const jvm = fieldsOf(schemaOf(jvmWorkloads as Advert[], "gzip"));
    for (const fields of [go, reference, jvm]) {
      expect(byKey(fields, "level")).toMatchObject({ kind: "integer", minimum: 0, maximum: 9, default: 6, required: false });
      expect(byKey(fields, "compress")).toMatchObject({ kind: "boolean", default: true });
      expect(byKey(fields, "sizeBytes")).toMatchObject({ kind: "integer", unit: "B", default: 51200 });
    }
    expect(kinds(go).map(([key]) => key)).toEqual(["sizeBytes", "compress", "level", "iterations", "warmupIterations", "seed", "file"]);
  });

  it("JVM: choices of text and of numbers, header lines and JVM flags as lists, the harness's settings with their units", () => {
    const http = fieldsOf(schemaOf(jvmWorkloads as Advert[], "http"));
    expect(byKey(http, "url")).toMatchObject({ kind: "string", required: true });
    expect(byKey(http, "method")).toMatchObject({ kind: "enum", options: ["GET", "HEAD", "POST", "PUT", "DELETE"], default: "GET" });
    expect(byKey(http, "headers")).toMatchObject({ kind: "list", item: { kind: "string" }, default: [] });
    expect(byKey(http, "jvmArgs")).toMatchObject({ kind: "list", item: { kind: "string" } });
    expect(byKey(http, "iterationTime")).toMatchObject({ kind: "integer", unit: "ms", default: 1000 });
    const cipher = fieldsOf(schemaOf(jvmWorkloads as Advert[], "cipher"));
    expect(byKey(cipher, "keyBits")).toMatchObject({ kind: "enum", options: [128, 192, 256], default: 256, unit: "bits" });
    // A text with usual values, not a choice: a plugin jar's provider must stay allowed.
    expect(byKey(cipher, "provider")).toMatchObject({ kind: "string", suggestions: ["SunJCE", "BC"], default: "SunJCE" });
    expect(parseFieldText(byKey(cipher, "provider") as ScalarField, "AmazonCorrettoCryptoProvider")).toEqual({ value: "AmazonCorrettoCryptoProvider" });
    expect(byKey(fieldsOf(schemaOf(jvmWorkloads as Advert[], "json")), "mapper")).toMatchObject({ kind: "enum", options: ["shared", "new-per-call"] });
    const kafka = fieldsOf(schemaOf(jvmWorkloads as Advert[], "kafka"));
    // Required unless localBroker is true (the agent starts a broker for the run): the workload says which is missing.
    expect(byKey(kafka, "bootstrapServers")).toMatchObject({ kind: "string", required: false });
    expect(byKey(kafka, "localBroker")).toMatchObject({ kind: "boolean" });
    expect(byKey(kafka, "serializer")).toMatchObject({ kind: "string", default: "JACKSON_OBJECT_MAPPER" });
    expect(byKey(kafka, "acks")).toMatchObject({ kind: "enum", options: ["all", "1", "0"], default: "all" });
    expect(byKey(kafka, "compressionType")).toMatchObject({ kind: "enum", options: ["none", "gzip", "snappy", "lz4", "zstd"], default: "none" });
    expect(byKey(kafka, "lingerMs")).toMatchObject({ kind: "integer", unit: "ms", default: 5 });
    expect(byKey(kafka, "batchSize")).toMatchObject({ kind: "integer", unit: "B", default: 16384 });
    expect(byKey(kafka, "records")).toMatchObject({ kind: "integer", default: 10000, minimum: 1 });
    expect(kafka.every((field) => field.description !== "")).toBe(true);
  });
});

describe("settingsForm on other schemas", () => {
  it("maps each property type to a field, with title, description, default, bounds and required", () => {
    const fields = fieldsOf({
      type: "object",
      properties: {
        host: { type: "string", title: "Host name", description: "Where to connect" },
        ratio: { type: "number", minimum: 0, exclusiveMaximum: 1 },
        size: { type: "integer", minimum: 1, maximum: 64, default: 8, "x-unit": "KiB" },
        verbose: { type: "boolean", default: false },
        level: { enum: [1, 5, 9] },
        sizes: { type: "array", items: { type: "integer", minimum: 1 } },
        note: { type: ["string", "null"] },
      },
      required: ["host", "size"],
    });
    expect(fields).toEqual([
      { key: "host", kind: "string", label: "Host name", description: "Where to connect", required: true },
      { key: "ratio", kind: "number", label: "ratio", description: "", required: false, minimum: 0, exclusiveMaximum: 1 },
      { key: "size", kind: "integer", label: "size", description: "", required: true, default: 8, minimum: 1, maximum: 64, unit: "KiB" },
      { key: "verbose", kind: "boolean", label: "verbose", description: "", required: false, default: false },
      { key: "level", kind: "enum", label: "level", description: "", required: false, options: [1, 5, 9] },
      { key: "sizes", kind: "list", label: "sizes", description: "", required: false, item: { kind: "integer", minimum: 1 } },
      { key: "note", kind: "string", label: "note", description: "", required: false },
    ]);
  });

  it("edits what it cannot draw as JSON, setting by setting, and says why", () => {
    const fields = fieldsOf({
      type: "object",
      properties: { steps: { type: "array", items: { type: "object" } }, x: { type: ["string", "number"] }, free: { type: "object" }, ok: { type: "integer" } },
    });
    expect(fields.map((field) => [field.key, field.kind, field.kind === "json" ? field.reason : ""])).toEqual([
      ["steps", "json", "its items: it is an object"],
      ["x", "json", "it has no single type"],
      ["free", "json", "its names and values are free-form"],
      ["ok", "integer", ""],
    ]);
  });

  it("hands only settings it cannot describe at all to the raw JSON editor", () => {
    expect(settingsForm({})).toEqual({ unsupported: "the agent does not describe these settings" });
    expect(settingsForm({ $schema: "https://json-schema.org/draft/2020-12/schema" })).toEqual({ unsupported: "the agent does not describe these settings" });
    expect(settingsForm({ type: "object", properties: {} })).toEqual({ unsupported: "the workload has no settings to fill in" });
    expect(settingsForm({ type: "array" })).toEqual({ unsupported: "the settings are not an object" });
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
  const spec = (kind: ScalarSpec["kind"], extra: Partial<ScalarSpec> = {}): ScalarSpec => ({ kind, ...extra });

  it("turns text into values, and empty text into a left-out setting", () => {
    expect(parseFieldText(spec("integer"), " 42 ")).toEqual({ value: 42 });
    expect(parseFieldText(spec("integer"), "")).toEqual({ value: undefined });
    expect(parseFieldText(spec("number"), "0.5")).toEqual({ value: 0.5 });
    expect(parseFieldText(spec("string"), " keep spaces ")).toEqual({ value: " keep spaces " });
    expect(parseFieldText(spec("boolean"), "false")).toEqual({ value: false });
    expect(parseFieldText(spec("enum", { options: [1, 5, 9] }), "5")).toEqual({ value: 5 });
  });

  it("says what is wrong with text that is not a value of the field's kind", () => {
    expect(parseFieldText(spec("integer"), "4.5")).toEqual({ error: "enter a whole number" });
    expect(parseFieldText(spec("number"), "fast")).toEqual({ error: "enter a number" });
    expect(parseFieldText(spec("enum", { options: ["a", "b"] }), "c")).toEqual({ error: "choose one of a, b" });
  });

  it("lists: one row per item, empty rows left out, a bad row named", () => {
    const list: ListField = { key: "command", kind: "list", label: "command", description: "", required: false, item: { kind: "string" } };
    expect(listValue(list, ["sh", "-c", "echo a, b", ""])).toEqual({ value: ["sh", "-c", "echo a, b"] });
    expect(listValue(list, ["", ""])).toEqual({ value: undefined });
    expect(listValue({ ...list, item: { kind: "integer" } }, ["0", "two"])).toEqual({ error: "item 2: enter a number" });
  });

  it("maps: name → value rows, blank rows left out, a nameless value and a repeated name refused", () => {
    const headers: MapField = { key: "headers", kind: "map", label: "headers", description: "", required: false, value: { kind: "string" } };
    expect(
      mapValue(headers, [
        { name: "Authorization", text: "Bearer x" },
        { name: " X-Trace ", text: "" },
        { name: "", text: "" },
      ]),
    ).toEqual({ value: { Authorization: "Bearer x", "X-Trace": "" } });
    expect(mapValue(headers, [])).toEqual({ value: undefined });
    expect(mapValue(headers, [{ name: "", text: "lost" }])).toEqual({ error: "row 1: give a name for the value “lost”" });
    expect(
      mapValue(headers, [
        { name: "A", text: "1" },
        { name: "A", text: "2" },
      ]),
    ).toEqual({ error: "“A” is given twice" });
  });

  it("shows values as text", () => {
    expect(fieldText(spec("integer"), undefined)).toBe("");
    expect(fieldText(spec("boolean"), true)).toBe("true");
  });

  it("replaces a setting in place, nested ones too, and leaves out what is left empty", () => {
    expect(Object.keys(withSetting({ a: 1, b: 2 }, "a", 3))).toEqual(["a", "b"]);
    expect(withSetting({ a: 1, b: 2 }, "a", undefined)).toEqual({ b: 2 });
    expect(withSetting({ a: 1 }, "c", true)).toEqual({ a: 1, c: true });
    expect(withSetting({ url: "x" }, ["selfTarget", "delayMs"], 5)).toEqual({ url: "x", selfTarget: { delayMs: 5 } });
    expect(withSetting({ selfTarget: { delayMs: 5 } }, ["selfTarget", "delayMs"], undefined)).toEqual({});
    expect(withSetting({ headers: { A: "1" } }, "headers", undefined)).toEqual({});
    expect(withSetting({ command: ["a"] }, "command", [])).toEqual({});
  });
});

describe("SchemaForm", () => {
  it("offers the JVM cipher's known providers as suggestions of a text box, not a closed choice", () => {
    const html = renderToStaticMarkup(
      createElement(SchemaForm, {
        idPrefix: "v.settings",
        fields: fieldsOf(schemaOf(jvmWorkloads as Advert[], "cipher")),
        settings: { provider: "BC" },
        problems: {},
        onChange: () => undefined,
      }),
    );
    expect(html).toMatch(
      /<input[^>]*id="v\.settings\.provider"[^>]*list="v\.settings\.provider-suggestions"[^>]*>|<input[^>]*list="v\.settings\.provider-suggestions"[^>]*id="v\.settings\.provider"[^>]*>/,
    );
    expect(html).toContain('<datalist id="v.settings.provider-suggestions"><option value="SunJCE"></option><option value="BC"></option></datalist>');
  });

  it("draws the Go http workload as fields, rows and groups, with no JSON box", () => {
    const fields = fieldsOf(schemaOf(goWorkloads as Advert[], "http"));
    const html = renderToStaticMarkup(
      createElement(SchemaForm, {
        idPrefix: "v.settings",
        fields,
        settings: {
          url: "http://127.0.0.1:8080/",
          headers: { Accept: "text/plain" },
          selfTarget: { delayMs: 2 },
          targets: [{ name: "app-1", addr: "127.0.0.1:17811", args: ["--cache"] }],
        },
        problems: {},
        onChange: () => undefined,
      }),
    );
    const tag = (id: string) => html.match(new RegExp(`<(?:input|select|fieldset)[^>]*id="${id.replaceAll(".", "\\.")}"[^>]*>`))?.[0] ?? `(no element ${id})`;
    expect(html).not.toContain("<textarea");
    expect(tag("v.settings.url")).toContain('value="http://127.0.0.1:8080/"');
    // headers: a name and a value box per entry.
    expect(tag("v.settings.headers.0.name")).toContain('value="Accept"');
    expect(tag("v.settings.headers.0.value")).toContain('value="text/plain"');
    expect(html).toContain('aria-label="Add an entry to headers"');
    // selfTarget: its own group of fields, with units and defaults as placeholders.
    expect(tag("v.settings.selfTarget")).toMatch(/^<fieldset class="settings-group"/);
    expect(tag("v.settings.selfTarget.responseBytes")).toContain('placeholder="1024"');
    expect(tag("v.settings.selfTarget.delayMs")).toContain('value="2"');
    expect(tag("v.settings.timeoutMs")).toContain('placeholder="10000"');
    // targets: a group per item, with its fields and its flags as rows of their own.
    expect(tag("v.settings.targets.0")).toMatch(/^<fieldset class="settings-group"/);
    expect(tag("v.settings.targets.0.name")).toContain('value="app-1"');
    expect(tag("v.settings.targets.0.addr")).toContain('value="127.0.0.1:17811"');
    expect(tag("v.settings.targets.0.args.0")).toContain('value="--cache"');
    expect(html).toContain('aria-label="Remove targets 1"');
    expect(html).toContain('aria-label="Add an item to targets"');
    // Choices are selects whose first option says the default, or that it is not set.
    expect(tag("v.settings.model")).toMatch(/^<select/);
    expect(html).toMatch(
      /<select id="v.settings.model">\s*<option value="" selected="">not set<\/option><option value="closed">closed<\/option><option value="open">open<\/option><\/select>/,
    );
    expect(html).toMatch(/<select id="v.settings.keepAlive">\s*<option value="" selected="">default \(yes\)<\/option>/);
    expect(html).toContain('<span class="unit" aria-hidden="true">ms</span>');
  });
});
