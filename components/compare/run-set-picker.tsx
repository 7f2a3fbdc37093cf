"use client";
// One side of the cross-experiment comparison: an experiment, then optionally one of its variants
// and one of the commits its runs name (with each commit's date and message, and a search box for
// long histories). The fields' names are the page's query keys, so the form also works as a plain
// GET form before React has loaded.
import { useState } from "react";
import { Field } from "~/components/forms/field";
import type { TCrossComparisonQuery, TRunSetOptions } from "~/server/schemas/cross-comparison";
import { commitLabel, matchingCommits } from "./commit-search";

export type Side = "before" | "after";
export interface RunSetValue {
  experiment: string;
  variant: string;
  commit: string;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** The query keys of a side: before, beforeVariant, beforeCommit (after…). */
export const fieldNames = (side: Side) =>
  ({ experiment: side, variant: `${side}Variant`, commit: `${side}Commit` }) as const satisfies Record<keyof RunSetValue, keyof TCrossComparisonQuery>;

export function RunSetPicker({
  side,
  legend,
  value,
  options,
  onChange,
}: {
  side: Side;
  legend: string;
  value: RunSetValue;
  options: TRunSetOptions;
  onChange: (value: RunSetValue) => void;
}) {
  const names = fieldNames(side);
  const experiment = options.experiments.find((e) => e.slug === value.experiment);
  const commits = experiment?.commits ?? [];
  const [search, setSearch] = useState("");
  // The chosen commit stays listed whatever the search, so the select never shows another one.
  const shown = matchingCommits(commits, search).filter((c) => c.gitCommit !== value.commit);
  const chosen = commits.find((c) => c.gitCommit === value.commit);
  // A commit given by a link (e.g. a short id) that is not in the list still shows as chosen.
  const linkedCommit = value.commit && !chosen ? value.commit : null;
  return (
    <fieldset>
      <legend>{legend}</legend>
      <div className="row">
        <Field id={names.experiment} label="Experiment">
          <select
            id={names.experiment}
            name={names.experiment}
            value={value.experiment}
            onChange={(e) => {
              setSearch("");
              onChange({ experiment: e.target.value, variant: "", commit: "" });
            }}
          >
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
        <Field
          id={`${names.commit}-search`}
          label="Find a commit"
          hint={search ? `${plural(shown.length, "commit")} of ${commits.length} match` : "Part of its SHA, message or branch"}
        >
          {/* No name: the search narrows the list below, it is not part of the comparison's link. */}
          <input
            id={`${names.commit}-search`}
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            disabled={commits.length === 0}
            placeholder="e.g. 3f9a0c1 or gzip level"
          />
        </Field>
        <Field id={names.commit} label="Commit">
          <select
            id={names.commit}
            name={names.commit}
            value={value.commit}
            onChange={(e) => onChange({ ...value, commit: e.target.value })}
            disabled={commits.length === 0 && !linkedCommit}
          >
            <option value="">{commits.length === 0 && !linkedCommit ? "No commits recorded" : "All commits"}</option>
            {linkedCommit ? <option value={linkedCommit}>{linkedCommit}</option> : null}
            {chosen ? <option value={chosen.gitCommit}>{commitLabel(chosen)}</option> : null}
            {shown.map((c) => (
              <option key={c.gitCommit} value={c.gitCommit}>
                {commitLabel(c)}
              </option>
            ))}
          </select>
        </Field>
      </div>
    </fieldset>
  );
}
