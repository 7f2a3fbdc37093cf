"use client";
// Create and edit an experiment: the same Zod schema as the server validates in the browser,
// and problems the server finds (e.g. a taken slug) are shown beside their fields too.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Controller, FormProvider, useFieldArray, useForm, useWatch } from "react-hook-form";
import { Field, invalidProps } from "~/components/forms/field";
import { applyServerErrors } from "~/components/forms/server-errors";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { useNewWorkloadProblems, WorkloadProblemsProvider } from "~/components/workloads/workload-problems";
import { maxRunsPerVariant, MAX_BATCH_JOBS } from "~/server/schemas/batch-limits";
import type { TWorkloadMetric } from "~/server/schemas/workload";
import { experimentStatuses, ZExperimentInput, type TExperimentFormValues, type TExperimentInput } from "~/server/schemas/experiment";
import { MetricsFieldset } from "./metrics-fieldset";
import { ParametersFieldset } from "./parameters-fieldset";
import { VariantsFieldset } from "./variants-fieldset";
import { SubmitButton } from "~/components/forms/submit-button";

export const emptyExperiment: TExperimentFormValues = {
  title: "",
  slug: "",
  hypothesis: "",
  description: "",
  environmentNotes: "",
  status: "draft",
  parameters: [],
  warmupRuns: 0,
  measuredRuns: 5,
  alpha: 0.05,
  tags: [],
  variants: [
    { name: "Baseline", description: "", isBaseline: true, config: {} },
    { name: "Candidate", description: "", isBaseline: false, config: {} },
  ],
  metrics: [],
};

type Props =
  | { mode: "create"; projectSlug: string; initial?: TExperimentFormValues }
  | { mode: "edit"; projectSlug: string; experimentSlug: string; initial: TExperimentFormValues };

