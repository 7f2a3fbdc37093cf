// Database objects the migrations add by hand because Prisma's schema language cannot
// express them. The drift test requires each of them to exist, and accepts them as extras
// beyond what schema.prisma describes.
export const sqlOnlyObjects = {
  checkConstraints: [
    "Experiment_title_not_blank",
    "Experiment_slug_format",
    "Experiment_run_counts_valid",
    "Experiment_alpha_range",
    "Project_slug_format",
    "Variant_name_not_blank",
    "Metric_key_not_blank",
    "Metric_unit_not_blank",
    "RunMetricResult_n_positive",
    "RunTimeSeries_lengths_match",
    "Job_attempts_valid",
    "Job_lease_complete",
    "Job_position_valid",
  ],
  indexes: ["Variant_one_baseline_per_experiment", "Job_claimable", "Job_leased", "RunMetricResult_scaled"],
  triggers: [
    "Experiment_exactly_one_baseline",
    "Variant_exactly_one_baseline",
    // Variant.runsVersion: the last transaction that changed the variant's runs (stored histories' staleness marker).
    "Run_inserted_touch_runs_version",
    "Run_updated_touch_runs_version",
    "Run_deleted_touch_runs_version",
    "RunMetricResult_inserted_touch_runs_version",
    "RunMetricResult_updated_touch_runs_version",
    "RunMetricResult_deleted_touch_runs_version",
    "RunTimeSeries_inserted_touch_runs_version",
    "RunTimeSeries_updated_touch_runs_version",
    "RunTimeSeries_deleted_touch_runs_version",
    // A stored "runs stored" task wakes the background workers (LISTEN versus_runs_stored).
    "RunsStoredTask_inserted_notify",
    // A change of what an API key grants makes every process forget it (LISTEN versus_api_keys).
    "ApiKey_changed_notify",
    "Project_slug_changed_notify",
    // Experiment.definitionVersion: advanced when a variant or metric an upload names changes (server/runs/upload-experiment-cache.ts).
    "Variant_changed_definition_version",
    "Metric_changed_definition_version",
  ],
  functions: [
    // The highest repetition of a variant, read in a snapshot of its own by the statement that numbers runs.
    "versus_highest_repetition",
  ],
} as const;
