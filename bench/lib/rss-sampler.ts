// Samples a process's resident memory once a second (bench/lib/server.ts memoryOf) and sums it
// up: at the start, the peak, at the end, and the peak of each half of the sampling, so a server
// whose memory keeps climbing under a steady load shows a second-half peak above the first's.
import { memoryOf } from "./server";

export interface RssSummary {
  start: number;
  peak: number;
  end: number;
  firstHalfPeak: number;
  secondHalfPeak: number;
  samples: number;
  /** The peak of each tenth of the sampling, in order: where the memory levels off. */
  tenths: number[];
}

export function sampleRss(pid: number, everyMs = 1000): { stop(): RssSummary } {
  const samples: number[] = [memoryOf(pid).rss];
  const timer = setInterval(() => samples.push(memoryOf(pid).rss), everyMs);
  return {
    stop() {
      clearInterval(timer);
      samples.push(memoryOf(pid).rss);
      const half = Math.floor(samples.length / 2);
      return {
        start: samples[0] as number,
        peak: Math.max(...samples),
        end: samples.at(-1) as number,
        firstHalfPeak: Math.max(...samples.slice(0, half)),
        secondHalfPeak: Math.max(...samples.slice(half)),
        samples: samples.length,
        tenths: Array.from({ length: 10 }, (_, i) => {
          const from = Math.floor((i * samples.length) / 10);
          return Math.max(...samples.slice(from, Math.max(from + 1, Math.floor(((i + 1) * samples.length) / 10))));
        }),
      };
    },
  };
}
