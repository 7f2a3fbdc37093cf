// Importer for k6: accepts either `--summary-export` JSON (one benchmark "k6", one repetition of
// summary figures; see k6-summary.ts) or `--out csv` samples (per-request samples and per-second
// series, one benchmark per scenario; see k6-csv.ts). Which one is decided by the content.
import { firstLine, foreignHint, parseJsonBody, requireText } from "./body-checks";
import { importK6Csv } from "./k6-csv";
import { importK6Summary } from "./k6-summary";
import type { Importer } from "./types";
import { ImportFormatError } from "./types";

const FORMAT = "k6";

export const importK6: Importer = (body) => {
  const text = requireText(FORMAT, body);
  const start = text.trimStart();
  if (start.startsWith("{") || start.startsWith("[")) return importK6Summary(parseJsonBody(FORMAT, text));
  if (/^metric_name,timestamp,metric_value\b/.test(start)) return importK6Csv(text);
  throw new ImportFormatError(
    FORMAT,
    `expected k6 --summary-export JSON or k6 --out csv output (header "metric_name,timestamp,metric_value,…") but the body starts with "${firstLine(start)}"${foreignHint(start)}`,
  );
};
