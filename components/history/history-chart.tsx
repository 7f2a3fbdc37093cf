"use client";
// A metric over commits: the median of each commit's runs as a line, the median's 95% CI as a band,
// every run as a faint dot, change points as labelled vertical markers. Zoom by dragging across the
// chart or with the brush under it (an overview of the whole history); the brush also pans.
// Clicking a commit pins it (its details and link show under the chart).
import { useMemo, useState } from "react";
import {
  Area,
  Brush,
  CartesianGrid,
  ComposedChart,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
  ZAxis,
} from "recharts";
import { formatChange, medianText } from "~/server/display/display";
import { linearAxis } from "~/components/charts/nice-axis";
import { axisLine, axisTick, gridStroke } from "~/components/charts/palette";
import { TooltipBox } from "~/components/charts/tooltip";
import type { THistory } from "~/server/schemas/history";
import { commitUrl, dateAxis, formatUtc, shortSha } from "./date-axis";

type Point = THistory["points"][number];
type ChangePoint = THistory["changePoints"][number];

/** Run dots are drawn up to this many visible commits; beyond, the band says enough. */
const MAX_DOT_COMMITS = 400;

export interface Domain {
  from: number;
  to: number;
}

interface Props {
  unit: string;
  /** The project's repository, for the commit link the tooltip announces. */
  repositoryUrl: string | null;
  /** The points to draw (the zoomed window's detail when loaded, else the overview's). */
  points: readonly Point[];
  /** The whole history, thinned: the brush's overview. */
  overview: readonly Point[];
  changePoints: readonly ChangePoint[];
  domain: Domain | null;
  onDomain: (domain: Domain | null) => void;
  onPick: (point: Point) => void;
}

const timeOf = (p: { time: string }) => Date.parse(p.time);

