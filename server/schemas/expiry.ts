// When a share link or an enrollment token stops working: what the procedures take (a moment,
// or null for never) and the picker that makes it (never, 1, 7 or 30 days, or a day). The picker
// runs in the browser, so a day means the end of that day where the user is: someone picking
// "until Friday" means Friday night on their own clock, not in UTC.
import { z } from "zod";

/** The moment it stops working; null: never. A moment already past would make it dead on arrival. */
export const ZExpiresAt = z
  .date({ error: "the expiry must be a date" })
  .nullable()
  .refine((date) => date === null || date.getTime() > Date.now(), "the expiry must be in the future");

export const expiryChoices = [
  { value: "never", label: "Never", days: 0 },
  { value: "1d", label: "In 1 day", days: 1 },
  { value: "7d", label: "In 7 days", days: 7 },
  { value: "30d", label: "In 30 days", days: 30 },
  { value: "date", label: "At the end of a day…", days: 0 },
] as const;
export type TExpiryChoice = (typeof expiryChoices)[number]["value"];

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The last moment (23:59:59.999) of `isoDate` (YYYY-MM-DD) in this runtime's time zone — the
 * user's own in the browser — or undefined when it is not a real date.
 */
export function endOfLocalDay(isoDate: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const end = new Date(year, month - 1, day, 23, 59, 59, 999);
  // The Date constructor rolls 2026-02-31 over into March; a date that does not survive the round trip is not real.
  if (end.getFullYear() !== year || end.getMonth() !== month - 1 || end.getDate() !== day) return undefined;
  return end;
}

/** When a choice made at `now` stops working (null: never), or why the chosen day cannot be its end. */
export function expiryOf(choice: { expiry: TExpiryChoice; expiresOn: string }, now: Date): { expiresAt: Date | null } | { problem: string } {
  if (choice.expiry === "never") return { expiresAt: null };
  if (choice.expiry !== "date") {
    const days = expiryChoices.find((option) => option.value === choice.expiry)?.days ?? 0;
    return { expiresAt: new Date(now.getTime() + days * DAY_MS) };
  }
  if (!choice.expiresOn) return { problem: "pick the last day it works" };
  const end = endOfLocalDay(choice.expiresOn);
  if (!end) return { problem: "use a date like 2026-12-31" };
  if (end.getTime() <= now.getTime()) return { problem: "that day is already over; pick today or a later day" };
  return { expiresAt: end };
}

/** The picker's own fields: a preset, and the day when the preset is "date". */
export const ZExpiryFields = z.object({
  expiry: z.enum(expiryChoices.map((choice) => choice.value) as [TExpiryChoice, ...TExpiryChoice[]], { error: "choose when it expires" }),
  expiresOn: z.string().trim(),
});
export type TExpiryFields = z.input<typeof ZExpiryFields>;

/** The moment the picker's fields mean now; a day that cannot be the end is a problem on `expiresOn`. */
function checkedExpiry(form: z.output<typeof ZExpiryFields>, ctx: z.RefinementCtx): Date | null | undefined {
  const result = expiryOf(form, new Date());
  if ("expiresAt" in result) return result.expiresAt;
  ctx.addIssue({ code: "custom", path: ["expiresOn"], message: result.problem });
  return undefined;
}

/**
 * A form with the expiry picker among its fields, turned into what a procedure takes: the other
 * fields as they are and `expiresAt`.
 */
export function withExpiry<Shape extends z.ZodRawShape>(shape: Shape) {
  type Fields = z.output<z.ZodObject<Shape>>;
  return (
    z
      .object({ ...shape, ...ZExpiryFields.shape })
      // Checked on its own first, so a bad day is reported with the other fields' problems: the
      // transform only runs once every field is fine.
      .superRefine((form, ctx) => void checkedExpiry(form as z.output<typeof ZExpiryFields>, ctx))
      .transform((form, ctx): Fields & { expiresAt: Date | null } => {
        const { expiry, expiresOn, ...fields } = form as Fields & z.output<typeof ZExpiryFields>;
        const expiresAt = checkedExpiry({ expiry, expiresOn }, ctx);
        return expiresAt === undefined ? z.NEVER : { ...(fields as Fields), expiresAt };
      })
  );
}