export function ExperimentForm(props: Props) {
  const trpc = useTRPC();
  const hydrated = useHydrated();
  const router = useRouter();
  const [formError, setFormError] = useState<string>();
  // Workload settings typed but not valid yet hold the submit back too.
  const workloadProblems = useNewWorkloadProblems();
  const form = useForm<TExperimentFormValues, unknown, TExperimentInput>({
    resolver: workloadProblems.guard(zodResolver(ZExperimentInput)),
    defaultValues: props.initial ?? emptyExperiment,
    // Validate on submit, then as the user corrects: validating on blur made messages appear
    // under the pointer and moved the "Add …" buttons away mid-click.
    mode: "onSubmit",
  });
  const create = useMutation(trpc.experiment.create.mutationOptions());
  const update = useMutation(trpc.experiment.update.mutationOptions());
  const errors = form.formState.errors;
  const { register } = form;
  // One list of metrics, which the Metrics rows edit and a variant's workload adds to.
  const metrics = useFieldArray({ control: form.control, name: "metrics" });
  const metricKeys = (useWatch({ control: form.control, name: "metrics" }) ?? []).map((metric) => metric.key?.trim() ?? "");
  const addMetrics = (specs: TWorkloadMetric[]) => {
    const have = new Set(metricKeys);
    metrics.append(
      specs
        .filter((spec) => !have.has(spec.key))
        .map((spec) => ({ key: spec.key, label: "", unit: spec.unit, direction: spec.direction, aggregation: spec.aggregation })),
    );
    if (form.formState.isSubmitted) void form.trigger("metrics");
  };
  // Run queues every agent-run variant's warm-up + measured runs in one batch, which has a cap.
  const agentRunVariants = (useWatch({ control: form.control, name: "variants" }) ?? []).filter((variant) => variant.config?.workload).length;
  const warmupRuns = Number(useWatch({ control: form.control, name: "warmupRuns" })) || 0;
  const runsCap = agentRunVariants ? maxRunsPerVariant(agentRunVariants) : null;
  const measuredRunsHint = runsCap
    ? `Per variant; ≥ 4 lets the test reach a verdict; at most ${Math.max(0, runsCap - warmupRuns).toLocaleString("en-US")} here (one Run holds ${MAX_BATCH_JOBS.toLocaleString("en-US")} jobs)`
    : "Per variant; ≥ 4 lets the test reach a verdict";

  const onSubmit = form.handleSubmit(
    async (experiment) => {
      setFormError(undefined);
      try {
        const saved =
          props.mode === "create"
            ? await create.mutateAsync({ projectSlug: props.projectSlug, experiment })
            : await update.mutateAsync({ projectSlug: props.projectSlug, experimentSlug: props.experimentSlug, experiment });
        router.push(`/p/${props.projectSlug}/e/${saved.slug}`);
        router.refresh();
      } catch (error) {
        setFormError(applyServerErrors(error, form.setError, ["experiment"]));
      }
    },
    () => setFormError("Some fields need attention — see the messages below."),
  );

  return (
    <FormProvider {...form}>
      <WorkloadProblemsProvider value={workloadProblems}>
        <form
          className="stack"
          onSubmit={onSubmit}
          noValidate
          data-ready={hydrated}
          aria-label={props.mode === "create" ? "New experiment" : "Edit experiment"}
        >
          {formError ? (
            <div className="alert" role="alert">
              {formError}
            </div>
          ) : null}

          <fieldset>
            <legend>What are you testing?</legend>
            <div className="stack" style={{ display: "grid", gap: "0.9rem" }}>
              <div className="row">
                <Field id="title" label="Title" error={errors.title?.message}>
                  <input
                    id="title"
                    type="text"
                    placeholder="S3 upload: plain vs gzip"
                    {...register("title")}
                    {...invalidProps("title", errors.title?.message)}
                  />
                </Field>
                <Field id="slug" label="Slug" hint="Used in links; derived from the title when empty" error={errors.slug?.message}>
                  <input id="slug" type="text" placeholder="s3-upload-gzip" {...register("slug")} {...invalidProps("slug", errors.slug?.message)} />
                </Field>
                <Field id="status" label="Status" error={errors.status?.message}>
                  <select id="status" {...register("status")}>
                    {experimentStatuses.map((status) => (
                      <option key={status} value={status}>
                        {status}
                      </option>
                    ))}
                  </select>
                </Field>
              </div>
              <Field id="hypothesis" label="Hypothesis" hint="What you expect and why, in a sentence or two" error={errors.hypothesis?.message}>
                <textarea id="hypothesis" rows={2} {...register("hypothesis")} {...invalidProps("hypothesis", errors.hypothesis?.message)} />
              </Field>
              <Field id="description" label="Description" hint="Markdown" error={errors.description?.message}>
                <textarea id="description" rows={4} {...register("description")} {...invalidProps("description", errors.description?.message)} />
              </Field>
              <Field id="environmentNotes" label="Environment" hint="Machine, region, container limits, versions" error={errors.environmentNotes?.message}>
                <textarea id="environmentNotes" rows={2} {...register("environmentNotes")} />
              </Field>
              <Controller
                control={form.control}
                name="tags"
                render={({ field }) => (
                  <Field id="tags" label="Tags" hint="Comma-separated" error={errors.tags?.message ?? errors.tags?.root?.message}>
                    <input
                      id="tags"
                      type="text"
                      value={(field.value ?? []).join(", ")}
                      onChange={(event) => field.onChange(event.target.value.split(",").map((tag) => tag.trimStart()))}
                      onBlur={field.onBlur}
                    />
                  </Field>
                )}
              />
            </div>
          </fieldset>

          <fieldset>
            <legend>Method</legend>
            <div className="row">
              <Field id="warmupRuns" label="Warm-up runs" hint="Discarded before measuring" error={errors.warmupRuns?.message}>
                <input
                  id="warmupRuns"
                  type="number"
                  min={0}
                  step={1}
                  {...register("warmupRuns", { valueAsNumber: true })}
                  {...invalidProps("warmupRuns", errors.warmupRuns?.message)}
                />
              </Field>
              <Field id="measuredRuns" label="Measured runs" hint={measuredRunsHint} error={errors.measuredRuns?.message}>
                <input
                  id="measuredRuns"
                  type="number"
                  min={1}
                  max={runsCap ? Math.max(1, runsCap - warmupRuns) : undefined}
                  step={1}
                  {...register("measuredRuns", { valueAsNumber: true })}
                  {...invalidProps("measuredRuns", errors.measuredRuns?.message)}
                />
              </Field>
              <Field id="alpha" label="Significance level (α)" hint="0.05 unless you have a reason" error={errors.alpha?.message}>
                <input
                  id="alpha"
                  type="number"
                  min={0}
                  max={1}
                  step="any"
                  {...register("alpha", { valueAsNumber: true })}
                  {...invalidProps("alpha", errors.alpha?.message)}
                />
              </Field>
            </div>
          </fieldset>

          <ParametersFieldset />
          <VariantsFieldset projectSlug={props.projectSlug} metricKeys={metricKeys} onAddMetrics={addMetrics} />
          <MetricsFieldset metrics={metrics} />

          <div className="form-actions">
            <SubmitButton hydrated={hydrated} submitting={form.formState.isSubmitting}>
              {props.mode === "create" ? "Create experiment" : "Save changes"}
            </SubmitButton>
            <button className="button" type="button" onClick={() => router.back()}>
              Cancel
            </button>
          </div>
        </form>
      </WorkloadProblemsProvider>
    </FormProvider>
  );
}
