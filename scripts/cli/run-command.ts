// `versus run --experiment <slug> -- <command>`: runs a benchmark command here (once, or
// --repeat N times for a tool that does not repeat itself), finds which tool wrote its output
// (server/importers/detect.ts; --format names it instead) and uploads each repetition's output
// as `versus import` would, with the commit. The output is what the command prints, or the file
// it writes (--file, e.g. JMH's -rff or hyperfine's --export-json). Exits 0 once every
// repetition is stored, 2 when the command fails, no format fits, or the server refuses.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectFormat } from "../../server/importers/detect";
import { importFormatDescriptions, type ImportFormat } from "../../server/schemas/import-formats";
import { CHECK_EXIT } from "./check";
import { apiTargetFromEnv, postFile } from "./http";
import { progressPrinter } from "./progress";
import { idempotencyKey, importQuery, report, type ImportOptions } from "./upload-report";

export interface RunCommandOptions extends ImportOptions {
  /** The tool that wrote the output, when detection should not decide. */
  format?: ImportFormat;
  /** Read the output from this file after each repetition instead of the command's stdout. */
  file?: string;
  repeat?: string;
}

/** Runs the command; resolves with what it printed on stdout (echoed to stderr as it comes). */
function runOnce(command: string[]): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }> {
  // One argument with spaces is a shell command line ("go test -bench=. ./..."); several are argv.
  const [file, ...args] = command as [string, ...string[]];
  const child =
    command.length === 1 && /\s/.test(file)
      ? spawn(file, { shell: true, stdio: ["inherit", "pipe", "inherit"] })
      : spawn(file, args, { stdio: ["inherit", "pipe", "inherit"] });
  const chunks: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    process.stderr.write(chunk);
  });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ code, signal, stdout: Buffer.concat(chunks).toString("utf8") }));
  });
}

function chooseFormat(output: string, forced: ImportFormat | undefined): ImportFormat {
  if (forced) return forced;
  const detection = detectFormat(output);
  if (detection.format === null) {
    throw new Error(
      `could not tell which tool wrote the output: it is none of the import formats${detection.refusals.map((r) => `\n  ${r.format}: ${r.message}`).join("")}\nname the tool with --format <${Object.keys(importFormatDescriptions).join("|")}>`,
    );
  }
  if (detection.ambiguous.length) {
    throw new Error(`the output reads as ${[detection.format, ...detection.ambiguous].join(" and as ")}: name the tool with --format`);
  }
  console.error(
    `versus run: the output is ${detection.format} (${importFormatDescriptions[detection.format]}); --format ${detection.format} says so without detection`,
  );
  return detection.format;
}

export async function runCommand(command: string[], options: RunCommandOptions, env = process.env): Promise<number> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "versus-run-"));
  const invocation = crypto.randomUUID();
  try {
    const target = apiTargetFromEnv(env);
    const repeat = options.repeat === undefined ? 1 : Number(options.repeat);
    if (!Number.isInteger(repeat) || repeat < 1 || repeat > 1000) throw new Error(`--repeat must be a whole number from 1 to 1000, not "${options.repeat}"`);
    let format = options.format;
    for (let round = 1; round <= repeat; round++) {
      if (repeat > 1) console.error(`versus run: ${command.join(" ")} (${round} of ${repeat})`);
      if (options.file) fs.rmSync(options.file, { force: true }); // an old file must not pass for this round's output
      const ran = await runOnce(command);
      if (ran.code !== 0)
        throw new Error(`the command ${ran.signal ? `was ended by ${ran.signal}` : `exited with ${ran.code}`}; nothing was uploaded from this round`);
      let output = ran.stdout;
      if (options.file) {
        if (!fs.existsSync(options.file)) throw new Error(`the command did not write ${options.file}`);
        output = fs.readFileSync(options.file, "utf8");
      }
      format ??= chooseFormat(output, undefined);
      const saved = path.join(tmp, `output-${round}`);
      fs.writeFileSync(saved, output);
      const query = importQuery({ ...options, format });
      report(
        await postFile(
          target,
          `/api/v1/imports?${query}`,
          saved,
          // The CLI's retries of this upload are one upload; another round or invocation ran the
          // benchmark again, so its output is new runs even when it prints the same figures.
          { "Content-Type": "text/plain", "Idempotency-Key": idempotencyKey(saved, `${query}\n${invocation}\n${round}`) },
          progressPrinter("uploading"),
        ),
      );
    }
    return CHECK_EXIT.pass;
  } catch (error) {
    console.error(`versus run: ${error instanceof Error ? error.message : String(error)}`);
    return CHECK_EXIT.error;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
