import { z } from "zod";
import { ZSlug } from "./common";

export const ZProjectInput = z.object({
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
  slug: z.union([ZSlug, z.literal("")]).optional(),
  description: z.string().trim().max(2000).default(""),
});
export type TProjectInput = z.output<typeof ZProjectInput>;

export const ZProjectRef = z.object({ projectSlug: ZSlug });
