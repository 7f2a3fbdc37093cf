// Structured logs: one `key=value` line per event (logfmt), so a person can read them in a
// terminal and a log shipper can parse them. Values with spaces or quotes are quoted.
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

type Level = "info" | "warn" | "error";

function formatValue(value: string | number | boolean | null): string {
  const text = String(value);
  return text === "" || /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

export function formatLine(level: Level, event: string, fields: LogFields = {}, now = new Date()): string {
  const parts = [`ts=${now.toISOString()}`, `level=${level}`, `event=${formatValue(event)}`];
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) parts.push(`${key}=${formatValue(value)}`);
  return parts.join(" ");
}

/** Writes to stdout (info) and stderr (warn, error); `write` replaces both, for tests. */
export function createLogger(write?: (line: string) => void): Logger {
  const emit = (level: Level) => (event: string, fields?: LogFields) => {
    const line = formatLine(level, event, fields);
    if (write) write(line);
    else if (level === "info") process.stdout.write(`${line}\n`);
    else process.stderr.write(`${line}\n`);
  };
  return { info: emit("info"), warn: emit("warn"), error: emit("error") };
}

/** Discards everything: for tests that do not look at logs. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
