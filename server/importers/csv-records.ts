// Reads a CSV body record by record with csv-parse, so that a k6 CSV of millions of lines is
// never held as an array of rows: each record goes to the callback and is then dropped.
import { CsvError, parse } from "csv-parse/sync";
import { ImportFormatError } from "./types";

/**
 * Calls `onRecord` with each record's cells and its line number (1-based; the header is the
 * first record). Empty lines are skipped; a ragged row or broken quoting becomes an
 * ImportFormatError that names the line (and says "truncated" when it is the last one).
 */
export function forEachCsvRecord(format: string, body: string, onRecord: (cells: string[], line: number) => void): void {
  try {
    parse(body, {
      bom: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        onRecord(record, context.lines);
        return null; // keep nothing: the caller aggregates as it goes
      },
    });
  } catch (error) {
    if (error instanceof CsvError)
      throw new ImportFormatError(
        format,
        `unreadable CSV: ${error.message}${endsEarly(body, error) ? " (the last line is cut short: the file looks truncated)" : ""}`,
      );
    throw error;
  }
}

/** Whether the error is a short last record or a quote still open at the end: a file cut off. */
function endsEarly(body: string, error: CsvError): boolean {
  if (error.code === "CSV_QUOTE_NOT_CLOSED") return true;
  const lastLine = body.trimEnd().split(/\r\n|\r|\n/).length;
  return error.code === "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH" && (error as CsvError & { lines?: number }).lines === lastLine;
}
