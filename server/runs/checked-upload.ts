// An upload checked by its schema (ZResultsUpload) — a JSON upload's body, an import's runs —
// with its sample arrays carried as Float64Arrays. The schema checks a `samples` array one number
// at a time, each a call through Zod, and builds the array again: for a CI job's few runs of a
// thousand samples that was a tenth of the server's CPU per upload (bench/load.ts). An array of
// finite numbers only, which is all the schema asks of one (at least one number, each finite), is
// checked here by one loop instead and a stand-in of one sample left for the schema, as the body's
// large arrays are (server/api/rest/lifted-samples.ts); after the check the arrays take their
// places again. Any other array (empty, a string or a null in it, 1e999) stays for the schema,
// which refuses it with its own message and path.
import { ZResultsUpload, type TResultsUpload, type TUploadToStore } from "../schemas/results";
import { parseInput } from "../schemas/validation";

export interface LiftedSamples {
  run: number;
  metric: number;
  /** Which field it was read from: a `samples` array of numbers, or a `samplesBase64` text. */
  field: "samples" | "samplesBase64";
  samples: Float64Array;
}

/** One value in each form (0, as base64: eight zero bytes), which the schema takes as it takes any. */
export const SAMPLES_STAND_IN = [0] as const;
export const BASE64_STAND_IN = "AAAAAAAAAAA=";

/**
 * `value` checked as an upload (parseInput with ZResultsUpload) and ready to store: the arrays
 * `lifted` out of its body already, and its other arrays of finite samples, in their places.
 * Its arrays of finite samples are replaced by stand-ins in `value` itself.
 */
export function checkedUpload(value: unknown, lifted: readonly LiftedSamples[] = []): TUploadToStore {
  const more = liftFiniteSamples(value, lifted);
  return withLiftedSamples(parseInput(ZResultsUpload, value), more.length === 0 ? lifted : [...lifted, ...more]);
}

/** The checked upload with each lifted array in the place of its stand-in. */
export function withLiftedSamples(upload: TResultsUpload, lifted: readonly LiftedSamples[]): TUploadToStore {
  const result: TUploadToStore = upload;
  for (const { run, metric, field, samples } of lifted) {
    const target = result.runs[run]?.metrics[metric];
    // The schema keeps runs and metrics in order, so the stand-in is where it was left.
    const standIn = field === "samples" ? target?.samples?.length === 1 && target.samples[0] === 0 : target?.samplesBase64 === BASE64_STAND_IN;
    if (!target || !standIn) throw new Error(`lifted samples: runs[${run}].metrics[${metric}].${field} is not the stand-in left there`);
    // A lifted samplesBase64 stays one: prepare-metric.ts checks and names it as it does the text's.
    target[field] = samples;
  }
  return result;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The `samples` arrays of finite numbers at runs[r].metrics[m] (but those `lifted` already), each replaced by the stand-in. */
function liftFiniteSamples(value: unknown, lifted: readonly LiftedSamples[]): LiftedSamples[] {
  const found: LiftedSamples[] = [];
  if (!isRecord(value) || !Array.isArray(value.runs)) return found;
  for (const [r, run] of value.runs.entries()) {
    if (!isRecord(run) || !Array.isArray(run.metrics)) continue;
    for (const [m, metric] of run.metrics.entries()) {
      if (!isRecord(metric) || !Array.isArray(metric.samples)) continue;
      if (lifted.some((item) => item.run === r && item.metric === m && item.field === "samples")) continue;
      const samples = finiteSamples(metric.samples);
      if (!samples) continue;
      metric.samples = [...SAMPLES_STAND_IN];
      found.push({ run: r, metric: m, field: "samples", samples });
    }
  }
  return found;
}

/** The numbers as a Float64Array when there is at least one and each is a finite number; else undefined. */
function finiteSamples(items: unknown[]): Float64Array | undefined {
  if (items.length === 0) return undefined;
  const samples = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (typeof item !== "number" || !Number.isFinite(item)) return undefined;
    samples[i] = item;
  }
  return samples;
}
