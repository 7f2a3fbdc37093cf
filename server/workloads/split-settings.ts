// A load test split over a job group's shards: each shard runs the variant's settings with its
// share of the load. Which settings are load is the workload's to say: its settings schema marks
// them `"x-versus-split": true` (the open model's rate, the closed model's connections or
// callers, a fixed number of requests, the cap on requests in flight), so a third-party agent's
// workload splits the same way. Only the marked settings the variant gives are split: one left
// out may not apply (the Go agent's open model refuses `connections`), so its default is not
// split for it, and a variant that gives none of them has no load to split (refused at Run).
import { AppError, type FieldIssue, issuesSummary } from "../core/errors";
import type { TWorkloadSettings } from "../schemas/workload";

export const SPLIT_KEY = "x-versus-split";

interface PropertySchema {
  type?: string | string[];
  minimum?: number;
  [SPLIT_KEY]?: boolean;
}

function properties(schema: Record<string, unknown>): Record<string, PropertySchema> {
  const props = schema.properties;
  return props && typeof props === "object" ? (props as Record<string, PropertySchema>) : {};
}

/** The settings the workload's schema marks as load, which shards divide among themselves. */
export function splitSettingNames(schema: Record<string, unknown>): string[] {
  return Object.entries(properties(schema))
    .filter(([, property]) => property[SPLIT_KEY] === true)
    .map(([name]) => name);
}

const isInteger = (property: PropertySchema) => property.type === "integer" || (Array.isArray(property.type) && property.type.includes("integer"));

/**
 * Each of `count` shards' settings: the marked settings divided (whole numbers by largest
 * remainder, so the shares add up to the total exactly; other numbers in equal parts), the rest
 * as given. Refused, naming the setting, when a whole number is too small to give every shard at
 * least its minimum (1 when the schema says none).
 */
export function splitSettings(
  settings: TWorkloadSettings,
  schema: Record<string, unknown>,
  count: number,
  path: (string | number)[] = ["settings"],
): TWorkloadSettings[] {
  const shares: TWorkloadSettings[] = Array.from({ length: count }, () => ({ ...settings }));
  const issues: FieldIssue[] = [];
  for (const [name, property] of Object.entries(properties(schema))) {
    if (property[SPLIT_KEY] !== true) continue;
    const total = settings[name];
    if (typeof total !== "number") continue;
    if (isInteger(property)) {
      const least = Math.max(property.minimum ?? 1, 0);
      const base = Math.floor(total / count);
      if (base < least) {
        issues.push({
          path: [...path, name],
          message: `${name} ${total} cannot be split over ${count} agents: each needs at least ${least} (give at least ${least * count})`,
        });
        continue;
      }
      const extra = total - base * count;
      shares.forEach((share, i) => (share[name] = base + (i < extra ? 1 : 0)));
    } else {
      shares.forEach((share) => (share[name] = total / count));
    }
  }
  if (issues.length) throw new AppError("UNPROCESSABLE", issuesSummary(issues), { fieldIssues: issues });
  return shares;
}
