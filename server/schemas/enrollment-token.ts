// Agent enrollment tokens: what a member sends to create or revoke one, and what the expiry
// choice means. Shared by the tRPC procedures and the create form (which checks the same rules
// in the browser before sending).
import { z } from "zod";
import { ZSlug } from "./common";

export const enrollmentExpiryChoices = ["never", "1d", "7d", "30d", "date"] as const;
export type TEnrollmentExpiryChoice = (typeof enrollmentExpiryChoices)[number];

export const enrollmentExpiryLabels: Record<TEnrollmentExpiryChoice, string> = {
  never: "Never",
  "1d": "In 1 day",
  "7d": "In 7 days",
  "30d": "In 30 days",
  date: "At the end of a date…",
};

const dayMs = 24 * 60 * 60 * 1000;
const daysOf: Record<Exclude<TEnrollmentExpiryChoice, "never" | "date">, number> = { "1d": 1, "7d": 7, "30d": 30 };

/**
 * The last moment of `isoDate` (YYYY-MM-DD) in UTC, or undefined when it is not a real date.
 * Every time in Versus is shown in UTC, so "valid through Dec 1" means through 23:59 UTC.
 */
export function endOfUtcDay(isoDate: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(Date.UTC(year, month - 1, day, 23, 59, 59, 999));
  // Date.UTC rolls 2026-02-31 over into March; a date that does not survive the round trip is not real.
  if (end.getUTCFullYear() !== year || end.getUTCMonth() !== month - 1 || end.getUTCDate() !== day) return undefined;
  return end;
}

/** Why `expiresOn` cannot be the last day of a token created at `now`, or its last moment. */
function checkExpiryDate(expiresOn: string | undefined, now: Date): { expiresAt: Date } | { problem: string } {
  if (!expiresOn) return { problem: "pick the last day the token works" };
  const end = endOfUtcDay(expiresOn);
  if (!end) return { problem: "use a date like 2026-12-31" };
  if (end.getTime() <= now.getTime()) return { problem: "that day is already over (UTC); pick today or a later day" };
  return { expiresAt: end };
}

export const ZEnrollmentExpiry = z.object({
  expiresIn: z.enum(enrollmentExpiryChoices, { error: "choose when the token expires" }).default("never"),
  /** YYYY-MM-DD, only read when expiresIn is "date": the token works through the end of that day (UTC). */
  expiresOn: z.string().trim().optional(),
});
export type TEnrollmentExpiry = z.output<typeof ZEnrollmentExpiry>;

/**
 * When a token created at `now` with this choice stops working (null: never), or why the chosen
 * date cannot be its expiry. The form, the procedure's input check and the service all ask this.
 */
export function resolveExpiry(choice: TEnrollmentExpiry, now: Date): { expiresAt: Date | null } | { problem: string } {
  if (choice.expiresIn === "never") return { expiresAt: null };
  if (choice.expiresIn === "date") return checkExpiryDate(choice.expiresOn, now);
  return { expiresAt: new Date(now.getTime() + daysOf[choice.expiresIn] * dayMs) };
}

export const ZCreateEnrollmentToken = z
  .object({
    projectSlug: ZSlug,
    name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
    ...ZEnrollmentExpiry.shape,
  })
  .superRefine((value, ctx) => {
    const expiry = resolveExpiry(value, new Date());
    if ("problem" in expiry) ctx.addIssue({ code: "custom", path: ["expiresOn"], message: expiry.problem });
  });
export type TCreateEnrollmentToken = z.output<typeof ZCreateEnrollmentToken>;

/** Revoked outranks expired: a revoked token says so even after its expiry date. */
export type TEnrollmentTokenStatus = "active" | "expired" | "revoked";

export const ZRevokeEnrollmentToken = z.object({ projectSlug: ZSlug, tokenId: z.string().min(1, "tokenId is required") });
