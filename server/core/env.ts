// Every environment variable the server and its scripts (npm start, migrate, seed, `versus
// admin`) read, declared once and validated whenever it is read. Reading late matters: `npm start`
// validates everything first, then opens the database and only then knows DATABASE_URL and the
// installation's BETTER_AUTH_SECRET (kept in that database), which it puts into process.env
// for the code that needs them. Those two are therefore optional here and required where they
// are used (requiredEnv).
import { z } from "zod";

const portError = "must be a port number (1–65535)";
const port = z.coerce.number({ error: portError }).int(portError).min(1, portError).max(65535, portError);

/** One address or CIDR range: 10.0.0.5, 10.0.0.0/8, ::1, fd00::/8. */
const ZAddressOrRange = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
  error: (issue) => `"${String(issue.input)}" is not an IP address or CIDR range`,
});
/** A comma-separated list of them; none when unset. */
const addressList = z
  .string()
  .transform((list) =>
    list
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(z.array(ZAddressOrRange))
  .default([]);

const ZEnv = z.object({
  /** PostgreSQL of the server; `npm start` starts the embedded one when it is unset. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgresql:// URL" }).optional(),
  /** Signs session cookies; `npm start` uses the installation's own when it is unset. */
  BETTER_AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  PORT: port.default(3000),
  HOSTNAME: z.string().default("0.0.0.0"),
  VERSUS_DATA_DIR: z.string().default(".data"),
  VERSUS_EMBEDDED_PG_PORT: port.default(54320),
  VERSUS_SKIP_SEED: z.enum(["0", "1"], { error: 'must be "0" or "1"' }).default("0"),
  /** `npm start` runs a local agent for one project unless this is 0. */
  VERSUS_LOCAL_AGENT: z.enum(["0", "1"], { error: 'must be "0" (off) or "1" (on)' }).default("1"),
  /** Which agent that is: the Go agent when Go is installed (auto), or always the TypeScript reference agent. */
  VERSUS_LOCAL_AGENT_KIND: z.enum(["auto", "go", "reference"], { error: 'must be "auto", "go" or "reference"' }).default("auto"),
  VERSUS_LOCAL_AGENT_PROJECT: z.string().default("examples"),
  /** Beside it, the JVM agent for the workloads only the JVM has, where Java is installed, unless this is 0 (or VERSUS_LOCAL_AGENT is). */
  VERSUS_LOCAL_JVM_AGENT: z.enum(["0", "1"], { error: 'must be "0" (off) or "1" (on where Java is installed)' }).default("1"),
  /**
   * Whether this server process does the work that follows stored runs (change points, alert
   * rules; server/background/). Any number of processes may; 0 leaves it to the others.
   */
  VERSUS_BACKGROUND_WORKER: z.enum(["0", "1"], { error: 'must be "0" (off) or "1" (on)' }).default("1"),
  /** Server processes `npm start` runs on the one port (scripts/lib/worker-processes.ts); one per core when unset. */
  VERSUS_WORKERS: z.coerce
    .number({ error: "must be a number of server processes (1–256)" })
    .int("must be a whole number of server processes (1–256)")
    .min(1, "must be a number of server processes (1–256)")
    .max(256, "must be a number of server processes (1–256)")
    .optional(),
  /**
   * How far V8 lets a server process's heap grow past what survived its last full collection, in
   * percent (scripts/serve.ts); 0 leaves it to V8, which grows it by up to 4× under a steady load.
   */
  VERSUS_HEAP_GROWTH_PERCENT: z.coerce
    .number({ error: "must be a percentage (0–400)" })
    .int("must be a whole percentage (0–400)")
    .min(0, "must be a percentage (0–400)")
    .max(400, "must be a percentage (0–400)")
    .default(25),
  /** Largest request body the REST API accepts (uploads, imports), in bytes. */
  VERSUS_MAX_BODY_BYTES: z.coerce
    .number({ error: "must be a number of bytes" })
    .int("must be a whole number of bytes")
    .positive("must be a positive number of bytes")
    .default(64 * 1024 * 1024),
  /** Where people reach Versus; without it, links follow the request (server/http/public-origin.ts). */
  VERSUS_PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .transform((url) => url.replace(/\/+$/, ""))
    .optional(),
  /** The reverse proxies in front of Versus, whose X-Forwarded-* headers are believed. */
  VERSUS_TRUSTED_PROXIES: addressList,
  /** Non-public addresses (loopback, private, link-local…) alert webhooks may still be sent to. */
  VERSUS_WEBHOOK_ALLOWED_ADDRESSES: addressList,
});

export type Env = z.output<typeof ZEnv>;
const names = Object.keys(ZEnv.shape) as (keyof Env)[];

/**
 * `next build` evaluates server modules with no database and no secret (package.json sets this);
 * a variable that does not validate then reads as unset instead of failing the build.
 */
const building = (source: Record<string, string | undefined> = process.env) => source.VERSUS_SKIP_ENV_VALIDATION === "1";

/** The environment as it is now, validated; throws one error that names every bad variable. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  // Empty counts as unset, so `DATABASE_URL= npm start` means "the embedded database".
  const input = Object.fromEntries(names.map((name) => [name, source[name] === "" ? undefined : source[name]]));
  const parsed = ZEnv.safeParse(input);
  if (parsed.success) return parsed.data;
  const bad = new Set(parsed.error.issues.map((issue) => String(issue.path[0])));
  if (building(source)) return ZEnv.parse(Object.fromEntries(Object.entries(input).filter(([name]) => !bad.has(name))));
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new Error(`Invalid environment variables:\n${lines.join("\n")}`);
}

/**
 * A variable of process.env as validated: the environment is validated again when this variable
 * (or VERSUS_SKIP_ENV_VALIDATION) changed since the last validation (see the top of this file for
 * why not once). Not on every read: requests read it, and validating costs more than some of them;
 * nor by comparing every variable on each read, which took 2 % of a cached comparison's CPU.
 * (Each variable validates on its own, so one that did not change keeps its value.)
 */
let last: { raw: Record<string, string | undefined>; env: Env } | undefined;
function currentValue<K extends keyof Env>(name: K): Env[K] {
  const skip = process.env.VERSUS_SKIP_ENV_VALIDATION;
  const raw = process.env[name];
  if (!last || last.raw[name] !== raw || last.raw.VERSUS_SKIP_ENV_VALIDATION !== skip) {
    const env = readEnv();
    last = { raw: Object.fromEntries([...names, "VERSUS_SKIP_ENV_VALIDATION"].map((key) => [key, process.env[key]])), env };
  }
  return last.env[name];
}

/** process.env, validated (see currentValue). */
export const env: Readonly<Env> = Object.defineProperties(
  {} as Env,
  Object.fromEntries(names.map((name) => [name, { enumerable: true, get: () => currentValue(name) }])),
);

const whyRequired = {
  DATABASE_URL:
    "DATABASE_URL is not set: start Versus with `npm start`, which sets it (to the embedded database when you have none), or set it to a postgresql:// URL",
  BETTER_AUTH_SECRET:
    "BETTER_AUTH_SECRET is not set: start Versus with `npm start`, which sets it to the installation's own secret, or set one of at least 32 characters",
};

/** A variable the server cannot run without. Unset only while `next build` evaluates modules. */
export function requiredEnv(name: keyof typeof whyRequired): string {
  const value = env[name];
  if (value === undefined && !building()) throw new Error(whyRequired[name]);
  return value as string;
}
