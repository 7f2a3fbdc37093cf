"use client";
// Under a run several agents made together: each agent's own figures (its share's requests, rate
// and percentiles), its clock offset against the server and its start against the others', and
// their per-second series stacked, so the total reads as the stack's top and each agent's part
// stays readable. Loaded when opened.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "~/components/trpc/react";
import { formatMeasure } from "~/server/display/display";
import { axisLine, axisTick, gridStroke, seriesColor } from "~/components/charts/palette";
import { TooltipBox } from "~/components/charts/tooltip";
import { VariantLegend } from "~/components/charts/legend";

const ms = (value: number | null, signed = false) =>
  value === null ? "—" : `${signed && value > 0 ? "+" : ""}${value.toFixed(value !== 0 && Math.abs(value) < 10 ? 2 : 0)} ms`;

export function RunAgents({ projectSlug, experimentSlug, runId, agents }: { projectSlug: string; experimentSlug: string; runId: string; agents: number }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const shards = useQuery({ ...trpc.experiment.runShards.queryOptions({ projectSlug, experimentSlug, runId }), enabled: open });
  const data = shards.data;
  const names = data?.shards.filter((shard) => shard.state === "measured").map((shard) => shard.agent) ?? [];
  const unit = data?.series?.unit ?? "";
  const rows = data?.series?.seconds.map(({ second, values }) => ({ second, ...values })) ?? [];

  return (
    <details className="run-agents" onToggle={(event) => setOpen(event.currentTarget.open)} data-testid="run-agents">
      <summary className="small">Per agent ({agents}): figures, clock offsets and series</summary>
      {shards.error ? <p className="error">The agents&apos; figures could not be loaded: {shards.error.message}</p> : null}
      {open && !data && !shards.error ? <p className="muted small">Loading…</p> : null}
      {data ? (
        <>
          <p className="small">
            Start skew <strong>{ms(data.startSkewMs)}</strong> between the agents&apos; first measured seconds (each on its own clock, corrected by its offset
            against the server).
          </p>
          <div className="table-wrap">
            <table aria-label="Agents of this run" className="small">
              <thead>
                <tr>
                  <th>Agent</th>
                  <th className="num">Requests</th>
                  <th className="num">Rate</th>
                  <th className="num">p50</th>
                  <th className="num">p99</th>
                  <th className="num">Clock offset</th>
                  <th className="num">Start</th>
                  <th>Generator</th>
                </tr>
              </thead>
              <tbody>
                {data.shards.map((shard) => (
                  <tr key={shard.shard}>
                    <td>
                      {shard.agent}
                      {shard.state === "lost" ? <span className="badge warn"> lost: share missing</span> : null}
                    </td>
                    <td className="num">{formatMeasure(shard.requests, "count")}</td>
                    <td className="num">{formatMeasure(shard.throughput, "req/s")}</td>
                    <td className="num">{formatMeasure(shard.p50, "ms")}</td>
                    <td className="num">{formatMeasure(shard.p99, "ms")}</td>
                    <td className="num">{ms(shard.clockOffsetMs, true)}</td>
                    <td className="num">{shard.startOffsetMs === null ? "—" : `+${ms(shard.startOffsetMs)}`}</td>
                    <td>
                      {shard.keptRate === null ? "—" : shard.keptRate ? "kept the rate" : <span className="badge warn">fell behind</span>}
                      {shard.cpuPercent !== null ? <span className="muted"> · CPU {shard.cpuPercent.toFixed(0)}%</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.series && rows.length ? (
            <figure className="chart" aria-label={`${data.series.key} per second, stacked by agent`} style={{ margin: 0 }}>
              <div style={{ width: "100%", height: 220 }}>
                <ResponsiveContainer width="100%" height="100%">
                  <AreaChart data={rows} margin={{ top: 16, right: 16, bottom: 4, left: 4 }}>
                    <CartesianGrid stroke={gridStroke} />
                    <XAxis dataKey="second" tick={axisTick} axisLine={axisLine} tickLine={axisLine} tickFormatter={(second: number) => `${second} s`} />
                    <YAxis tick={axisTick} axisLine={axisLine} tickLine={axisLine} width={56} tickFormatter={(value: number) => formatMeasure(value, unit)} />
                    <Tooltip
                      isAnimationActive={false}
                      content={({ active, payload, label }) =>
                        active && payload?.length ? (
                          <TooltipBox
                            title={`second ${String(label)}`}
                            lines={[
                              ...payload.map((item) => `${item.name}: ${formatMeasure(Number(item.value), unit)}`),
                              `all agents: ${formatMeasure(
                                payload.reduce((sum, item) => sum + Number(item.value ?? 0), 0),
                                unit,
                              )}`,
                            ]}
                          />
                        ) : null
                      }
                    />
                    {names.map((name, index) => (
                      <Area
                        key={name}
                        dataKey={name}
                        name={name}
                        stackId="agents"
                        type="linear"
                        stroke={seriesColor(index)}
                        fill={seriesColor(index)}
                        fillOpacity={0.35}
                        isAnimationActive={false}
                      />
                    ))}
                  </AreaChart>
                </ResponsiveContainer>
              </div>
              <VariantLegend items={names.map((name, index) => ({ name, color: seriesColor(index) }))} />
              <figcaption className="muted small">
                {data.series.key} per second, each agent&apos;s own stacked on the others&apos;: the top is the run&apos;s total.
              </figcaption>
            </figure>
          ) : null}
        </>
      ) : null}
    </details>
  );
}
