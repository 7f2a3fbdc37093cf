// Environment of sign-in, validated when the auth instance is built. Apart from server/env.ts
// because `npm start` opens the database (server/env.ts) before it knows the installation's
// secret, which it reads from that database.
import { createEnv } from "@t3-oss/env-core";
import { z } from "zod";

export const authEnv = createEnv({
  server: {
    /** Signs session cookies. `npm start` makes one per installation and keeps it in the database. */
    BETTER_AUTH_SECRET: z
      .string({ error: "BETTER_AUTH_SECRET is required (npm start sets it from the installation's own secret)" })
      .min(32, "BETTER_AUTH_SECRET must be at least 32 characters"),
    VERSUS_PUBLIC_URL: z.url().optional(),
    PORT: z.coerce.number().int().min(1).max(65535).optional(),
  },
  runtimeEnv: process.env,
  emptyStringAsUndefined: true,
  skipValidation: process.env.VERSUS_SKIP_ENV_VALIDATION === "1",
});
