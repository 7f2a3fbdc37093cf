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
  },
  runtimeEnv: process.env,
  emptyStringAsUndefined: true,
});
