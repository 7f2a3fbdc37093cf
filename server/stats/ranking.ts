// Ranking of variants by median in the metric's better direction. Positions are the plain order;
// rank is 1 + the number of variants whose median CI lies entirely on the better side of this
// one's, so variants whose intervals overlap share a rank and name each other in tiedWith.
// A variant without an interval (fewer than 2 runs) gets no rank.
import type { Direction, RankingEntry } from "./schemas";

export interface RankInput {
  variant: string;
  median: number | null;
  ciLow: number | null;
  ciHigh: number | null;
}

export function rankVariants(items: readonly RankInput[], direction: Direction): RankingEntry[] {
  const sign = direction === "lower_is_better" ? 1 : -1;
  const withMedian = items.filter((i) => i.median !== null);
  const without = items.filter((i) => i.median === null);
  const ordered = [...withMedian].sort((a, b) => sign * ((a.median as number) - (b.median as number)) || a.variant.localeCompare(b.variant));
  const overlaps = (a: RankInput, b: RankInput) =>
    a.ciLow !== null && a.ciHigh !== null && b.ciLow !== null && b.ciHigh !== null && a.ciLow <= b.ciHigh && b.ciLow <= a.ciHigh;
  // a is clearly better than b when a's whole interval is on b's better side.
  const clearlyBetter = (a: RankInput, b: RankInput) =>
    a.ciLow !== null && a.ciHigh !== null && b.ciLow !== null && b.ciHigh !== null && (sign === 1 ? a.ciHigh < b.ciLow : a.ciLow > b.ciHigh);
  const ranked: RankingEntry[] = ordered.map((item, index) => ({
    variant: item.variant,
    position: index + 1,
    rank: item.ciLow === null || item.ciHigh === null ? null : 1 + ordered.filter((other) => other !== item && clearlyBetter(other, item)).length,
    median: item.median,
    tiedWith: ordered.filter((other) => other !== item && overlaps(item, other)).map((o) => o.variant),
  }));
  return [...ranked, ...without.map((item, index) => ({ variant: item.variant, position: ranked.length + index + 1, rank: null, median: null, tiedWith: [] }))];
}
