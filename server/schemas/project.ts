import { z } from "zod";
import { ZSlug } from "./common";

export const ZProjectInput = z.object({
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
  slug: z.union([ZSlug, z.literal("")]).optional(),
  description: z.string().trim().max(2000).default(""),
});
export type TProjectInput = z.output<typeof ZProjectInput>;

export const ZProjectRef = z.object({ projectSlug: ZSlug });

export const ZUpdateProject = z.object({ projectSlug: ZSlug, name: ZProjectInput.shape.name, description: ZProjectInput.shape.description });

/** Deleting a project asks for its slug again, so a slip of the mouse cannot do it. */
export const ZDeleteProject = z.object({ projectSlug: ZSlug, confirmSlug: z.string() }).refine((v) => v.confirmSlug === v.projectSlug, {
  path: ["confirmSlug"],
  message: "type the project's slug to confirm",
});
