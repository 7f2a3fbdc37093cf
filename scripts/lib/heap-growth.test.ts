// The flag must change what V8 does, not only be accepted: a process keeping 50 MB alive while it
// makes 600 MB of garbage is measured with V8's own growth and with 10 %.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const churn = `
import { limitHeapGrowth } from "./scripts/lib/heap-growth.ts";
import v8 from "node:v8";
limitHeapGrowth(Number(process.env.GROWTH));
const live = Array.from({ length: 50 }, () => Array.from({ length: 131072 }, (_, j) => j + 0.5));
let peak = 0;
let sink = 0;
for (let i = 0; i < 600; i++) {
  const garbage = Array.from({ length: 131072 }, (_, j) => j + i + 0.5);
  sink += garbage[5];
  peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
}
console.log(JSON.stringify({ peak, kept: live.length, sink: sink > 0 }));
`;

function peakHeap(growth: number): number {
  const out = execFileSync(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), "--eval", churn], {
    cwd: root,
    env: { ...process.env, GROWTH: String(growth) },
    encoding: "utf8",
  });
  return (JSON.parse(out.trim()) as { peak: number }).peak;
}

describe("limitHeapGrowth", () => {
  it("keeps the heap near its live size where V8 alone lets garbage pile up", () => {
    const own = peakHeap(0);
    const limited = peakHeap(10);
    // Measured: 243 MB with V8's own growth, 130 MB with 10 % (50 MB live).
    expect(limited).toBeLessThan(own * 0.75);
  }, 60_000);
});
