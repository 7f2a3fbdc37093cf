// Shapes of accounts: sign-in, the first owner's setup, accepting an invitation.
import { z } from "zod";

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

export const ZEmail = z
  .string({ error: "email is required" })
  .trim()
  .min(1, "email is required")
  .max(254, "email must be at most 254 characters")
  .pipe(z.email({ error: "enter an email address like ana@example.com" }))
  .transform((email) => email.toLowerCase());

export const ZPassword = z
  .string({ error: "password is required" })
  .min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(MAX_PASSWORD_LENGTH, `password must be at most ${MAX_PASSWORD_LENGTH} characters`);

export const ZPersonName = z.string({ error: "name is required" }).trim().min(1, "name is required").max(100, "name must be at most 100 characters");

export const ZSignIn = z.object({
  email: ZEmail,
  password: z.string({ error: "password is required" }).min(1, "password is required"),
});
export type TSignIn = z.output<typeof ZSignIn>;

/** A new account: who you are and the password you will sign in with. */
export const ZNewAccount = z.object({ name: ZPersonName, email: ZEmail, password: ZPassword });
export type TNewAccount = z.output<typeof ZNewAccount>;

/** The first owner, created through the one-time setup link. */
export const ZCompleteSetup = z.object({ token: z.string().min(1, "the setup link is incomplete"), account: ZNewAccount });
export const ZSetupToken = z.object({ token: z.string().min(1) });

/** Changing one's own password; other browsers are signed out unless the user says otherwise. */
export const ZChangePassword = z
  .object({
    currentPassword: z.string({ error: "current password is required" }).min(1, "current password is required"),
    newPassword: ZPassword,
    confirmPassword: z.string(),
    signOutOtherSessions: z.boolean().default(true),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "the two new passwords differ" });

/** Changing one's own name (the account page). */
export const ZUpdateName = z.object({ name: ZPersonName });
export type TUpdateName = z.output<typeof ZUpdateName>;

/**
 * Changing one's own email, the address one signs in with. Versus sends no email to confirm the
 * new address, so the current password is asked for instead: a session left open is not enough.
 */
export const ZChangeEmail = z.object({
  newEmail: ZEmail,
  currentPassword: z.string({ error: "current password is required" }).min(1, "current password is required"),
});
export type TChangeEmail = z.output<typeof ZChangeEmail>;
