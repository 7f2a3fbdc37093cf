// A change point's size and verdict as one badge: "+8.30% regression" in the worse colour,
// "−5.40% improvement" in the better one; the size worded as every change is (server/display/display.ts).
import { formatChange } from "~/server/display/display";

export function ChangeVerdict({ percent, verdict }: { percent: number | null; verdict: "regression" | "improvement" }) {
  return (
    <span className={`verdict ${verdict === "regression" ? "verdict-worse" : "verdict-better"}`}>
      {formatChange(percent)} {verdict}
    </span>
  );
}
