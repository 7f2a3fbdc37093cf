"use client";
import { useFormContext, type UseFieldArrayReturn } from "react-hook-form";
import { directionLabel } from "~/components/format";
import { RemoveRowButton } from "~/components/forms/remove-row-button";
import { Field, FieldError, invalidProps } from "~/components/forms/field";
import { metricAggregations, metricDirections, type TExperimentFormValues } from "~/server/schemas/experiment";

/** The form's one list of metrics: variants' workloads add to it too (see ExperimentForm). */
export type MetricsArray = UseFieldArrayReturn<TExperimentFormValues, "metrics">;

export function MetricsFieldset({ metrics }: { metrics: MetricsArray }) {
  const { register, formState } = useFormContext<TExperimentFormValues>();
  const { fields, append, remove } = metrics;
  const errors = formState.errors.metrics;
  return (
    <fieldset>
      <legend>Metrics</legend>
      <p className="muted small" style={{ marginTop: 0 }}>
        What you measure, its unit, which direction is better, and how one run is summarised into one number. For a variant agents run, pick them from what its
        workload reports (under the variant&apos;s workload): the keys must be ones the agent sends.
      </p>
      <FieldError id="metrics-error" message={errors?.message ?? errors?.root?.message} />
      {fields.map((field, index) => {
        const id = (name: string) => `metrics.${index}.${name}`;
        const error = errors?.[index];
        return (
          <div key={field.id} className="list-row metric-row" data-testid="metric-row">
            <Field id={id("key")} label="Key" error={error?.key?.message}>
              <input
                id={id("key")}
                type="text"
                placeholder="latency_ms"
                {...register(`metrics.${index}.key`)}
                {...invalidProps(id("key"), error?.key?.message)}
              />
            </Field>
            <Field id={id("label")} label="Label" error={error?.label?.message}>
              <input id={id("label")} type="text" placeholder="Mean latency" {...register(`metrics.${index}.label`)} />
            </Field>
            <Field id={id("unit")} label="Unit" error={error?.unit?.message}>
              <input id={id("unit")} type="text" placeholder="ms" {...register(`metrics.${index}.unit`)} {...invalidProps(id("unit"), error?.unit?.message)} />
            </Field>
            <Field id={id("direction")} label="Better when" error={error?.direction?.message}>
              <select id={id("direction")} {...register(`metrics.${index}.direction`)} {...invalidProps(id("direction"), error?.direction?.message)}>
                <option value="">Choose…</option>
                {metricDirections.map((direction) => (
                  <option key={direction} value={direction}>
                    {directionLabel[direction]}
                  </option>
                ))}
              </select>
            </Field>
            <Field id={id("aggregation")} label="Per run" error={error?.aggregation?.message}>
              <select id={id("aggregation")} {...register(`metrics.${index}.aggregation`)}>
                {metricAggregations.map((aggregation) => (
                  <option key={aggregation} value={aggregation}>
                    {aggregation}
                  </option>
                ))}
              </select>
            </Field>
            <RemoveRowButton what="metric" index={index} onRemove={() => remove(index)} />
          </div>
        );
      })}
      <button
        type="button"
        className="button small"
        // An unchosen direction is deliberate: the user must say which way is better.
        onClick={() => append({ key: "", label: "", unit: "", direction: "" as never, aggregation: "mean" })}
      >
        Add metric
      </button>
    </fieldset>
  );
}
