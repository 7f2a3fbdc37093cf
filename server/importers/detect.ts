// Which tool wrote a benchmark's output, for `versus run -- <command>` (which has the output but
// no format name): every importer refuses another tool's output (each importer's tests feed it
// every other format's fixtures), so the formats whose importer accepts the text are the
// candidates: one is the answer; several (none of the fixtures is, but a hand-made CSV might
// be) are for the caller to choose from with --format. Pure.
import { importFormats, type ImportFormat } from "../schemas/import-formats";
import { importers } from "./index";

export type Detection = { format: ImportFormat; ambiguous: ImportFormat[] } | { format: null; refusals: { format: ImportFormat; message: string }[] };

export function detectFormat(body: string): Detection {
  const accepted: ImportFormat[] = [];
  const refusals: { format: ImportFormat; message: string }[] = [];
  for (const format of importFormats) {
    try {
      const result = importers[format](body);
      if (result.benchmarks.length > 0) accepted.push(format);
      else refusals.push({ format, message: "no benchmark in it" });
    } catch (error) {
      refusals.push({ format, message: error instanceof Error ? error.message : String(error) });
    }
  }
  const [format] = accepted;
  if (!format) return { format: null, refusals };
  return { format, ambiguous: accepted.slice(1) };
}
