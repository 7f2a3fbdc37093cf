// The variant's name under its bar or dots, shortened to the room each category has (a phone
// has ~70 px for four variants; the full name is in the tooltip), and "baseline" under the
// baseline's name.
/**
 * What tells the names apart: without the prefix and suffix they all share ("Benchmark…",
 * "… [procs=2]"), when there are at least two names and something is left of each.
 */
export function distinctPart(name: string, all: readonly string[]): string {
  if (all.length < 2) return name;
  let prefix = 0;
  while (all.every((n) => n[prefix] !== undefined && n[prefix] === all[0]?.[prefix])) prefix++;
  let suffix = 0;
  while (all.every((n) => suffix < n.length - prefix && n[n.length - 1 - suffix] === all[0]?.[(all[0]?.length ?? 0) - 1 - suffix])) suffix++;
  const part = name.slice(prefix, name.length - suffix).trim();
  return part.length > 0 && all.every((n) => n.length - prefix - suffix > 0) ? part : name;
}

interface TickProps {
  x?: number | string;
  y?: number | string;
  width?: number | string;
  visibleTicksCount?: number;
  payload?: { value: string | number };
}

/** Width of a 12 px system-font character, on the wide side (capitals, bold), to decide where to cut. */
const CHAR_PX = 7.4;

/**
 * Cut in the middle: names of one experiment often share a long prefix ("BenchmarkEncode/…") and
 * differ at the end, so both ends stay.
 */
export function shorten(name: string, maxChars: number): string {
  if (name.length <= maxChars) return name;
  const head = Math.max(1, Math.floor((maxChars - 1) * 0.4));
  const tail = maxChars - 1 - head;
  return `${name.slice(0, head)}…${name.slice(name.length - tail)}`;
}

export function VariantTick({
  x,
  y,
  width,
  visibleTicksCount,
  payload,
  rows,
  names,
  horizontal = false,
}: TickProps & { rows: readonly { variant: string; isBaseline: boolean }[]; names?: readonly string[]; horizontal?: boolean }) {
  if (x === undefined || y === undefined || !payload) return null;
  // A numeric axis (strip plot) passes the variant's index; a category axis its name.
  const name = typeof payload.value === "number" ? (names?.[payload.value] ?? "") : payload.value;
  // Beside a row the axis's width is the room; under a column, the axis's share per variant.
  const room = horizontal ? Number(width ?? 0) - 8 : Number(width ?? 0) / Math.max(1, visibleTicksCount ?? rows.length);
  const maxChars = Math.max(4, Math.floor(room / CHAR_PX) - 1);
  const all = names ?? rows.map((row) => row.variant);
  const shown = name.length > maxChars ? shorten(distinctPart(name, all), maxChars) : name;
  const isBaseline = rows.some((row) => row.variant === name && row.isBaseline);
  if (horizontal) {
    return (
      <g transform={`translate(${Number(x)},${Number(y)})`} data-variant-tick={name}>
        <title>{name}</title>
        <text x={-6} y={isBaseline ? -2 : 0} dominantBaseline="central" textAnchor="end" fontSize={12} fill="var(--text)" fontWeight={isBaseline ? 700 : 400}>
          {shown}
        </text>
        {isBaseline ? (
          <text x={-6} y={12} dominantBaseline="central" textAnchor="end" fontSize={10} fill="var(--muted)">
            baseline
          </text>
        ) : null}
      </g>
    );
  }
  return (
    <g transform={`translate(${Number(x)},${Number(y)})`} data-variant-tick={name}>
      <title>{name}</title>
      <text y={14} textAnchor="middle" fontSize={12} fill="var(--text)" fontWeight={isBaseline ? 700 : 400}>
        {shown}
      </text>
      {isBaseline ? (
        <text y={30} textAnchor="middle" fontSize={11} fill="var(--muted)">
          baseline
        </text>
      ) : null}
    </g>
  );
}
