// A status badge for a README: one metric's latest commit on a branch, its median and the CI
// gate's verdict against the commits before it (check.ts), drawn by badge-maker (the library
// shields.io draws its badges with). A badge is an image, so "nothing to show yet" is a grey
// badge saying so, not an error.
import { makeBadge } from "badge-maker";
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import { formatChange, formatMeasure } from "../display/display";
import type { Verdict as TVerdict } from "../stats/schemas";
import { checkExperimentCommit, variantNamed, type CheckedExperiment, type CheckScope } from "./check";
import { latestCommit } from "./commit-window";

export interface BadgeInput {
  metric: string;
  branch?: string;
  variant?: string;
  window: number;
  /** The gate's minimum change in % (check.ts). */
  minChange: number;
}

export interface Badge {
  label: string;
  message: string;
  color: string;
  verdict: TVerdict | null;
  commit: string | null;
}

const colors: Record<TVerdict, string> = { worse: "red", better: "brightgreen", no_change: "blue", insufficient_data: "lightgrey" };
const marks: Record<TVerdict, string> = { worse: "worse", better: "better", no_change: "no change", insufficient_data: "" };

export async function badgeFor(db: Db, scope: CheckScope, experiment: CheckedExperiment, input: BadgeInput): Promise<Badge> {
  const metric = experiment.metrics.find((m) => m.key === input.metric);
  if (!metric) {
    throw new AppError(
      "NOT_FOUND",
      `No metric "${input.metric}" in experiment "${experiment.slug}"; its metrics are ${experiment.metrics.map((m) => `"${m.key}"`).join(", ") || "none"}`,
    );
  }
  const variant = input.variant === undefined ? experiment.variants.find((v) => v.isBaseline) : variantNamed(experiment, input.variant);
  const label = metric.label || metric.key;
  const latest = variant ? await latestCommit(db, experiment.id, variant.id, input.branch) : null;
  if (!variant || !latest) return { label, message: "no runs with a commit", color: "lightgrey", verdict: null, commit: null };

  const check = await checkExperimentCommit(db, scope, experiment, {
    commit: latest.commit,
    branch: latest.branch,
    window: input.window,
    variant: variant.name,
    minChange: input.minChange,
  });
  const entry = check.metrics.find((m) => m.key === metric.key);
  if (!entry) return { label, message: "no data", color: "lightgrey", verdict: null, commit: latest.commit };
  const value = entry.median === null ? "—" : formatMeasure(entry.median, metric.unit);
  const change = entry.changePercent === null || entry.verdict === "insufficient_data" ? "" : ` ${formatChange(entry.changePercent)} ${marks[entry.verdict]}`;
  return { label, message: `${value}${change}`, color: colors[entry.verdict], verdict: entry.verdict, commit: latest.commit };
}

/** The badge as SVG, shields.io's flat style. */
export function badgeSvg(badge: Pick<Badge, "label" | "message" | "color">): string {
  return makeBadge({ label: badge.label, message: badge.message, color: badge.color, style: "flat" });
}