export function HistoryChart({ unit, repositoryUrl, points, overview, changePoints, domain, onDomain, onPick }: Props) {
  const [drag, setDrag] = useState<{ start: number; end: number } | null>(null);
  const visible = useMemo(() => {
    const rows = points.map((p) => ({ ...p, t: timeOf(p), band: [p.ciLow, p.ciHigh] as [number, number] }));
    return domain ? rows.filter((r) => r.t >= domain.from && r.t <= domain.to) : rows;
  }, [points, domain]);
  const dots = useMemo(() => (visible.length <= MAX_DOT_COMMITS ? visible.flatMap((p) => p.runValues.map((value) => ({ t: p.t, value }))) : []), [visible]);
  const overviewRows = useMemo(() => overview.map((p) => ({ t: timeOf(p), median: p.median })), [overview]);

  // The whole history gets a margin of 1% on each side, so the first and last commits' dots show whole.
  const first = visible[0]?.t ?? 0;
  const last = visible.at(-1)?.t ?? 1;
  const margin = domain ? 0 : Math.max((last - first) * 0.01, 60_000);
  const from = domain?.from ?? first - margin;
  const to = domain?.to ?? last + margin;
  const lows = visible.map((p) => Math.min(p.ciLow, ...(dots.length ? p.runValues : [])));
  const highs = visible.map((p) => Math.max(p.ciHigh, ...(dots.length ? p.runValues : [])));
  const y = linearAxis(unit, Math.min(...lows), Math.max(...highs));
  const x = dateAxis(from, to);
  const pad = Math.max((to - from) * 0.01, 60_000);
  const shownChanges = changePoints.filter((c) => c.time && Date.parse(c.time) >= from - pad && Date.parse(c.time) <= to + pad);

  // Brush indices of the overview matching the current domain.
  const startIndex = domain
    ? Math.max(
        0,
        overviewRows.findIndex((r) => r.t >= domain.from),
      )
    : 0;
  const endFound = domain ? overviewRows.findLastIndex((r) => r.t <= domain.to) : -1;
  const endIndex = domain && endFound >= startIndex ? endFound : Math.max(0, overviewRows.length - 1);

  const labelOf = (c: ChangePoint) =>
    `${c.changePercent === null ? "" : `${formatChange(c.changePercent)} `}${c.verdict}${c.status === "open" ? "" : ` (${c.status})`}`;

  return (
    <div className="history-chart">
      <div style={{ height: 360 }} data-testid="history-main" className="history-main">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            data={visible}
            margin={{ top: 28, right: 24, bottom: 4, left: 4 }}
            onMouseDown={(state) => state?.activeLabel !== undefined && setDrag({ start: Number(state.activeLabel), end: Number(state.activeLabel) })}
            onMouseMove={(state) => drag && state?.activeLabel !== undefined && setDrag({ ...drag, end: Number(state.activeLabel) })}
            onMouseUp={() => {
              if (drag && drag.start !== drag.end) onDomain({ from: Math.min(drag.start, drag.end), to: Math.max(drag.start, drag.end) });
              setDrag(null);
            }}
            onClick={(state) => {
              const hit = state?.activeTooltipIndex === undefined || state.activeTooltipIndex === null ? undefined : visible[Number(state.activeTooltipIndex)];
              if (hit && !drag) onPick(hit);
            }}
            style={{ userSelect: "none", cursor: "crosshair" }}
          >
            <CartesianGrid stroke={gridStroke} />
            {/* Run dots of r ≈ 2 px: faint, so a commit's median line and band stay in front. */}
            <ZAxis range={[14, 14]} />
            <XAxis
              dataKey="t"
              type="number"
              scale="time"
              domain={[from, to]}
              allowDataOverflow
              ticks={x.ticks}
              tickFormatter={x.format}
              tick={axisTick}
              axisLine={axisLine}
              tickLine={false}
            />
            <YAxis
              type="number"
              domain={y.domain}
              ticks={y.ticks}
              tickFormatter={y.format}
              tick={axisTick}
              axisLine={axisLine}
              tickLine={false}
              width="auto"
              allowDataOverflow
            />
            <Tooltip
              isAnimationActive={false}
              content={({ active, payload }) => {
                const p = (payload?.find((item) => item.payload && "commit" in item.payload)?.payload ?? null) as (Point & { t: number }) | null;
                if (!active || !p) return null;
                return (
                  <TooltipBox
                    title={<span className="mono">{shortSha(p.commit)}</span>}
                    lines={[
                      p.message ?? <span className="muted">no commit message uploaded</span>,
                      `${formatUtc(p.time)}${p.branch ? ` · ${p.branch}` : ""}`,
                      `median ${medianText({ median: p.median, medianCi: { low: p.ciLow, high: p.ciHigh } }, unit)} (95% CI)`,
                      `${p.runValues.length} run${p.runValues.length === 1 ? "" : "s"}`,
                      repositoryUrl ? `${commitUrl(repositoryUrl, p.commit)?.replace(/^https?:\/\//, "")} (click to pin the link)` : "click to pin this commit",
                    ]}
                  />
                );
              }}
            />
            <Area
              dataKey="band"
              name="95% CI of the median"
              stroke="none"
              fill="var(--series-0)"
              fillOpacity={0.18}
              isAnimationActive={false}
              activeDot={false}
            />
            {dots.length ? (
              <Scatter
                data={dots}
                dataKey="value"
                name="runs"
                fill="var(--muted)"
                fillOpacity={0.28}
                shape="circle"
                isAnimationActive={false}
                legendType="none"
              />
            ) : null}
            <Line
              dataKey="median"
              name="median"
              stroke="var(--series-0)"
              strokeWidth={1.75}
              dot={visible.length <= 150 ? { r: 2.5 } : false}
              activeDot={{ r: 4 }}
              isAnimationActive={false}
            />
            {/* Every other label a line lower: neighbouring change points' labels would overlap on a narrow chart. */}
            {shownChanges.map((c, i) => (
              <ReferenceLine
                key={c.id}
                x={Date.parse(c.time as string)}
                stroke={c.status === "dismissed" ? "var(--muted)" : c.verdict === "regression" ? "var(--danger)" : "var(--good)"}
                strokeWidth={2}
                strokeDasharray={c.status === "open" ? undefined : "5 4"}
                ifOverflow="hidden"
                label={{
                  value: labelOf(c),
                  position: "insideTopLeft",
                  offset: i % 2 ? 22 : 5,
                  fill: c.verdict === "regression" ? "var(--danger)" : "var(--good)",
                  fontSize: 12,
                  fontWeight: 600,
                }}
                className={`change-point-marker change-point-${c.verdict}`}
              />
            ))}
            {drag && drag.start !== drag.end ? (
              <ReferenceArea x1={drag.start} x2={drag.end} fill="var(--accent)" fillOpacity={0.12} stroke="var(--accent)" strokeOpacity={0.5} />
            ) : null}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      {overviewRows.length > 1 ? (
        <div style={{ height: 64 }} data-testid="history-brush">
          <ResponsiveContainer width="100%" height="100%">
            <LineChart data={overviewRows} margin={{ top: 4, right: 24, bottom: 4, left: 24 }}>
              <Brush
                dataKey="t"
                height={52}
                travellerWidth={10}
                stroke="var(--accent)"
                fill="var(--surface-2)"
                startIndex={startIndex}
                endIndex={endIndex}
                tickFormatter={(t: number) => new Date(t).toISOString().slice(0, 10)}
                onChange={(range) => {
                  const start = overviewRows[range.startIndex ?? 0];
                  const end = overviewRows[range.endIndex ?? overviewRows.length - 1];
                  if (!start || !end) return;
                  const whole = range.startIndex === 0 && range.endIndex === overviewRows.length - 1;
                  onDomain(whole ? null : { from: start.t, to: end.t });
                }}
              >
                <LineChart data={overviewRows}>
                  <YAxis hide domain={["dataMin", "dataMax"]} />
                  <Line dataKey="median" stroke="var(--series-0)" strokeWidth={1} dot={false} isAnimationActive={false} />
                </LineChart>
              </Brush>
            </LineChart>
          </ResponsiveContainer>
        </div>
      ) : null}
    </div>
  );
}
