"use client";
// The shape of each variant's samples, from the stored HdrHistograms: a histogram (share of
// samples per bucket, so variants with different sample counts compare) or the CDF (share at or
// below a value, where a shift or a fatter tail shows as a gap between curves). The buckets come
// from the server, linear or log-spaced; the log X axis uses the log-spaced ones.
import { useState } from "react";
import { Area, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMeasure } from "~/server/display/display";
import type { TDistributionBinning, TMetricCharts } from "~/server/schemas/charts";
import { ChartFrame } from "./chart-frame";
import { VariantLegend } from "./legend";
import { logAxis } from "./log-ticks";
import { linearAxis } from "./nice-axis";
import { axisLine, axisTick, colorOf, gridStroke, type ChartVariant } from "./palette";
import { Segmented } from "./segmented";
import { TooltipBox } from "./tooltip";

type Kind = "histogram" | "cdf";

/**
 * Recharts rows on the value axis. Histogram: a step at each bucket's lower edge, repeated at the
 * top edge so the last bucket has its width. CDF: the share at or below each upper edge, from 0
 * at the lowest edge. Shares are in percent; columns v0, v1… are the binning's variants.
 */
function rowsOf(binning: TDistributionBinning, kind: Kind) {
  const buckets = binning.edges.length - 1;
  return binning.edges.map((x, i) => ({
    x,
    ...Object.fromEntries(
      binning.variants.map((v, j) => [
        `v${j}`,
        kind === "histogram" ? 100 * (v.shares[Math.min(i, buckets - 1)] ?? 0) : i === 0 ? 0 : 100 * (v.cumulative[i - 1] ?? 1),
      ]),
    ),
  }));
}

export function DistributionChart({ metric, variants, fileName }: { metric: TMetricCharts; variants: readonly ChartVariant[]; fileName: string }) {
  const distribution = metric.distribution;
  const [kind, setKind] = useState<Kind>("histogram");
  const [scale, setScale] = useState<"linear" | "log">(distribution?.suggestedScale ?? "linear");
  const binning = distribution ? (scale === "log" && distribution.log ? distribution.log : distribution.linear) : null;
  const edges = binning?.edges ?? [0, 1];
  const low = edges[0] as number;
  const high = edges.at(-1) as number;
  const log = binning?.scale === "log" ? logAxis(low, high) : null;
  const linear = linearAxis(metric.unit, low, high, { count: 6 });
  const rows = binning ? rowsOf(binning, kind) : [];
  const notes = distribution?.notes.length ? ` Not shown: ${distribution.notes.join("; ")}.` : "";

  return (
    <ChartFrame
      chartId={`${metric.key}/distribution`}
      label={`Distribution of ${metric.key} per variant`}
      caption={`${kind === "histogram" ? "Share of each variant's samples per bucket" : "Share of each variant's samples at or below a value (CDF)"}, from ${binning?.variants.map((v) => `${v.total.toLocaleString("en-US")} ${v.variant}`).join(", ") ?? "no"} samples; ${binning?.scale ?? "linear"} buckets.${notes}`}
      fileName={fileName}
      height={320}
      empty={binning ? null : "No samples or histograms stored for this metric"}
      options={
        <>
          <Segmented
            label="Distribution as"
            value={kind}
            onChange={setKind}
            options={[
              { value: "histogram", label: "Histogram" },
              { value: "cdf", label: "CDF" },
            ]}
          />
          {distribution?.log ? (
            <Segmented
              label="X axis"
              value={scale}
              onChange={setScale}
              options={[
                { value: "linear", label: "Linear" },
                { value: "log", label: "Log X" },
              ]}
            />
          ) : null}
        </>
      }
    >
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={rows} margin={{ top: 12, right: 20, bottom: 4, left: 4 }}>
          <CartesianGrid stroke={gridStroke} />
          {log ? (
            <XAxis
              dataKey="x"
              type="number"
              scale="log"
              domain={[low, high]}
              allowDataOverflow
              ticks={log.ticks.filter((t) => t >= low && t <= high)}
              tickFormatter={(v: number) => formatMeasure(v, metric.unit)}
              tick={axisTick}
              axisLine={axisLine}
              tickLine={false}
            />
          ) : (
            <XAxis
              dataKey="x"
              type="number"
              domain={linear.domain}
              ticks={linear.ticks}
              tickFormatter={linear.format}
              tick={axisTick}
              axisLine={axisLine}
              tickLine={false}
            />
          )}
          <YAxis
            domain={kind === "cdf" ? [0, 100] : [0, "auto"]}
            ticks={kind === "cdf" ? [0, 25, 50, 75, 100] : undefined}
            tickFormatter={(v: number) => formatMeasure(v, "%")}
            tick={axisTick}
            axisLine={axisLine}
            tickLine={false}
            width="auto"
          />
          <Tooltip
            isAnimationActive={false}
            content={({ active, payload, label }) => {
              if (!active || !payload?.length || !binning) return null;
              const i = edges.indexOf(Number(label));
              const title =
                kind === "histogram"
                  ? `${formatMeasure(edges[i], metric.unit)} – ${formatMeasure(edges[Math.min(i + 1, edges.length - 1)], metric.unit)}`
                  : `≤ ${formatMeasure(Number(label), metric.unit)}`;
              return (
                <TooltipBox
                  title={title}
                  lines={payload.map(
                    (item) => `${binning.variants[Number(String(item.dataKey).slice(1))]?.variant}: ${formatMeasure(Number(item.value), "%")}`,
                  )}
                />
              );
            }}
          />
          <Legend
            verticalAlign="bottom"
            content={<VariantLegend items={(binning?.variants ?? []).map((v) => ({ name: v.variant, color: colorOf(variants, v.variant) }))} />}
          />
          {(binning?.variants ?? []).map((v, j) =>
            kind === "histogram" ? (
              <Area
                key={v.variant}
                dataKey={`v${j}`}
                name={v.variant}
                type="stepAfter"
                stroke={colorOf(variants, v.variant)}
                strokeWidth={1.75}
                fill={colorOf(variants, v.variant)}
                fillOpacity={0.1}
                isAnimationActive={false}
              />
            ) : (
              <Line
                key={v.variant}
                dataKey={`v${j}`}
                name={v.variant}
                type="linear"
                stroke={colorOf(variants, v.variant)}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
            ),
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
