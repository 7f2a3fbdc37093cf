// A one-line upload progress indicator on stderr, for files over 1 MB: redrawn in place on a
// terminal; in a CI log (not a terminal) one line each time the upload passes a 10 % step. Sizes
// are written as every figure of Versus is (server/display/display.ts): "2.7 of 4.823 MiB", in the
// total's unit, binary and labelled as such.
import { formatInScale, unitScale } from "../../server/display/display";

export function progressPrinter(label: string, out: { isTTY?: boolean; write(text: string): unknown } = process.stderr) {
  let lastPercent = -1;
  let lastStep = -1;
  return (sent: number, total: number) => {
    if (total < 1024 * 1024) return;
    const percent = Math.floor((sent / total) * 100);
    if (percent === lastPercent) return;
    lastPercent = percent;
    const scale = unitScale("B", total);
    const line = `${label}: ${percent}% (${formatInScale(sent, { ...scale, unit: "" })} of ${formatInScale(total, scale)})`;
    if (out.isTTY) {
      out.write(`\r${line}${sent >= total ? "\n" : ""}`);
      return;
    }
    // Chunks are 1 MB, so the percentage jumps (e.g. 37 → 74 for 2.7 MB): print whenever a new
    // 10 % step is reached, not only when the percentage lands exactly on a multiple of 10.
    const step = Math.floor(percent / 10);
    if (step > lastStep) {
      lastStep = step;
      out.write(`${line}\n`);
    }
  };
}
