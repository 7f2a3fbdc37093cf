"use client";
import { useQuery } from "@tanstack/react-query";
import { Controller, useFieldArray, useFormContext } from "react-hook-form";
import { RemoveRowButton } from "~/components/forms/remove-row-button";
import { Field, FieldError, invalidProps } from "~/components/forms/field";
import { useTRPC } from "~/components/trpc/react";
import type { ProbeErrors } from "~/components/workloads/probes-editor";
import { WorkloadEditor } from "~/components/workloads/workload-editor";
import type { TExperimentFormValues } from "~/server/schemas/experiment";
import type { TWorkloadMetric } from "~/server/schemas/workload";

interface Props {
  projectSlug: string;
  /** The experiment's metric keys now, and how a workload's metrics are added to them. */
  metricKeys: string[];
  onAddMetrics: (metrics: TWorkloadMetric[]) => void;
}

export function VariantsFieldset({ projectSlug, metricKeys, onAddMetrics }: Props) {
  const trpc = useTRPC();
  // The workload kinds and their settings schemas, as the project's agents advertise them.
  const workloads = useQuery(trpc.agent.workloads.queryOptions({ projectSlug }));
  const { control, register, formState, watch, setValue, trigger } = useFormContext<TExperimentFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "variants" });
  const errors = formState.errors.variants;
  const variants = watch("variants");

  // One radio group across the rows: choosing a baseline clears the flag everywhere else.
  const chooseBaseline = (chosen: number) => {
    variants.forEach((_, index) => setValue(`variants.${index}.isBaseline`, index === chosen, { shouldDirty: true }));
    if (formState.isSubmitted) void trigger("variants");
  };

  return (
    <fieldset>
      <legend>Variants</legend>
      <p className="muted small" style={{ marginTop: 0 }}>
        The arms you compare, e.g. &quot;Plain&quot; and &quot;Gzip&quot;. Exactly one is the baseline the others are measured against. A variant with a
        workload can be run by the project&apos;s agents.
      </p>
      <FieldError id="variants-error" message={errors?.message ?? errors?.root?.message} />
      {fields.map((field, index) => {
        const nameId = `variants.${index}.name`;
        const descriptionId = `variants.${index}.description`;
        return (
          <div key={field.id} className="list-row variant-row" data-testid="variant-row">
            <Field id={nameId} label="Name" error={errors?.[index]?.name?.message}>
              <input id={nameId} type="text" {...register(`variants.${index}.name`)} {...invalidProps(nameId, errors?.[index]?.name?.message)} />
            </Field>
            <Field id={descriptionId} label="Description" error={errors?.[index]?.description?.message}>
              <input id={descriptionId} type="text" {...register(`variants.${index}.description`)} />
            </Field>
            <label className="radio">
              <input type="radio" name="baseline" checked={Boolean(variants[index]?.isBaseline)} onChange={() => chooseBaseline(index)} />
              Baseline
            </label>
            <RemoveRowButton what="variant" index={index} onRemove={() => remove(index)} />
            <Controller
              control={control}
              name={`variants.${index}.config`}
              render={({ field: config }) => {
                const configErrors = errors?.[index]?.config as
                  | {
                      message?: string;
                      workload?: { message?: string };
                      settings?: { message?: string };
                      probes?: ProbeErrors;
                      agents?: { message?: string; labels?: { message?: string }; min?: { message?: string } };
                      onShardLoss?: { message?: string };
                    }
                  | undefined;
                return (
                  <WorkloadEditor
                    name={`variants.${index}.config`}
                    variant={variants[index]?.name || `variant ${index + 1}`}
                    value={config.value ?? {}}
                    onChange={config.onChange}
                    workloads={workloads.data}
                    workloadsError={workloads.error?.message}
                    errors={{
                      workload: configErrors?.workload?.message,
                      config: configErrors?.message,
                      settings: configErrors?.settings?.message,
                      probes: configErrors?.probes,
                      // A pool's own field's problem sits under it (agents.labels, agents.min); the field shows them in one place.
                      agents: configErrors?.agents?.message ?? configErrors?.agents?.labels?.message ?? configErrors?.agents?.min?.message,
                      onShardLoss: configErrors?.onShardLoss?.message,
                    }}
                    submitted={formState.isSubmitted}
                    agentsHref={`/p/${projectSlug}/agents`}
                    metricKeys={metricKeys}
                    onAddMetrics={onAddMetrics}
                  />
                );
              }}
            />
          </div>
        );
      })}
      <button type="button" className="button small" onClick={() => append({ name: "", description: "", isBaseline: fields.length === 0, config: {} })}>
        Add variant
      </button>
    </fieldset>
  );
}
