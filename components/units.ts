// Numbers with their unit, scaled the way people read them: 1.23 ms rather than 1230000 ns,
// 1.5 MB rather than 1572864 B, 12.3k req/s. Only presentation: the value itself is the server's.
// Bytes scale by 1024 (as tools that print KB/MB for memory and payloads mostly mean).

interface Step {
  /** How many base units one of this is (ns → 1e-9 s). */
  size: number;
  label: string;
}

interface Family {
  /** The input unit's size in base units. */
  size: number;
  steps: readonly Step[];
  /** Appended after the scaled label, e.g. "/op" of "ns/op". */
  suffix: string;
  /** "12.3k req/s" style: the label is glued to the number and the unit follows after a space. */
  glued: boolean;
  unit: string;
}

const TIME: readonly Step[] = [
  { size: 1e-9, label: "ns" },
  { size: 1e-6, label: "µs" },
  { size: 1e-3, label: "ms" },
  { size: 1, label: "s" },
];
const TIME_IN: Record<string, number> = { ns: 1e-9, us: 1e-6, "µs": 1e-6, "μs": 1e-6, ms: 1e-3, s: 1, sec: 1 };

const BYTES: readonly Step[] = [
  { size: 1, label: "B" },
  { size: 1024, label: "KB" },
  { size: 1024 ** 2, label: "MB" },
  { size: 1024 ** 3, label: "GB" },
  { size: 1024 ** 4, label: "TB" },
];
const BYTES_IN: Record<string, number> = {
  b: 1, byte: 1, bytes: 1, kb: 1024, kib: 1024, mb: 1024 ** 2, mib: 1024 ** 2, gb: 1024 ** 3, gib: 1024 ** 3, tb: 1024 ** 4, tib: 1024 ** 4,
};

const COUNT: readonly Step[] = [
  { size: 1, label: "" },
  { size: 1e3, label: "k" },
  { size: 1e6, label: "M" },
  { size: 1e9, label: "G" },
];

/** How a unit scales, or null when it is kept as written (%, unknown units). */
function familyOf(unit: string): Family | null {
  const trimmed = unit.trim();
  const slash = trimmed.indexOf("/");
  const head = slash === -1 ? trimmed : trimmed.slice(0, slash);
  const suffix = slash === -1 ? "" : trimmed.slice(slash);
  if (head in TIME_IN && (suffix === "" || suffix === "/op")) return { size: TIME_IN[head] as number, steps: TIME, suffix, glued: false, unit: trimmed };
  const bytes = BYTES_IN[head.toLowerCase()];
  // "b" alone is bytes; "Mb" (megabits) is not, so only B/KB/… spelled with a capital B count.
  if (bytes !== undefined && /B$/.test(head) && (suffix === "" || suffix === "/s" || suffix === "/op")) return { size: bytes, steps: BYTES, suffix, glued: false, unit: trimmed };
  if (bytes !== undefined && /^bytes?$/i.test(head)) return { size: 1, steps: BYTES, suffix, glued: false, unit: trimmed };
  // Any other per-second rate (req/s, ops/s, msg/s, iter/s): 12.3k req/s.
  if (suffix === "/s" && head !== "") return { size: 1, steps: COUNT, suffix: "", glued: true, unit: trimmed };
  if (trimmed === "" || trimmed === "count" || trimmed === "1") return { size: 1, steps: COUNT, suffix: "", glued: true, unit: "" };
  return null;
}

/** 3 significant digits, thousands grouped, no exponent for everyday magnitudes. */
export function formatNumber(value: number, significant = 3): string {
  if (!Number.isFinite(value)) return "—";
  if (value === 0) return "0";
  const magnitude = Math.abs(value);
  if (magnitude >= 1e15 || magnitude < 1e-6) return value.toExponential(significant - 1);
  if (magnitude >= 10 ** significant) return value.toLocaleString("en-US", { maximumFractionDigits: 0 });
  return value.toLocaleString("en-US", { maximumSignificantDigits: significant });
}

export interface UnitScale {
  /** Multiply a value in the metric's unit by this to express it in `label`. */
  factor: number;
  label: string;
  /** "k" of "12k req/s" is glued to the number. */
  glued: boolean;
}

/** The step that shows `magnitude` (in `unit`) with 1 to 999 before the decimal point. */
export function scaleFor(unit: string, magnitude: number, significant = 3): UnitScale {
  const family = familyOf(unit);
  if (!family) return { factor: 1, label: unit.trim(), glued: unit.trim() === "%" };
  const base = Math.abs(magnitude) * family.size;
  // Zero stays in the unit it was given ("0 ms"); anything else finds its own step.
  let chosen = (base === 0 && family.steps.find((step) => step.size === family.size)) || (family.steps[0] as Step);
  for (const step of base === 0 ? [] : family.steps) {
    // Compare after rounding, so 999.96 µs reads "1 ms" and not "1,000 µs".
    if (Number((base / step.size).toPrecision(significant)) >= 1) chosen = step;
  }
  const label = family.glued ? `${chosen.label}${family.unit ? ` ${family.unit}` : ""}` : `${chosen.label}${family.suffix}`;
  return { factor: family.size / chosen.size, label, glued: family.glued };
}

function join(number: string, scale: UnitScale): string {
  if (!scale.label) return number;
  return scale.glued ? `${number}${scale.label}` : `${number} ${scale.label}`;
}

/** A value with its unit, scaled for its own size: formatUnit(1530000, "ns") → "1.53 ms". */
export function formatUnit(value: number | null | undefined, unit: string, significant = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  const scale = scaleFor(unit, value, significant);
  return join(formatNumber(value * scale.factor, significant), scale);
}

/**
 * One scale for every tick of an axis (0, 0.5 ms, 1 ms, 1.5 ms rather than 0, 500 µs, 1 ms…),
 * chosen for the largest value the axis shows.
 */
export function axisFormatter(unit: string, maxAbs: number): (value: number) => string {
  const scale = scaleFor(unit, maxAbs);
  return (value) => (value === 0 ? formatUnit(0, unit) : join(formatNumber(value * scale.factor), scale));
}

/** Time since a series' start for an axis: "850 ms", "45 s", "12:30", "1:02:00". */
export function formatElapsed(ms: number, spanMs = ms): string {
  if (!Number.isFinite(ms)) return "—";
  if (spanMs < 2000) return `${formatNumber(ms)} ms`;
  if (spanMs < 120_000) return `${formatNumber(ms / 1000)} s`;
  const total = Math.round(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, "0");
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, "0")}:${seconds}` : `${minutes}:${seconds}`;
}
