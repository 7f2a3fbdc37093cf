"use client";
import { useFieldArray, useFormContext } from "react-hook-form";
import { RemoveRowButton } from "~/components/forms/remove-row-button";
import { Field, invalidProps } from "~/components/forms/field";
import type { TExperimentFormValues } from "~/server/schemas/experiment";

export function ParametersFieldset() {
  const { control, register, formState } = useFormContext<TExperimentFormValues>();
  const { fields, append, remove } = useFieldArray({ control, name: "parameters" });
  const errors = formState.errors.parameters;
  return (
    <fieldset>
      <legend>Parameters</legend>
      <p className="muted small" style={{ marginTop: 0 }}>
        Fixed conditions of the experiment, e.g. payload size, virtual users, duration.
      </p>
      {fields.map((field, index) => {
        const nameId = `parameters.${index}.name`;
        const valueId = `parameters.${index}.value`;
        return (
          <div key={field.id} className="list-row param-row">
            <Field id={nameId} label="Name" error={errors?.[index]?.name?.message}>
              <input
                id={nameId}
                type="text"
                placeholder="payload"
                {...register(`parameters.${index}.name`)}
                {...invalidProps(nameId, errors?.[index]?.name?.message)}
              />
            </Field>
            <Field id={valueId} label="Value" error={errors?.[index]?.value?.message}>
              <input id={valueId} type="text" placeholder="1 MB" {...register(`parameters.${index}.value`)} />
            </Field>
            <RemoveRowButton what="parameter" index={index} onRemove={() => remove(index)} />
          </div>
        );
      })}
      <button type="button" className="button small" onClick={() => append({ name: "", value: "" })}>
        Add parameter
      </button>
    </fieldset>
  );
}
