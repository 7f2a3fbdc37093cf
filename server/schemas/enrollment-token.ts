// Agent enrollment tokens: what a member sends to create or revoke one, and the create form
// (which checks the same rules in the browser before sending).
import { z } from "zod";
import { ZSlug } from "./common";
import { withExpiry, ZExpiresAt } from "./expiry";

export const ZCreateEnrollmentToken = z.object({
  projectSlug: ZSlug,
  name: z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters"),
  /** When no new agent can enroll with it any more; null: never. */
  expiresAt: ZExpiresAt.default(null),
});
export type TCreateEnrollmentToken = z.output<typeof ZCreateEnrollmentToken>;

/** The create form: a name and the expiry picker. */
export const ZEnrollmentTokenForm = withExpiry({ name: ZCreateEnrollmentToken.shape.name });
export type TEnrollmentTokenFormValues = z.input<typeof ZEnrollmentTokenForm>;

/** Revoked outranks expired: a revoked token says so even after its expiry date. */
export type TEnrollmentTokenStatus = "active" | "expired" | "revoked";

export const ZRevokeEnrollmentToken = z.object({ projectSlug: ZSlug, tokenId: z.string().min(1, "tokenId is required") });
