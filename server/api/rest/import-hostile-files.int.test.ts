// Hostile files for every importer, through POST /api/v1/imports on a real, migrated PostgreSQL:
// each importer × each kind of damage (empty, binary, truncated mid-value, a number no field can
// hold, NaN/Infinity) must be refused with a 4xx whose message says what is wrong — and leave
// every table as it was. The files are the importers' real fixtures, spoiled in one place, so
// the spoilt spot is the only thing wrong with them. (Another tool's file sent as each format is
// in imports.int.test.ts, every pair of them.)
import crypto from "node:crypto";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "~/app/api/v1/imports/route";
import { db } from "~/server/db/client";
import { importFormats, type ImportFormat } from "~/server/schemas/import-formats";
import { createApiKey } from "~/server/projects/api-keys";
import { createProject } from "~/server/projects/projects";
import { readFixture } from "~/test/importer-expectations";
import { expectRefused } from "~/test/rest-assertions";

afterAll(() => db.$disconnect());

let apiKey: string;
beforeAll(async () => {
  const slug = `hostile-files-${crypto.randomBytes(4).toString("hex")}`;
  await createProject(db, { name: slug, slug, description: "" });
  apiKey = (await createApiKey(db, slug, "hostile files")).secret;
});

const NUMBER = String.raw`[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?`;

/**
 * One real file per importer, and where in it a measured value and (when the format has one) an
 * integer count stand: the first capture group of each pattern.
 */
interface Subject {
  format: ImportFormat;
  file: string;
  value: RegExp;
  count?: RegExp;
}

