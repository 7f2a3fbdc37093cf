// A change point's size and verdict as one badge: "+8.3% regression" in the worse colour,
// "−5.4% improvement" in the better one.
export function ChangeVerdict({ percent, verdict }: { percent: number | null; verdict: "regression" | "improvement" }) {
  return (
    <span className={`verdict ${verdict === "regression" ? "verdict-worse" : "verdict-better"}`}>
      {formatChangePercent(percent)} {verdict}
    </span>
  );
}

/** "+8.3%", "−5.4%" (a real minus sign), "—" when unknown. */
export function formatChangePercent(percent: number | null): string {
  if (percent === null) return "—";
  return `${percent > 0 ? "+" : percent < 0 ? "−" : ""}${Math.abs(percent).toFixed(1)}%`;
}
