"use client";
// One side of the cross-experiment comparison: an experiment, then optionally one of its variants
// and one of the commits its runs name. The fields' names are the page's query keys, so the form
// also works as a plain GET form before React has loaded.
import { Field } from "~/components/forms/field";
import type { TCrossComparisonQuery, TRunSetOptions } from "~/server/schemas/cross-comparison";

export type Side = "before" | "after";
export interface RunSetValue {
  experiment: string;
  variant: string;
  commit: string;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** The query keys of a side: before, beforeVariant, beforeCommit (after…). */
export const fieldNames = (side: Side) => ({ experiment: side, variant: `${side}Variant`, commit: `${side}Commit` }) as const satisfies Record<keyof RunSetValue, keyof TCrossComparisonQuery>;

export function RunSetPicker({ side, legend, value, options, onChange }: { side: Side; legend: string; value: RunSetValue; options: TRunSetOptions; onChange: (value: RunSetValue) => void }) {
  const names = fieldNames(side);
  const experiment = options.experiments.find((e) => e.slug === value.experiment);
  const commits = experiment?.commits ?? [];
  // A commit given by a link (e.g. a short id) that is not in the list still shows as chosen.
  const linkedCommit = value.commit && !commits.some((c) => c.gitCommit === value.commit) ? value.commit : null;
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div className="row">
        <Field id={names.experiment} label="Experiment">
          <select id={names.experiment} name={names.experiment} value={value.experiment} onChange={(e) => onChange({ experiment: e.target.value, variant: "", commit: "" })}>
            {options.experiments.map((e) => (
              <option key={e.slug} value={e.slug}>
                {e.title}
              </option>
            ))}
          </select>
        </Field>
        <Field id={names.variant} label="Variant">
          <select id={names.variant} name={names.variant} value={value.variant} onChange={(e) => onChange({ ...value, variant: e.target.value })}>
            <option value="">All variants</option>
            {experiment?.variants.map((v) => (
              <option key={v.name} value={v.name}>
                {v.name} ({plural(v.runs, "run")})
              </option>
            ))}
          </select>
        </Field>
        <Field id={names.commit} label="Commit">
          <select id={names.commit} name={names.commit} value={value.commit} onChange={(e) => onChange({ ...value, commit: e.target.value })} disabled={commits.length === 0 && !linkedCommit}>
            <option value="">{commits.length === 0 && !linkedCommit ? "No commits recorded" : "All commits"}</option>
            {linkedCommit ? <option value={linkedCommit}>{linkedCommit}</option> : null}
            {commits.map((c) => (
              <option key={c.gitCommit} value={c.gitCommit}>
                {c.gitCommit.slice(0, 10)}
                {c.gitBranch ? ` · ${c.gitBranch}` : ""} ({plural(c.runs, "run")})
              </option>
            ))}
          </select>
        </Field>
      </div>
    </fieldset>
  );
}
