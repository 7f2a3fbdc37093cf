// Exports and cross-experiment comparison: the Markdown report, the CSV files (the download
// route handlers call these too) and the comparison of two run sets for the compare page.
import { ZComparisonRef } from "../../schemas/comparison";
import { ZCrossComparisonRequest } from "../../schemas/cross-comparison";
import { ZExperimentRef } from "../../schemas/experiment";
import { ZProjectRef } from "../../schemas/project";
import { ZReportRequest } from "../../schemas/report";
import { compareRunSets } from "../../comparison/cross-comparison";
import { listRunSetOptions } from "../../comparison/cross-comparison-options";
import { exportRunsCsv, exportSummaryCsv } from "../../reports/exports";
import { buildMarkdownReport, reportFileName } from "../../reports/report";
import { createTRPCRouter, projectProcedure } from "../trpc";

export const reportRouter = createTRPCRouter({
  /** The report as Markdown, linking the chart images the caller puts beside it. */
  markdown: projectProcedure("viewer")
    .input(ZReportRequest)
    .query(async ({ ctx, input }) => ({
      fileName: reportFileName(input.experimentSlug, "md"),
      markdown: await buildMarkdownReport(ctx.db, { projectSlug: input.projectSlug }, input.experimentSlug, input.baseline, { chartFiles: input.chartFiles }),
    })),
  runsCsv: projectProcedure("viewer")
    .input(ZExperimentRef)
    .query(({ ctx, input }) => exportRunsCsv(ctx.db, { projectSlug: input.projectSlug }, input.experimentSlug)),
  summaryCsv: projectProcedure("viewer")
    .input(ZComparisonRef)
    .query(({ ctx, input }) => exportSummaryCsv(ctx.db, { projectSlug: input.projectSlug }, input.experimentSlug, input.baseline)),
  /** Experiments with their variants and commits, for picking the two run sets. */
  runSetOptions: projectProcedure("viewer")
    .input(ZProjectRef)
    .query(({ ctx, input }) => listRunSetOptions(ctx.db, input.projectSlug)),
  crossCompare: projectProcedure("viewer")
    .input(ZCrossComparisonRequest)
    .query(({ ctx, input }) => compareRunSets(ctx.db, { projectSlug: input.projectSlug }, input.before, input.after, input.metricKeys)),
});
