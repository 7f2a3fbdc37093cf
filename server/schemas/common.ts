import { z } from "zod";

export const slugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;

export const ZSlug = z
  .string()
  .trim()
  .min(1, "slug is required")
  .max(64, "slug must be at most 64 characters")
  .regex(slugPattern, "use lowercase letters, digits and single hyphens (e.g. plain-vs-gzip)");

/** A slug made from free text: "Plain vs Gzip!" → "plain-vs-gzip". */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64)
    .replace(/-+$/g, "");
}

/** Whole numbers from forms arrive as NaN when the box is empty; say so plainly. */
export const wholeNumber = (field: string) =>
  z.number({ error: `${field} must be a whole number` }).int(`${field} must be a whole number`);
