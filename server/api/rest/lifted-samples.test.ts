// Lifting a results upload's large sample arrays out of the JSON body must change nothing a client
// can see: every number is the double JSON.parse gives (bit for bit), every refusal keeps its
// message and path, and anything the scan cannot follow is parsed whole.
import { describe, expect, it } from "vitest";
import { AppError } from "../../core/errors";
import { mulberry32 } from "../../stats/prng";
import { ZResultsUpload } from "../../schemas/results";
import { parseInput } from "../../schemas/validation";
import { parseJson } from "./body";
import { withLiftedSamples } from "../../runs/checked-upload";
import { LIFT_FROM, liftSampleArrays, parseLiftingSamples } from "./lifted-samples";

const random = mulberry32(7);

/** Numbers written every way JSON allows, as their text (a JSON array's element). */
function numberTexts(count: number): string[] {
  const forms = [
    () => String(Math.round(random() * 1e6) / 1000), // 123.456
    () => String(Math.round(random() * 1e4)), // 1234
    () => `-${(random() * 100).toFixed(3)}`, // negative
    () => "0",
    () => "-0",
    () => `0.000${Math.round(random() * 999)}`, // leading zeros in the fraction
    () => `${(random() * 9 + 1).toFixed(2)}e${Math.round(random() * 40 - 20)}`, // exponents both ways
    () => `${Math.round(random() * 99)}E+${Math.round(random() * 25)}`, // past 10^22
    () => `1.5e-${300 + Math.round(random() * 23)}`, // near and below the smallest double
    () => String(random() * 1000), // 16-17 digits: Number() reads it
    () => "123456789012345.678", // more than 15 digits with a point
    () => "9007199254740993", // above 2^53: must round as JSON.parse does
    () => "1.00000000000000000000000000001",
  ];
  return Array.from({ length: count }, (_, i) => forms[i % forms.length]!());
}

const upload = (samplesText: string, extra = "") =>
  `{"experiment":"e","create":true${extra},"runs":[` +
  `{"variant":"a","environment":{"note":"a \\"quoted\\" [bracket] {brace}","samples":[1,2,3]},"metrics":[{"key":"small","unit":"ms","samples":[1,2,3]}]},` +
  `{"variant":"b","metrics":[{"key":"x","unit":"ms","summary":{"n":1,"mean":1}},{"key":"y","unit":"ms","value":1},{"key":"big","unit":"ms","samples":${samplesText}}]}]}`;

/** What the route does with the body's large arrays: lift, parse, check, put back (its smaller arrays become typed arrays too: checked-upload.test.ts). */
function throughRoute(text: string) {
  const { value, lifted } = parseLiftingSamples(Buffer.from(text));
  return { upload: withLiftedSamples(parseInput(ZResultsUpload, value), lifted), lifted };
}

function refusalOf(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error("expected a refusal");
}

