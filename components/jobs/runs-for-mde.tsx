"use client";
// The Run dialog's "how many runs?": a change of ± X % to detect → about N measured runs per
// variant, from the experiment's stored noise floor (the server computes N: job.noiseFloor).
// Without a floor it says to measure noise first.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/components/trpc/react";
import { ZNoiseFloorQuery } from "~/server/schemas/jobs";

export function RunsForMde({ projectSlug, experimentSlug, measuredRuns }: { projectSlug: string; experimentSlug: string; measuredRuns: number }) {
  const trpc = useTRPC();
  const [text, setText] = useState("2");
  const parsed = ZNoiseFloorQuery.shape.minChangePercent.safeParse(text.trim() === "" ? undefined : Number(text));
  const minChangePercent = parsed.success ? parsed.data : 2;
  // Fresh at every opening (staleTime 0): an A/A batch may have finished since the last one.
  const floor = useQuery({
    ...trpc.job.noiseFloor.queryOptions({ projectSlug, experimentSlug, minChangePercent }),
    staleTime: 0,
    placeholderData: (previous) => previous,
  });
  if (floor.data === null)
    return (
      <p className="muted small" style={{ margin: 0 }} data-testid="runs-for-mde">
        How many runs a change needs: measure noise first (<strong>Measure noise</strong> on the experiment page), then this suggests a run count.
      </p>
    );
  if (!floor.data) return null;
  const suggested = floor.data.suggestedRuns;
  return (
    <div className="small runs-for-mde" data-testid="runs-for-mde">
      <label htmlFor="run-mde">Detect changes of ±</label>{" "}
      <input
        id="run-mde"
        className="input-narrow"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={text}
        onChange={(event) => setText(event.target.value)}
        aria-invalid={parsed.success ? undefined : true}
        aria-describedby="run-mde-result"
      />{" "}
      %{" "}
      <span id="run-mde-result">
        {!parsed.success ? (
          <span className="error">{parsed.error.issues[0]?.message}</span>
        ) : suggested ? (
          <>
            → about <strong>{suggested.runs} measured runs per variant</strong>
            <span className="muted">
              {" "}
              ({suggested.metric} on {suggested.agent}
              {suggested.runs > measuredRuns ? `; the experiment does ${measuredRuns}` : `; the experiment's ${measuredRuns} are enough`})
            </span>
          </>
        ) : (
          <span className="muted">→ the noise floor has no spread to go by</span>
        )}
      </span>
    </div>
  );
}
