// Text for the share preview image. Its font is the one next/og bundles (Geist); for a character
// Geist lacks, next/og fetches a font from Google Fonts while drawing. Versus must work offline
// and call out to no one, so drawn text keeps to what Geist covers and shows "?" elsewhere (the
// og:title and description carry the exact text). Coverage measured by drawing every character
// with fetch disabled: ASCII, Latin-1, Latin Extended-A except the code points listed, and the
// punctuation and symbols below.
const LATIN_EXTENDED_A_GAPS = new Set([0x114, 0x115, 0x12c, 0x12d, 0x138, 0x13f, 0x140, 0x149, 0x14e, 0x14f, 0x17f]);
const SYMBOLS = new Set([..."–—‘’‚“”„†‡•…‰′″€™←↑→↓−≠≤≥"].map((c) => c.codePointAt(0)));

function drawable(code: number): boolean {
  if (code >= 0x20 && code <= 0x7e) return true;
  if (code >= 0xa0 && code <= 0xff) return code !== 0xad;
  if (code >= 0x100 && code <= 0x17f) return !LATIN_EXTENDED_A_GAPS.has(code);
  return SYMBOLS.has(code);
}

/** `text` with every character the image font cannot draw replaced by "?", cut to `max` characters. */
export function drawableText(text: string, max = Infinity): string {
  const chars = [...text.replace(/\s+/g, " ").trim()].map((c) => (drawable(c.codePointAt(0) ?? 0) ? c : "?"));
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`
    : chars.join("");
}
