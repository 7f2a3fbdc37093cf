// Environment of the web server, validated once at boot (t3 style; env-core because server/
// stays free of Next.js). `npm start` fills DATABASE_URL when it starts the embedded database.
import { createEnv } from "@t3-oss/env-core";
import { z } from "zod";

export const env = createEnv({
  server: {
    DATABASE_URL: z.url({ message: "DATABASE_URL must be a postgresql:// URL (npm start sets it for the embedded database)" }),
    NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
    /** Largest request body the REST API accepts (uploads, imports), in bytes. */
    VERSUS_MAX_BODY_BYTES: z.coerce.number().int().positive().default(64 * 1024 * 1024),
    /** Public base URL for links the API returns; defaults to the request's own origin. */
    VERSUS_PUBLIC_URL: z.url().optional(),
  },
  runtimeEnv: process.env,
  emptyStringAsUndefined: true,
  // `next build` evaluates modules without a database; validation then happens at first use.
  skipValidation: process.env.VERSUS_SKIP_ENV_VALIDATION === "1",
});
