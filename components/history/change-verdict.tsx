// A change point's size and verdict as one badge: "+8.30% regression" in the worse colour,
// "−5.40% improvement" in the better one; the size worded as every change is (server/display/display.ts).
import { formatChange, type ChangeStyle } from "~/server/display/display";

/** `style`: the one its interval is written in, when it is shown beside (changeStyle). */
export function ChangeVerdict({ percent, verdict, style }: { percent: number | null; verdict: "regression" | "improvement"; style?: ChangeStyle }) {
  return (
    <span className={`verdict ${verdict === "regression" ? "verdict-worse" : "verdict-better"}`}>
      {formatChange(percent, style)} {verdict}
    </span>
  );
}