describe("lifted sample arrays", () => {
  it("reads a large array into a Float64Array, each number the double JSON.parse gives, bit for bit", () => {
    const texts = numberTexts(LIFT_FROM * 3);
    // Whitespace JSON allows between elements.
    const text = upload(`[ ${texts.join(",\n\t")} \r\n]`);
    const { upload: stored, lifted } = throughRoute(text);
    expect(lifted.map(({ run, metric }) => [run, metric])).toEqual([[1, 2]]);
    const samples = stored.runs[1]!.metrics[2]!.samples!;
    expect(samples).toBeInstanceOf(Float64Array);
    const expected = texts.map((number) => JSON.parse(number) as number);
    expect(samples.length).toBe(expected.length);
    const differing = expected.flatMap((value, i) => (Object.is(value, samples[i]) ? [] : [`${texts[i]}: ${value} ≠ ${samples[i]}`]));
    expect(differing).toEqual([]);
    // Nothing else moved: the rest is what JSON.parse makes of the whole body.
    const whole = parseInput(ZResultsUpload, JSON.parse(text));
    expect({ ...stored, runs: stored.runs.map((run, r) => (r === 1 ? { ...run, metrics: run.metrics.slice(0, 2) } : run)) }).toEqual({
      ...whole,
      runs: whole.runs.map((run, r) => (r === 1 ? { ...run, metrics: run.metrics.slice(0, 2) } : run)),
    });
    expect(stored.runs[0]!.environment).toEqual({ note: 'a "quoted" [bracket] {brace}', samples: [1, 2, 3] });
  });

  it("leaves alone arrays under LIFT_FROM, and arrays called samples anywhere but a metric", () => {
    const small = Array.from({ length: LIFT_FROM - 1 }, (_, i) => i + 0.5).join(",");
    expect(liftSampleArrays(Buffer.from(upload(`[${small}]`))).lifted).toEqual([]);
    const big = Array.from({ length: LIFT_FROM }, (_, i) => i).join(",");
    const elsewhere = `{"experiment":"e","samples":[${big}],"runs":[{"variant":"a","environment":{"samples":[${big}]},"samples":[${big}],"metrics":[{"key":"k","summary":{"n":1,"mean":1}}]}]}`;
    expect(liftSampleArrays(Buffer.from(elsewhere)).lifted).toEqual([]);
  });

  it("leaves an array with anything but finite numbers to JSON.parse and the schema, which refuse it as before", () => {
    const many = (last: string) => `[${[...Array.from({ length: LIFT_FROM }, (_, i) => String(i)), last].join(",")}]`;
    for (const [last, message] of [
      ['"7"', "sample must be a number"],
      ["null", "sample must be a number"],
      ["[1]", "sample must be a number"],
      ["1e999", "sample must be a finite number"],
    ] as const) {
      const text = upload(many(last));
      expect(liftSampleArrays(Buffer.from(text)).lifted).toEqual([]);
      const refusal = refusalOf(() => throughRoute(text));
      expect(refusal.fieldIssues).toContainEqual({ path: ["runs", 1, "metrics", 2, "samples", LIFT_FROM], message });
    }
    // Malformed numbers: JSON.parse's own message, its position counted in the whole body.
    for (const bad of ["01", "1.", ".5", "+1", "1e", "1.2.3", "NaN", "1 2"]) {
      const text = upload(many(bad));
      expect(refusalOf(() => throughRoute(text)).message).toBe(refusalOf(() => parseJson(Buffer.from(text))).message);
    }
  });

  it("parses the whole body when a key on the way repeats, as JSON.parse keeps the last", () => {
    const big = `[${Array.from({ length: LIFT_FROM }, (_, i) => i).join(",")}]`;
    const bodies = [
      `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"k","samples":${big},"samples":[5]}]}]}`,
      `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"k","samples":${big},"\\u0073amples":[5]}]}]}`,
      `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"k","samples":${big}}],"metrics":[{"key":"k","samples":[5]}]}]}`,
      `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"k","samples":${big}}]}],"runs":[{"variant":"b","metrics":[{"key":"k","samples":[5]}]}]}`,
    ];
    for (const text of bodies) {
      expect(liftSampleArrays(Buffer.from(text)).lifted).toEqual([]);
      expect(throughRoute(text).upload).toEqual(parseInput(ZResultsUpload, JSON.parse(text)));
    }
    // An escaped key that means "samples" is the key "samples".
    const escaped = `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"k","\\u0073amples":${big}}]}]}`;
    expect(liftSampleArrays(Buffer.from(escaped)).lifted).toHaveLength(1);
  });

  it("says where a body malformed elsewhere goes wrong, counted in the whole body", () => {
    const big = `[${Array.from({ length: LIFT_FROM }, (_, i) => i).join(",")}]`;
    for (const text of [
      `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"k","samples":${big}}]}],}`,
      `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"k","samples":${big}}]}] "x"}`,
      `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"k","samples":${big}}`,
    ]) {
      expect(liftSampleArrays(Buffer.from(text)).lifted).toHaveLength(1);
      expect(refusalOf(() => parseLiftingSamples(Buffer.from(text))).message).toBe(refusalOf(() => parseJson(Buffer.from(text))).message);
    }
  });

  it("scans a hostile body once: deep nesting is refused as parseJson refuses it, a million arrays cost one pass", () => {
    const deep = Buffer.from(`{"runs":${"[".repeat(200_000)}${"]".repeat(200_000)}}`);
    expect(refusalOf(() => parseLiftingSamples(deep)).message).toBe(refusalOf(() => parseJson(deep)).message);
    // Each "[" looks ahead for its "]" and for a quote, "[" or "{" inside it: searched anew for
    // every array, the quote at the far end would be looked for a million times over 4 MB.
    const wide = Buffer.from(`{"experiment":"e","x":[${"[1],".repeat(1_000_000)}[1]],"runs":[{"variant":"a","metrics":[{"key":"k","value":1}]}],"y":"z"}`);
    const { value, lifted } = parseLiftingSamples(wide);
    expect(lifted).toEqual([]);
    expect((value as { x: unknown[] }).x).toHaveLength(1_000_001);
  });

  it("leaves an array of mostly 17-digit numbers to JSON.parse, and keeps its numbers", () => {
    const texts = Array.from({ length: LIFT_FROM * 2 }, () => String(random() * 1000));
    const text = upload(`[${texts.join(",")}]`);
    expect(liftSampleArrays(Buffer.from(text)).lifted).toEqual([]);
    expect(throughRoute(text).upload.runs[1]!.metrics[2]!.samples).toEqual(texts.map(Number));
  });

  it("lifts every large array of an upload, each put back in its own run and metric", () => {
    const array = (offset: number) => `[${Array.from({ length: LIFT_FROM }, (_, i) => i + offset).join(",")}]`;
    const text = `{"experiment":"e","runs":[${[0, 1, 2]
      .map((r) => `{"variant":"v${r}","metrics":[{"key":"a","samples":${array(r * 10)}},{"key":"b","samples":${array(r * 10 + 5)}}]}`)
      .join(",")}]}`;
    const { upload: stored, lifted } = throughRoute(text);
    expect(lifted).toHaveLength(6);
    for (const r of [0, 1, 2])
      for (const [m, offset] of [
        [0, r * 10],
        [1, r * 10 + 5],
      ] as const) {
        const samples = stored.runs[r]!.metrics[m]!.samples!;
        expect([samples.length, samples[0], samples[LIFT_FROM - 1]]).toEqual([LIFT_FROM, offset, LIFT_FROM - 1 + offset]);
      }
  });
});