const subjects: Subject[] = [
  { format: "jmh", file: "jmh/params-gc.json", value: new RegExp(String.raw`"rawData" : \[\s*\[\s*(${NUMBER})`) },
  {
    format: "jmh",
    file: "jmh/sample-ss.json",
    value: new RegExp(String.raw`"rawDataHistogram" : \[\s*\[\s*\[\s*\[\s*(${NUMBER})`),
    count: new RegExp(String.raw`"rawDataHistogram" : \[\s*\[\s*\[\s*\[\s*${NUMBER},\s*(${NUMBER})`),
  },
  {
    format: "gobench",
    file: "gobench/go-test-bench.txt",
    value: new RegExp(String.raw`^Benchmark\S+\s+\d+\s+(${NUMBER}) ns/op`, "m"),
    count: /^Benchmark\S+\s+(\d+)/m,
  },
  { format: "hyperfine", file: "hyperfine/two-commands.json", value: new RegExp(String.raw`"times": \[\s*(${NUMBER})`) },
  { format: "pytest-benchmark", file: "pytest-benchmark/with-data.json", value: new RegExp(String.raw`"data": \[\s*(${NUMBER})`), count: /"rounds": (\d+)/ },
  {
    format: "google-benchmark",
    file: "google-benchmark/repetitions.json",
    value: new RegExp(String.raw`"real_time": (${NUMBER})`),
    count: /"iterations": (\d+)/,
  },
  {
    format: "criterion",
    file: "criterion/bundle.json",
    value: new RegExp(String.raw`"times": \[\s*(${NUMBER})`),
    count: new RegExp(String.raw`"iters": \[\s*(${NUMBER})`),
  },
  {
    format: "k6",
    file: "k6/summary.json",
    value: new RegExp(String.raw`"http_req_duration": \{\s*"max": (${NUMBER})`),
    count: /"http_reqs": \{\s*"count": (\d+)/,
  },
  { format: "k6", file: "k6/out.csv", value: new RegExp(String.raw`^http_req_duration,\d+,(${NUMBER})`, "m") },
  { format: "wrk", file: "wrk/wrk-latency.txt", value: new RegExp(String.raw`^Requests/sec:\s+(${NUMBER})`, "m"), count: /^\s+(\d+) requests in/m },
  {
    format: "ngrinder",
    file: "ngrinder/output.csv",
    value: new RegExp(String.raw`^\d{4}-[^,\n]*,\d+,\d+,\d+,(${NUMBER})`, "m"),
    count: /^\d{4}-[^,\n]*,\d+,(\d+)/m,
  },
  { format: "csv", file: "csv/plain.csv", value: new RegExp(String.raw`^(${NUMBER}),`, "m") },
];

/** `text` with the first capture group of `spot` replaced by `literal`. */
function replaceAt(text: string, spot: RegExp, literal: string): string {
  const match = new RegExp(spot.source, `${spot.flags.replace("g", "")}d`).exec(text);
  const at = match?.indices?.[1];
  if (!at) throw new Error(`the test's pattern ${spot} found nothing`);
  return `${text.slice(0, at[0])}${literal}${text.slice(at[1])}`;
}

/** The file cut between two digits of a value past its middle, as a dropped connection leaves it. */
function truncated(text: string): string {
  for (let at = Math.floor(text.length / 2); at < text.length - 1; at++) {
    if (/\d/.test(text[at - 1] as string) && /\d/.test(text[at] as string)) return text.slice(0, at);
  }
  throw new Error("no value to cut in the second half");
}

/** Deterministic noise: the bytes of a SHA-256 chain, which are not UTF-8. */
function noise(length: number): Buffer {
  const chunks: Buffer[] = [];
  let block = crypto.createHash("sha256").update("hostile").digest();
  for (let size = 0; size < length; size += block.length) {
    chunks.push(block);
    block = crypto.createHash("sha256").update(block).digest();
  }
  return Buffer.concat(chunks).subarray(0, length);
}

interface Kind {
  name: string;
  body: (subject: Subject, text: string) => string | Buffer;
  status: number;
  /** What the message must say (it also names the format or the field). */
  says: RegExp;
  /** Only for subjects with a count. */
  needsCount?: boolean;
}

const TWO_TO_64_PLUS_ONE = "18446744073709551617";

const kinds: Kind[] = [
  { name: "a 0-byte file", body: () => "", status: 400, says: /empty/i },
  { name: "binary garbage", body: () => noise(2048), status: 400, says: /not valid UTF-8.*byte/i },
  { name: "the file gzipped", body: (_, text) => zlib.gzipSync(text), status: 400, says: /not valid UTF-8.*byte/i },
  {
    name: "NUL bytes inside the text",
    body: (_, text) => `${text.slice(0, 40)}\u0000\u0000${text.slice(40)}`,
    status: 400,
    says: /NUL character \(U\+0000\) at line \d+, column \d+: a binary file/,
  },
  // JSON and CSV say so; a line-based printout names the line it could not read, or what is missing.
  { name: "the file truncated mid-value", body: (_, text) => truncated(text), status: 422, says: /truncated|at line \d+: "|no "N requests in/ },
  {
    name: "a value of 1e400",
    body: (subject, text) => replaceAt(text, subject.value, "1e400"),
    status: 422,
    says: /1e400.*(not a finite number|is beyond)|beyond the range of a 64-bit float/,
  },
  { name: "a value of NaN", body: (subject, text) => replaceAt(text, subject.value, "NaN"), status: 422, says: /NaN/ },
  { name: "a value of Infinity", body: (subject, text) => replaceAt(text, subject.value, "Infinity"), status: 422, says: /Infinity/ },
  { name: "a value of -Infinity", body: (subject, text) => replaceAt(text, subject.value, "-Infinity"), status: 422, says: /Infinity/ },
  {
    name: "a count of 2^64+1",
    body: (subject, text) => replaceAt(text, subject.count as RegExp, TWO_TO_64_PLUS_ONE),
    status: 422,
    says: /at most 9007199254740991|<=9007199254740991/,
    needsCount: true,
  },
];

function postImport(format: string, body: string | Buffer) {
  const query = new URLSearchParams({ format, experiment: `hostile-${crypto.randomBytes(4).toString("hex")}`, create: "true" });
  return POST(
    new Request(`http://test.local/api/v1/imports?${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "text/plain" },
      body: new Uint8Array(body instanceof Buffer ? body : Buffer.from(body)),
    }),
  );
}

it("covers every importer", () => {
  expect(new Set(subjects.map((subject) => subject.format))).toEqual(new Set(importFormats));
});

it("the unspoilt files import (so a refusal below is the spoilt spot's doing)", async () => {
  for (const subject of subjects) {
    const response = await postImport(subject.format, readFixture(subject.file));
    expect(response.status, `${subject.file}: ${await response.clone().text()}`).toBe(201);
  }
});

describe.each(subjects.map((subject) => [subject.file, subject] as const))("%s", (_, subject) => {
  const cases = kinds.filter((kind) => !kind.needsCount || subject.count);
  it.each(cases.map((kind) => [kind.name, kind] as const))("%s → 4xx naming the problem, nothing stored", async (_name, kind) => {
    const body = kind.body(subject, readFixture(subject.file));
    const code = kind.status === 400 ? "BAD_REQUEST" : "UNPROCESSABLE";
    const { body: answer } = await expectRefused(db, () => postImport(subject.format, body), kind.status, code);
    expect(answer.error.message).toMatch(kind.says);
    if (kind.status === 422) expect(answer.error.message).toMatch(new RegExp(`^Not valid ${subject.format} output: `));
  });
});
