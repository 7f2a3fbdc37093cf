import { z } from "zod";
import { ZSlug } from "./common";

export const ZCreateApiKey = z.object({
  projectSlug: ZSlug,
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
});

export const ZRevokeApiKey = z.object({ projectSlug: ZSlug, keyId: z.string().min(1) });
