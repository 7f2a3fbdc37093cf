// Environment of the command-line scripts (start, migrate, seed), validated once.
import { createEnv } from "@t3-oss/env-core";
import { z } from "zod";

export const scriptEnv = createEnv({
  server: {
    DATABASE_URL: z.url().optional(),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOSTNAME: z.string().default("0.0.0.0"),
    VERSUS_DATA_DIR: z.string().default(".data"),
    VERSUS_EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54320),
    VERSUS_SKIP_SEED: z.enum(["0", "1"]).default("0"),
    /** `npm start` runs a local agent (agents/reference) for one project unless this is 0. */
    VERSUS_LOCAL_AGENT: z.enum(["0", "1"], { error: "VERSUS_LOCAL_AGENT must be 0 (off) or 1 (on)" }).default("1"),
    VERSUS_LOCAL_AGENT_PROJECT: z.string().default("examples"),
  },
  runtimeEnv: process.env,
  emptyStringAsUndefined: true,
});
