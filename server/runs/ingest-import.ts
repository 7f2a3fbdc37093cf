// Stores a benchmark tool's output (POST /api/v1/imports): refuses what is no tool's output,
// parses it with the format's importer, puts the runs under the experiment, variant and commit
// the caller named, and stores them as any upload is (ingestResults).
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import { importers } from "../importers";
import { lineAndColumn } from "../importers/body-checks";
import { importToUpload } from "../importers/to-upload";
import { ImportFormatError } from "../importers/types";
import type { TImportQuery } from "../schemas/imports";
import type { TUploadResponse } from "../schemas/results";
import { refuseDeepJson } from "../schemas/storable";
import { checkedUpload } from "./checked-upload";
import { ingestResults, type IngestOptions } from "./ingest-results";

/** Who imports, and how to tell a retry: the source is "import", its detail the format. */
export type ImportOptions = Omit<IngestOptions, "source" | "sourceDetail" | "afterStore">;

/** Imports `text`, the output of `query.format`'s tool (decoded, not empty). */
export async function ingestImport(db: Db, text: string, query: TImportQuery, options: ImportOptions): Promise<TUploadResponse> {
  // No tool prints U+0000, and no text column can hold it: a binary file, refused before parsing
  // (a parser might skip the line, or carry the character into a name).
  const nul = text.indexOf("\u0000");
  if (nul >= 0) {
    const where = lineAndColumn(text, nul);
    throw new AppError("BAD_REQUEST", `The body contains a NUL character (U+0000) at ${where}: a binary file, not ${query.format} output`);
  }
  // JSON output (JMH, k6, hyperfine…) is held to the same nesting limit as a JSON upload.
  if (/^\s*[[{]/.test(text)) refuseDeepJson(text);

  let parsed;
  try {
    parsed = importers[query.format](text);
  } catch (error) {
    if (error instanceof ImportFormatError) throw new AppError("UNPROCESSABLE", error.message, { cause: error });
    throw error;
  }
  // The importer's output goes through the same schema as a hand-written upload.
  const mapped = importToUpload(parsed, { experiment: query.experiment, variant: query.variant, split: query.split, create: query.create });
  const commit = {
    ...(query.commit ? { gitCommit: query.commit } : {}),
    ...(query.branch ? { gitBranch: query.branch } : {}),
    ...(query.commitMessage ? { gitCommitMessage: query.commitMessage } : {}),
    ...(query.commitTime ? { gitCommitTime: query.commitTime } : {}),
  };
  const upload = checkedUpload({ ...mapped, runs: mapped.runs.map((run) => ({ ...run, ...commit })) });
  return ingestResults(db, upload, { ...options, source: "import", sourceDetail: query.format });
}
