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

/** PostgreSQL's `integer` (Prisma's Int): a whole number outside it cannot be stored. */
export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;

/**
 * A whole number that fits an Int column; every integer field of a request that is stored in one
 * is built from this. (Whole numbers from forms arrive as NaN when the box is empty; say so plainly.)
 */
export const wholeNumber = (field: string) =>
  z
    .number({ error: `${field} must be a whole number` })
    .int(`${field} must be a whole number`)
    .min(INT4_MIN, `${field} must be at least ${INT4_MIN}`)
    .max(INT4_MAX, `${field} must be at most ${INT4_MAX}`);
