// The workloads this agent can run, by name. Preparing a job's workload checks its settings
// with the workload's own schema, so a bad setting fails the job before anything runs, with a
// message that names the setting.
import { z } from "zod";
import type { WorkloadAdvert } from "../api/protocol";
import { gzipWorkload } from "./gzip";
import { sleepWorkload } from "./sleep";
import type { MetricSpec, Recorder, Workload } from "./workload";

export interface PreparedWorkload {
  name: string;
  /** The settings after defaults: what actually ran (kept with the run's environment). */
  settings: unknown;
  metrics: readonly MetricSpec[];
  run(recorder: Recorder, signal: AbortSignal): Promise<void>;
}

export class WorkloadRegistry {
  private readonly byName = new Map<string, Workload>();

  constructor(workloads: readonly Workload[]) {
    for (const workload of workloads) {
      if (this.byName.has(workload.name)) throw new Error(`two workloads are named "${workload.name}"`);
      this.byName.set(workload.name, workload);
    }
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** What register and heartbeat advertise: each workload with a JSON Schema of its settings and its metrics. */
  adverts(): WorkloadAdvert[] {
    return [...this.byName.values()].map((workload) => ({
      name: workload.name,
      description: workload.description,
      // "input": the settings as a user writes them, where a field with a default may be left out.
      settingsSchema: z.toJSONSchema(workload.settings, { io: "input" }) as Record<string, unknown>,
      metrics: workload.metrics.map(({ key, unit, direction, aggregation, description }) => ({ key, unit, direction, aggregation, description })),
    }));
  }

  prepare(name: string, rawSettings: unknown): PreparedWorkload | { problem: string } {
    const workload = this.byName.get(name);
    if (!workload) return { problem: `this agent has no workload "${name}" (it has ${this.names().join(", ")})` };
    const parsed = workload.settings.safeParse(rawSettings ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map(
        (issue) =>
          `${issue.path.length ? issue.path.join(".") : "settings"}: ${issue.code === "unrecognized_keys" ? unknownSettings(issue.keys, workload.settings) : issue.message}`,
      );
      return { problem: `bad settings for workload "${name}": ${issues.join("; ")}` };
    }
    const settings = parsed.data;
    return { name, settings, metrics: workload.metrics, run: (recorder, signal) => workload.run(settings, recorder, signal) };
  }
}

/** The workloads built into this agent. */
export function builtInWorkloads(): WorkloadRegistry {
  return new WorkloadRegistry([gzipWorkload, sleepWorkload]);
}

/** "unknown settings 'target', 'vus'; valid settings are sizeBytes, compress, …" (the Go and JVM agents' words). */
function unknownSettings(keys: string[], schema: z.ZodType): string {
  const shape = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const names = keys.map((key) => `'${key}'`).join(", ");
  return `unknown ${keys.length === 1 ? "setting" : "settings"} ${names}${shape.length ? `; valid settings are ${shape.join(", ")}` : ""}`;
}