describe("lifted samplesBase64", () => {
  const values = Float64Array.from({ length: LIFT_FROM * 2 }, (_, i) => (i % 3 ? 1 : -1) * (i + random()) * 10 ** ((i % 9) - 4));
  const base64 = Buffer.from(values.buffer).toString("base64");
  const withBase64 = (text: string, extra = "") =>
    `{"experiment":"e","runs":[{"variant":"a","metrics":[{"key":"small","unit":"ms","samples":[1,2,3]},{"key":"big","unit":"ms","samplesBase64":"${text}"${extra}}]}]}`;

  it("decodes a large samplesBase64 from the body's bytes into the values its text decodes to", () => {
    const text = withBase64(base64);
    const { upload: stored, lifted } = throughRoute(text);
    expect(lifted.map(({ run, metric, field }) => [run, metric, field])).toEqual([[0, 1, "samplesBase64"]]);
    const samples = stored.runs[0]!.metrics[1]!.samplesBase64;
    expect(samples).toBeInstanceOf(Float64Array);
    expect(Buffer.from((samples as Float64Array).buffer).equals(Buffer.from(values.buffer))).toBe(true);
    // The rest is what JSON.parse makes of the whole body.
    const whole = parseInput(ZResultsUpload, JSON.parse(text));
    expect(stored.runs[0]!.metrics[0]).toEqual(whole.runs[0]!.metrics[0]);
    expect({ ...stored.runs[0]!.metrics[1], samplesBase64: base64 }).toEqual(whole.runs[0]!.metrics[1]);
  });

  it("leaves to JSON.parse and the upload's checks a text that is not plain base64 of whole values, or is short", () => {
    const cut = base64.slice(0, -12); // 9 bytes short of whole: not a multiple of 8
    for (const [text, why] of [
      [base64.replace("A", "\\u0041"), "an escape"],
      [base64.replace("/", "\\/"), "an escaped slash"],
      [`${base64.slice(0, 100)} ${base64.slice(101)}`, "a space (Node's decoder skips it)"],
      [`${base64.slice(0, 100)}é${base64.slice(102)}`, "a character beyond ASCII"],
      [base64.replace(/=+$/, ""), "no padding"],
      [cut, "bytes that are not whole float64 values"],
      [base64.slice(0, 4000), "fewer than LIFT_FROM values"],
    ] as const) {
      const body = withBase64(text);
      expect(liftSampleArrays(Buffer.from(body)).lifted, why).toEqual([]);
      expect(throughRoute(body).upload, why).toEqual(parseInput(ZResultsUpload, JSON.parse(body)));
    }
    // Control characters, which Node's decoder would skip, leaving whole values (a text without
    // padding and four tabs): JSON.parse refuses the body, with the same message either way.
    const unpadded = Buffer.from(values.buffer, 0, (3 * LIFT_FROM * 8) / 2).toString("base64");
    expect(unpadded.endsWith("=")).toBe(false);
    const control = withBase64(`${unpadded.slice(0, 100)}\t\t\t\t${unpadded.slice(100)}`);
    expect(liftSampleArrays(Buffer.from(control)).lifted).toEqual([]);
    expect(refusalOf(() => throughRoute(control)).message).toBe(refusalOf(() => parseJson(Buffer.from(control))).message);
  });

  it("parses the whole body when samplesBase64 repeats, and keeps the schema's refusal of samples with samplesBase64", () => {
    const repeated = withBase64(base64, `,"samplesBase64":"AAAAAAAA8D8="`);
    expect(liftSampleArrays(Buffer.from(repeated)).lifted).toEqual([]);
    expect(throughRoute(repeated).upload.runs[0]!.metrics[1]!.samplesBase64).toBe("AAAAAAAA8D8=");
    const both = withBase64(base64, `,"samples":[1]`);
    expect(refusalOf(() => throughRoute(both)).fieldIssues).toContainEqual({
      path: ["runs", 0, "metrics", 1, "samplesBase64"],
      message: "give samples or samplesBase64, not both",
    });
  });
});
