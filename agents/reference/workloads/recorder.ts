// Collects what a workload records during one job, and keeps the last lines of its log for a
// failure report.
import type { Recorder, Summary } from "./workload";

const LOG_TAIL_BYTES = 64 * 1024;

export class MemoryRecorder implements Recorder {
  readonly samples = new Map<string, number[]>();
  readonly summaries = new Map<string, Summary>();
  readonly values = new Map<string, number>();
  private lines: string[] = [];
  private logBytes = 0;

  sample(key: string, value: number) {
    if (!Number.isFinite(value)) throw new Error(`metric ${key}: ${value} is not a finite number`);
    const list = this.samples.get(key);
    if (list) list.push(value);
    else this.samples.set(key, [value]);
  }

  summary(key: string, summary: Summary) {
    this.summaries.set(key, summary);
  }

  value(key: string, value: number) {
    if (!Number.isFinite(value)) throw new Error(`metric ${key}: ${value} is not a finite number`);
    this.values.set(key, value);
  }

  log(line: string) {
    this.lines.push(line);
    this.logBytes += line.length + 1;
    while (this.logBytes > LOG_TAIL_BYTES && this.lines.length > 1) this.logBytes -= this.lines.shift()!.length + 1;
  }

  recordedKeys(): string[] {
    return [...new Set([...this.samples.keys(), ...this.summaries.keys(), ...this.values.keys()])];
  }

  logTail(): string {
    return this.lines.join("\n").slice(-LOG_TAIL_BYTES);
  }
}
