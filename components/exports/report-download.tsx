"use client";
// "Markdown report": renders every chart on the page to PNG (the browser draws the charts; the
// server never does), asks the server for the report linking those files, and downloads both as
// one zip — report.md plus charts/*.png, the layout a write-up in a repository or wiki expects.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { downloadBlob, svgToPngBlob } from "~/components/charts/export-image";
import { useHydrated } from "~/components/forms/use-hydrated";
import { useTRPC } from "~/components/trpc/react";
import { chartsOnPage } from "./charts-on-page";

export interface ReportDownloadProps {
  projectSlug: string;
  experimentSlug: string;
  baseline?: string;
}

export function ReportDownload({ projectSlug, experimentSlug, baseline }: ReportDownloadProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function download() {
    setBusy(true);
    setProblem(null);
    try {
      // PNGs first: the report then links exactly the images that made it into the zip.
      const images: { fileName: string; png: Blob }[] = [];
      const failed: string[] = [];
      for (const chart of chartsOnPage()) {
        try {
          images.push({ fileName: chart.fileName, png: await svgToPngBlob(chart.svg) });
        } catch {
          failed.push(chart.fileName);
        }
      }
      const report = await queryClient.fetchQuery({
        ...trpc.report.markdown.queryOptions({ projectSlug, experimentSlug, baseline, chartFiles: images.map((image) => image.fileName) }),
        staleTime: 0,
      });
      // Loaded on first use: most visits never download a report.
      const { default: JSZip } = await import("jszip");
      const zip = new JSZip();
      zip.file("report.md", report.markdown);
      for (const image of images) zip.file(`charts/${image.fileName}`, image.png);
      downloadBlob(await zip.generateAsync({ type: "blob", mimeType: "application/zip" }), report.fileName.replace(/\.md$/, ".zip"));
      if (failed.length)
        setProblem(`Left out ${failed.length === 1 ? "a chart" : `${failed.length} charts`} that could not be drawn as PNG: ${failed.join(", ")}`);
    } catch (error) {
      setProblem(`The report could not be made: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <button
        type="button"
        className="button small"
        disabled={!hydrated || busy}
        onClick={() => void download()}
        title="report.md with the charts as PNG files beside it, zipped"
      >
        {busy ? "Preparing report…" : "Markdown report"}
      </button>
      {problem ? (
        <span className="error" role="alert">
          {problem}
        </span>
      ) : null}
    </>
  );
}
