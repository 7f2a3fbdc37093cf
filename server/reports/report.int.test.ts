// The Markdown report end to end on a real, migrated PostgreSQL: docs/examples.md case 5 (Kafka
// serializers) is uploaded through the ingest service, and every figure in the report's results
// table is checked against the comparison the experiment page shows — the report recomputes
// nothing. Also through the tRPC procedure and the report.md download route.
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as getReportMd } from "~/app/p/[project]/e/[experiment]/export/report.md/route";
import { signedInUser } from "~/test/signed-in";
import { createPrismaClient } from "~/server/db/client";
import type { TComparison } from "~/server/schemas/comparison";
import { createKafkaProject, KAFKA_SLUG, KAFKA_VARIANTS } from "~/test/fixtures/kafka-serializers";
import { getComparison } from "../comparison/comparison";
import { buildMarkdownReport } from "./report";

const db = createPrismaClient(inject("databaseUrl"));
const owner = await signedInUser(db, "owner");
const caller = owner.caller;

afterAll(() => db.$disconnect());

/** The table rows of one metric's section: variant name → column heading → cell. */
function tableOf(markdown: string, metricKey: string): Map<string, Record<string, string>> {
  const start = markdown.indexOf(`(\`${metricKey}\`)`);
  const lines = markdown.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("| Variant"));
  const cellsOf = (line: string) => line.slice(2, -2).split(" | ");
  const headings = cellsOf(lines[first]!).map((h) => h.replace(/^Change vs .*/, "Change"));
  const rows = new Map<string, Record<string, string>>();
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    const cells = cellsOf(line);
    rows.set(cells[0]!.replace(" (baseline)", ""), Object.fromEntries(headings.map((h, i) => [h, cells[i]!])));
  }
  return rows;
}

/** Numbers in a cell as printed ("−4.37%" → -4.37, "1,234" → 1234), with their decimal places. */
function numbersIn(cell: string): { value: number; decimals: number; digits: string }[] {
  return [...cell.replace(/,(?=\d{3})/g, "").matchAll(/[−+-]?\d+(\.\d+)?/g)].map((m) => ({
    value: Number(m[0].replace("−", "-")),
    decimals: m[1] ? m[1].length - 1 : 0,
    digits: m[0].replace(/[−+-]|\./g, "").replace(/^0+/, ""),
  }));
}

/** Rounded as printed: within half a unit of the printed last digit. */
function expectPrinted(printed: { value: number; decimals: number }, exact: number) {
  expect(Math.abs(printed.value - exact), `${printed.value} vs ${exact}`).toBeLessThanOrEqual(0.5 * 10 ** -printed.decimals + 1e-12);
}

