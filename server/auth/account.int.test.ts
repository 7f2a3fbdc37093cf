// One's own name and sign-in email through tRPC on a real PostgreSQL with real sessions: a blank
// name, an invalid or taken email and a wrong password are refused on their fields; a changed
// email signs in and the old one no longer does.
import crypto from "node:crypto";
import { afterAll, describe, expect, inject, it } from "vitest";
import { auth } from "./auth";
import { createPrismaClient } from "../db/client";
import { expectTRPCError, fieldIssuesOfError } from "~/test/trpc-errors";
import { signedInUser, signIn } from "~/test/signed-in";

const db = createPrismaClient(inject("databaseUrl"));
afterAll(() => db.$disconnect());

const freshEmail = (label: string) => `${label}-${crypto.randomBytes(5).toString("hex")}@example.test`;

describe("account.updateName", () => {
  it("changes the name, trimmed", async () => {
    const user = await signedInUser(db, "rename");
    expect(await user.caller.account.updateName({ name: "  Ana Lima " })).toEqual({ name: "Ana Lima", email: user.email });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe("Ana Lima");
  });

  it("refuses a blank name on its field and keeps the old one", async () => {
    const user = await signedInUser(db, "blank");
    const error = await expectTRPCError(user.caller.account.updateName({ name: "   " }), "BAD_REQUEST");
    expect(fieldIssuesOfError(error)).toEqual([{ path: ["name"], message: "name is required" }]);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe("blank");
  });

  it("better-auth's own update-user endpoint is off: it took a blank name", async () => {
    const user = await signedInUser(db, "direct");
    const response = await auth.handler(
      new Request("http://localhost:3000/api/auth/update-user", {
        method: "POST",
        headers: { cookie: user.cookie, "content-type": "application/json", origin: "http://localhost:3000" },
        body: JSON.stringify({ name: "" }),
      }),
    );
    expect(response.status).toBe(404);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).name).toBe("direct");
  });
});

describe("account.changeEmail", () => {
  it("changes the sign-in email after the current password: the new email signs in, the old one not", async () => {
    const user = await signedInUser(db, "mover");
    const newEmail = freshEmail("Moved");
    expect(await user.caller.account.changeEmail({ newEmail, currentPassword: user.password })).toEqual({ name: "mover", email: newEmail.toLowerCase() });
    await expect(signIn(newEmail.toLowerCase(), user.password)).resolves.toMatch(/session_token=/);
    await expect(signIn(user.email, user.password)).rejects.toThrow();
    // The session it was changed from still works, and now names the new email.
    expect((await user.caller.setup.status()).user?.email).toBe(newEmail.toLowerCase());
  });

  it("refuses a wrong current password on its field, changes nothing, and counts it as a failed sign-in", async () => {
    const user = await signedInUser(db, "guess");
    const error = await expectTRPCError(user.caller.account.changeEmail({ newEmail: freshEmail("other"), currentPassword: "not the password" }), "BAD_REQUEST");
    expect(fieldIssuesOfError(error)).toEqual([{ path: ["currentPassword"], message: "this is not your current password" }]);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
    expect((await db.signInFailure.findUnique({ where: { email: user.email } }))?.failures).toBe(1);
  });

  it("refuses an email another account signs in with (409, on the field)", async () => {
    const user = await signedInUser(db, "taker");
    const other = await signedInUser(db, "owner-of-it");
    const error = await expectTRPCError(user.caller.account.changeEmail({ newEmail: other.email.toUpperCase(), currentPassword: user.password }), "CONFLICT");
    expect(fieldIssuesOfError(error)).toEqual([{ path: ["newEmail"], message: "another account already signs in with this email" }]);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).email).toBe(user.email);
  });

  it("refuses an invalid email and the email it already has, on the field", async () => {
    const user = await signedInUser(db, "invalid");
    const invalid = await expectTRPCError(user.caller.account.changeEmail({ newEmail: "not-an-email", currentPassword: user.password }), "BAD_REQUEST");
    expect(fieldIssuesOfError(invalid)).toEqual([{ path: ["newEmail"], message: "enter an email address like ana@example.com" }]);
    const same = await expectTRPCError(user.caller.account.changeEmail({ newEmail: user.email, currentPassword: user.password }), "BAD_REQUEST");
    expect(fieldIssuesOfError(same)).toEqual([{ path: ["newEmail"], message: "this is already your email" }]);
  });
});
