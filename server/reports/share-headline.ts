// A shared comparison's verdicts in one line each ("KOTLINX_JSON −4.37% send_time_ms vs
// SPRING_JSON (better, p 0.032)"): the description and preview image of a share link, where a
// chat app shows the outcome before anyone opens the page. Worded by server/display/display.ts, like the
// experiment page and the report.
import { formatChange, formatP, verdictLabel, verdictP } from "../display/display";
import type { TComparison } from "../schemas/comparison";
import type { TShareHeadline } from "../schemas/share-link";

/** Significant changes first: they are the news. Then one line per metric without one. */
export function shareHeadlines(comparison: TComparison): TShareHeadline[] {
  const significant: TShareHeadline[] = [];
  const quiet: TShareHeadline[] = [];
  for (const metric of comparison.metrics) {
    const candidates = metric.comparison?.comparisons ?? [];
    const decided = candidates.filter((c) => c.verdict === "better" || c.verdict === "worse");
    for (const c of decided) {
      const p = verdictP(c);
      const evidence = c.evidence === "weak" ? ", weak evidence" : "";
      const text = `${c.candidate} ${formatChange(c.change.percent)} ${metric.key} vs ${c.baseline} (${verdictLabel[c.verdict]}${p === null ? "" : `, p ${formatP(p)}`}${evidence})`;
      significant.push({ text, verdict: c.verdict });
    }
    if (decided.length > 0) continue;
    if (candidates.length === 0) quiet.push({ text: `${metric.key}: no comparison yet`, verdict: null });
    else if (candidates.every((c) => c.verdict === "insufficient_data"))
      quiet.push({ text: `${metric.key}: ${verdictLabel.insufficient_data}`, verdict: "insufficient_data" });
    else quiet.push({ text: `${metric.key}: ${verdictLabel.no_change} vs ${comparison.baseline}`, verdict: "no_change" });
  }
  return [...significant, ...quiet];
}

/** The link's description: the first few headlines, and how many more there are. */
export function shareDescription(headlines: readonly TShareHeadline[], shown = 3): string {
  if (headlines.length === 0) return "A performance comparison shared from Versus.";
  const rest = headlines.length - shown;
  return (
    headlines
      .slice(0, shown)
      .map((h) => h.text)
      .join("; ") + (rest > 0 ? `; and ${rest} more` : "")
  );
}
