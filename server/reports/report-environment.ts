// Summarises the environment the runs captured (CPU, cores, memory, OS, runtime, container
// limits, git commit) for the report's "Environment" section. Agents, the CLI and importers name
// these fields differently (JMH's jdkVersion, Go's goos, Google Benchmark's num_cpus), so each
// line of the summary accepts several spellings; whatever is left is listed by name only. Sizes
// are written with their unit by server/display/display.ts ("23.54 GiB", not 25276510208).
import { formatMeasure } from "../display/display";

export interface EnvironmentLine {
  label: string;
  /** Distinct values with how many runs recorded each, most common first. */
  values: { value: string; runs: number }[];
}

export interface EnvironmentSummary {
  runs: number;
  lines: EnvironmentLine[];
  /** Recorded fields no line covers, e.g. "jmhVersion". */
  otherFields: string[];
  commits: { gitCommit: string; gitBranch: string | null; runs: number }[];
}

export interface RunEnvironment {
  environment: unknown;
  gitCommit: string | null;
  gitBranch: string | null;
}

/** Field spellings, compared lower-case without punctuation ("cpu_model", "cpu.model" → "cpumodel"). */
const LINES: { label: string; keys: string[] }[] = [
  { label: "CPU", keys: ["cpu", "cpumodel", "cpuname", "processor", "modelname"] },
  { label: "Cores", keys: ["cores", "cpucores", "numcpus", "cpus", "nproc", "cpucount", "logicalcpus", "gomaxprocs"] },
  { label: "Memory", keys: ["memory", "mem", "memorybytes", "memorygb", "memorymb", "ram", "totalmemory"] },
  { label: "OS", keys: ["os", "osname", "osversion", "goos", "platform", "kernel"] },
  { label: "Architecture", keys: ["arch", "goarch", "architecture"] },
  {
    label: "Runtime",
    keys: [
      "runtime",
      "runtimeversion",
      "jdkversion",
      "jdk",
      "javaversion",
      "java",
      "vmname",
      "vmversion",
      "jvm",
      "goversion",
      "go",
      "node",
      "nodeversion",
      "python",
      "pythonversion",
      "rustc",
    ],
  },
  { label: "Container limits", keys: ["container", "containerlimits", "cpulimit", "cpuslimit", "memorylimit", "memorylimitbytes"] },
];

const number = /^\d+(\.\d+)?$/;
/** Below this a bare memory figure is not a count of bytes (16 means 16 GB to whoever wrote it): kept as written. */
const SMALLEST_BYTES = 1024 ** 2;

/**
 * A field's value as the report writes it: sizes with their unit (the agents send memoryBytes and
 * memoryLimitBytes; a name may carry GB or MB, read in binary steps as the tools that write them
 * mean), a container's limits named; anything else, or a value that already says its unit, as recorded.
 */
function valueText(key: string, value: string): string {
  if (!number.test(value)) return value;
  const figure = Number(value);
  switch (key) {
    case "memorybytes":
      return formatMeasure(figure, "B");
    case "memory":
    case "mem":
    case "ram":
    case "totalmemory":
      return figure >= SMALLEST_BYTES ? formatMeasure(figure, "B") : value;
    case "memorygb":
      return formatMeasure(figure, "GiB");
    case "memorymb":
      return formatMeasure(figure, "MiB");
    case "memorylimit":
    case "memorylimitbytes":
      return `${figure >= SMALLEST_BYTES ? formatMeasure(figure, "B") : value} memory`;
    case "cpulimit":
    case "cpuslimit":
      return `${value} CPU${figure === 1 ? "" : "s"}`;
    default:
      return value;
  }
}

const normalise = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Scalar fields of a run's environment, one level of nesting flattened ("cpu.model"). */
function scalarFields(environment: unknown): [string, string][] {
  if (!environment || typeof environment !== "object" || Array.isArray(environment)) return [];
  const fields: [string, string][] = [];
  for (const [key, value] of Object.entries(environment)) {
    if (isScalar(value)) fields.push([key, String(value)]);
    else if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value)) if (isScalar(innerValue)) fields.push([`${key}.${inner}`, String(innerValue)]);
    }
  }
  return fields;
}

function isScalar(value: unknown): value is string | number | boolean {
  return (typeof value === "string" && value.trim() !== "") || typeof value === "number" || typeof value === "boolean";
}

export function summariseEnvironment(runs: RunEnvironment[]): EnvironmentSummary {
  const counts = LINES.map(() => new Map<string, number>());
  const other = new Set<string>();
  for (const run of runs) {
    const fields = scalarFields(run.environment);
    LINES.forEach((line, index) => {
      // A run may give several fields for one line (JMH: jdkVersion and vmName): join them.
      const parts = line.keys.flatMap((key) => fields.filter(([name]) => normalise(name) === key).map(([, value]) => valueText(key, value)));
      if (parts.length === 0) return;
      const value = [...new Set(parts)].join(" · ");
      counts[index]!.set(value, (counts[index]!.get(value) ?? 0) + 1);
    });
    const known = new Set(LINES.flatMap((line) => line.keys));
    for (const [name] of fields) if (!known.has(normalise(name))) other.add(name);
  }

  const commits = new Map<string, { gitCommit: string; gitBranch: string | null; runs: number }>();
  for (const run of runs) {
    if (!run.gitCommit) continue;
    const seen = commits.get(run.gitCommit) ?? { gitCommit: run.gitCommit, gitBranch: run.gitBranch, runs: 0 };
    seen.runs += 1;
    seen.gitBranch ??= run.gitBranch;
    commits.set(run.gitCommit, seen);
  }

  return {
    runs: runs.length,
    lines: LINES.map((line, index) => ({ label: line.label, values: byCount(counts[index]!) })).filter((line) => line.values.length > 0),
    otherFields: [...other].sort(),
    commits: [...commits.values()].sort((a, b) => b.runs - a.runs),
  };
}

function byCount(counts: Map<string, number>) {
  return [...counts.entries()].map(([value, runs]) => ({ value, runs })).sort((a, b) => b.runs - a.runs || a.value.localeCompare(b.value));
}
