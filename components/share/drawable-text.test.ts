import { describe, expect, it } from "vitest";
import { drawableText } from "./drawable-text";

describe("drawableText", () => {
  it("keeps what the image font draws, verdict punctuation included", () => {
    const headline = "KOTLINX_JSON −4.37% send_time_ms vs SPRING_JSON (better, p 0.032) — ≥ 4 runs… Zürich, Łódź";
    expect(drawableText(headline)).toBe(headline);
  });

  it("replaces what it cannot draw (which would make next/og fetch a font) and cuts long text", () => {
    expect(drawableText("α = 0.05 · 性能")).toBe("? = 0.05 · ??");
    expect(drawableText("a\n  b\tc")).toBe("a b c");
    expect(drawableText("abcdefghij", 6)).toBe("abcde…");
    expect(drawableText("abcdef", 6)).toBe("abcdef");
  });
});
