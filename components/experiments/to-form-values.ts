import type { ExperimentDetail } from "~/server/experiments/experiments";
import type { TExperimentFormValues } from "~/server/schemas/experiment";

/** The edit form's starting values: the stored definition, with row ids so edits update in place. */
export function toFormValues({ experiment }: ExperimentDetail): TExperimentFormValues {
  return {
    title: experiment.title,
    slug: experiment.slug,
    hypothesis: experiment.hypothesis,
    description: experiment.description,
    environmentNotes: experiment.environmentNotes,
    status: experiment.status,
    parameters: experiment.parameters,
    warmupRuns: experiment.warmupRuns,
    measuredRuns: experiment.measuredRuns,
    alpha: experiment.alpha,
    tags: experiment.tags,
    variants: experiment.variants.map((variant) => ({
      id: variant.id,
      name: variant.name,
      description: variant.description,
      isBaseline: variant.isBaseline,
      config: (variant.config ?? {}) as Record<string, unknown>,
    })),
    metrics: experiment.metrics.map((metric) => ({
      id: metric.id,
      key: metric.key,
      label: metric.label,
      unit: metric.unit,
      direction: metric.direction,
      aggregation: metric.aggregation,
    })),
  };
}