describe("buildMarkdownReport — Kafka serializers (docs/examples.md case 5)", () => {
  let projectSlug: string;
  let markdown: string;
  let comparison: TComparison;

  beforeAll(async () => {
    ({ projectSlug } = await createKafkaProject(db, owner.id));
    markdown = await buildMarkdownReport(db, { projectSlug }, KAFKA_SLUG, undefined, {
      chartFiles: ["send_time_ms-bar.png"],
      generatedAt: new Date("2026-11-02T12:00:00Z"),
    });
    comparison = await getComparison(db, { projectSlug }, KAFKA_SLUG);
  });

  it("KOTLINX_JSON: −4.37% (better), p 0.032; JACKSON_OBJECT_MAPPER: no significant change", () => {
    const rows = tableOf(markdown, "send_time_ms");
    const kotlinx = rows.get("KOTLINX_JSON")!;
    expect(kotlinx.Change).toMatch(/^−4\.37% \(better\) \[−\d+\.\d\d%, −\d+\.\d\d%\]$/);
    expect(kotlinx.p).toBe("0.032");
    expect(kotlinx.Verdict).toBe("better");
    const jackson = rows.get("JACKSON_OBJECT_MAPPER")!;
    expect(jackson.Change).toMatch(/^−3\.31% \[/);
    expect(jackson.Verdict).toBe("no significant change");
    // Message size: the ISO-8601 dates make both others ~5% bigger than SPRING_JSON's epoch millis.
    const size = tableOf(markdown, "message_size_bytes");
    expect(size.get("KOTLINX_JSON")!.Change).toMatch(/^\+4\.9\d% \(worse\)/);
    expect(size.get("KOTLINX_JSON")!.Verdict).toBe("worse");
  });

  it("every figure of every table is the comparison's, rounded as printed by one rule", () => {
    for (const metric of comparison.metrics) {
      const result = metric.comparison!;
      const rows = tableOf(markdown, metric.key);
      expect([...rows.keys()]).toEqual([...KAFKA_VARIANTS]);
      for (const stats of result.variants) {
        const row = rows.get(stats.variant)!;
        expect(Number(row.Runs)).toBe(stats.n);
        const [m, low, high] = numbersIn(row["Median [95% CI]"]!);
        expectPrinted(m!, stats.median!);
        if (stats.medianCi!.low === stats.medianCi!.high) {
          // Equal runs (SPRING_JSON's message size): no point interval; min … max is the one value.
          expect(row["Median [95% CI]"]).not.toContain("[");
          expect(row["Min … max"]).toBe(row["Median [95% CI]"]);
        } else {
          expectPrinted(low!, stats.medianCi!.low);
          expectPrinted(high!, stats.medianCi!.high);
          expect(row["Median [95% CI]"]).toContain(` ${metric.unit} [`);
          // The median, its bounds, min and max share one decimal place.
          const [min, max] = numbersIn(row["Min … max"]!);
          expectPrinted(min!, stats.min!);
          expectPrinted(max!, stats.max!);
          expect(new Set([m, low, high, min, max].map((x) => x!.decimals)).size).toBe(1);
        }
        // The sd has two significant digits (or is 0) and the mean its decimal place.
        const [mean, sd] = numbersIn(row["Mean ± sd"]!);
        expectPrinted(sd!, stats.sd!);
        if (stats.sd !== 0) {
          expectPrinted(mean!, stats.mean!);
          expect(sd!.digits, row["Mean ± sd"]).toHaveLength(2);
          expect(mean!.decimals, row["Mean ± sd"]).toBe(sd!.decimals);
        }
        const candidate = result.comparisons.find((c) => c.candidate === stats.variant);
        if (!candidate) {
          expect([row.Change, row.p, row.Verdict]).toEqual(["—", "—", "—"]);
          continue;
        }
        const [percent, ciLow, ciHigh] = numbersIn(row.Change!);
        expectPrinted(percent!, candidate.change.percent!);
        expectPrinted(ciLow!, candidate.change.percentCi!.low);
        expectPrinted(ciHigh!, candidate.change.percentCi!.high);
        expect(Math.abs(Number(row.p) - candidate.pAdjusted!)).toBeLessThanOrEqual(5e-4);
        expect(row.Verdict).toBe(
          { better: "better", worse: "worse", no_change: "no significant change", insufficient_data: "not enough data" }[candidate.verdict],
        );
      }
    }
  });

  it("has the write-up's structure: hypothesis, environment the runs captured, method, charts", () => {
    expect(markdown.startsWith("# Kafka producer serializers\n")).toBe(true);
    expect(markdown).toContain("## Hypothesis\n\nkotlinx.serialization sends messages faster than Spring's JsonSerializer.");
    expect(markdown).toContain("Local Kafka broker, one partition.");
    expect(markdown).toContain("Recorded by the 15 compared runs:");
    expect(markdown).toContain("| CPU | Apple M1 Pro |");
    expect(markdown).toContain("| Cores | 10 |");
    expect(markdown).toContain("| OS | macOS 14.4 |");
    expect(markdown).toContain("| Runtime | 17.0.10 |");
    expect(markdown).toContain("| Git commit | 4f2a9c1e (main): 15 runs |");
    expect(markdown).toContain("- Warm-up: 1 run before measuring");
    expect(markdown).toContain("- Measured: 5 runs per variant planned.");
    expect(markdown).toContain("- messages per run: 1,000,000");
    expect(markdown).toContain("- **KOTLINX_JSON**; 5 runs compared");
    expect(markdown).toContain("sd is the sample standard deviation (n − 1)");
    expect(markdown).toContain("![send_time_ms — bar](charts/send_time_ms-bar.png)");
  });

  it("report.markdown (tRPC) answers with the file name and follows ?baseline=", async () => {
    const report = await caller.report.markdown({ projectSlug, experimentSlug: KAFKA_SLUG, baseline: "KOTLINX_JSON", chartFiles: [] });
    expect(report.fileName).toBe("kafka-serializers-report.md");
    expect(report.markdown).toContain("| Variant | Runs | Median [95% CI] | Mean ± sd | Min … max | Change vs KOTLINX_JSON [CI] | p | Verdict |");
    expect(tableOf(report.markdown, "send_time_ms").get("SPRING_JSON")!.Verdict).toBe("worse");
    expect(report.markdown).not.toContain("## Charts");
  });

  it("report.markdown refuses an unknown experiment, an unknown baseline and unsafe chart names", async () => {
    await expect(caller.report.markdown({ projectSlug, experimentSlug: "nope", chartFiles: [] })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.report.markdown({ projectSlug, experimentSlug: KAFKA_SLUG, baseline: "GSON", chartFiles: [] })).rejects.toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
    });
    const refused = await caller.report.markdown({ projectSlug, experimentSlug: KAFKA_SLUG, chartFiles: ["../x.png"] }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("BAD_REQUEST");
  });

  it("GET …/export/report.md downloads the report as an attachment; 404 for an unknown experiment", async () => {
    const url = `http://test.local/p/${projectSlug}/e/${KAFKA_SLUG}/export/report.md`;
    const response = await getReportMd(new Request(url, { headers: owner.headers() }), {
      params: Promise.resolve({ project: projectSlug, experiment: KAFKA_SLUG }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="kafka-serializers-report.md"');
    const text = await response.text();
    expect(tableOf(text, "send_time_ms").get("KOTLINX_JSON")!.Verdict).toBe("better");

    const missing = await getReportMd(new Request(url, { headers: owner.headers() }), {
      params: Promise.resolve({ project: projectSlug, experiment: "nope" }),
    });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('No experiment "nope"');
  });
});
