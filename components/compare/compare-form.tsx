"use client";
// Picks the two run sets to compare. Submitting puts the choice in the URL (empty fields left
// out), so a comparison is a link to share; the page reads it back and shows the result.
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useHydrated } from "~/components/forms/use-hydrated";
import type { TCrossComparisonQuery, TRunSetOptions } from "~/server/schemas/cross-comparison";
import { fieldNames, RunSetPicker, type RunSetValue, type Side } from "./run-set-picker";

function initialValue(side: Side, query: TCrossComparisonQuery, fallback: string): RunSetValue {
  const names = fieldNames(side);
  return { experiment: query[names.experiment] ?? fallback, variant: query[names.variant] ?? "", commit: query[names.commit] ?? "" };
}

/**
 * The experiments the form opens on when the link names none: two different ones (experiments
 * with runs first), so Compare compares something at once; one experiment's two commits or
 * variants are a choice of commit or variant away.
 */
export function defaultExperiments(options: TRunSetOptions, query: TCrossComparisonQuery): { before: string; after: string } {
  const slugs = [...options.experiments].sort((x, y) => Number(hasRuns(y)) - Number(hasRuns(x))).map((e) => e.slug);
  const before = query.before ?? slugs[0] ?? "";
  return { before, after: query.after ?? slugs.find((slug) => slug !== before) ?? before };
}

const hasRuns = (experiment: TRunSetOptions["experiments"][number]) => experiment.variants.some((v) => v.runs > 0);

export function CompareForm({ projectSlug, options, query }: { projectSlug: string; options: TRunSetOptions; query: TCrossComparisonQuery }) {
  const router = useRouter();
  const hydrated = useHydrated();
  const defaults = defaultExperiments(options, query);
  const [before, setBefore] = useState(() => initialValue("before", query, defaults.before));
  const [after, setAfter] = useState(() => initialValue("after", query, defaults.after));
  const action = `/p/${projectSlug}/compare`;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [side, value] of [
      ["before", before],
      ["after", after],
    ] as const) {
      const names = fieldNames(side);
      for (const key of ["experiment", "variant", "commit"] as const) if (value[key]) params.set(names[key], value[key]);
    }
    router.push(`${action}?${params}`, { scroll: false });
  }

  return (
    <form className="stack" method="get" action={action} onSubmit={submit} aria-label="Pick runs to compare" data-ready={hydrated ? "true" : undefined}>
      <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(280px, 1fr))" }}>
        <RunSetPicker side="before" legend="Before (baseline)" value={before} options={options} onChange={setBefore} />
        <RunSetPicker side="after" legend="After" value={after} options={options} onChange={setAfter} />
      </div>
      <div className="form-actions">
        <button type="submit" className="button primary">
          Compare
        </button>
        <button
          type="button"
          className="button"
          disabled={!hydrated}
          onClick={() => {
            setBefore(after);
            setAfter(before);
          }}
          title="Swap before and after"
        >
          Swap
        </button>
      </div>
    </form>
  );
}
