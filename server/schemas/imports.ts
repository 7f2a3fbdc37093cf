// Query parameters of POST /api/v1/imports (the body is the tool's own output).
import { z } from "zod";
import { importFormats } from "./import-formats";
import { ZSlug } from "./common";
import { ZRunInput } from "./results";

export const ZImportQuery = z.object({
  format: z.enum(importFormats, {
    error: (issue) => (issue.input === undefined ? "format is required" : `unknown format "${String(issue.input)}"; use one of ${importFormats.join(", ")}`),
  }),
  experiment: ZSlug,
  variant: z.string().trim().min(1).max(100).optional(),
  split: z.enum(["variant", "metric"], { error: 'split must be "variant" (a variant per benchmark) or "metric" (a metric per benchmark)' }).optional(),
  create: z
    .enum(["true", "false", "1", "0"], { error: 'create must be "true" or "false"' })
    .optional()
    .transform((value) => value === "true" || value === "1"),
  /** The git commit and branch every imported run was measured at (the history and the CI gate). */
  commit: ZRunInput.shape.gitCommit.meta({ description: "git commit of every imported run" }),
  branch: ZRunInput.shape.gitBranch.meta({ description: "git branch of every imported run" }),
  commitMessage: ZRunInput.shape.gitCommitMessage.meta({ description: "the commit's subject line (shown on the history)" }),
  commitTime: ZRunInput.shape.gitCommitTime.meta({ description: "when the commit was made, ISO 8601 with an offset (the history orders commits by it)" }),
});
export type TImportQuery = z.output<typeof ZImportQuery>;
