// Installation-wide facts kept in InstanceSetting: the secret that signs session cookies, and the
// one-time link that creates the first owner. There is never a default password: until someone
// opens the setup link (printed by `npm start`, or `npx versus admin setup-link`), nobody can sign in.
import crypto from "node:crypto";
import { hashSecret, newSecret } from "./secret-tokens";
import { createUserWithPassword, prepareNewAccount } from "./credentials";
import type { Db } from "../db/client";
import { AppError } from "../core/errors";
import type { TNewAccount } from "../schemas/auth";

const AUTH_SECRET_KEY = "auth-secret";
const SETUP_TOKEN_KEY = "setup-token";
/** A printed setup link works for a day; `admin setup-link` makes a new one. */
const SETUP_LINK_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** The installation's cookie-signing secret, made on first start and kept across restarts. */
export async function ensureAuthSecret(db: Db): Promise<string> {
  const existing = await db.instanceSetting.findUnique({ where: { key: AUTH_SECRET_KEY } });
  if (typeof existing?.value === "string") return existing.value;
  // Two first starts racing: the first write wins (the upsert returns the stored row), both use it.
  const stored = await db.instanceSetting.upsert({
    where: { key: AUTH_SECRET_KEY },
    create: { key: AUTH_SECRET_KEY, value: crypto.randomBytes(32).toString("base64url") },
    update: {},
  });
  return stored.value as string;
}

export async function hasAnyUser(db: Db): Promise<boolean> {
  return (await db.user.count()) > 0;
}

/**
 * A new one-time setup link while the installation has no user yet (null once it has one).
 * Each call replaces the previous link.
 */
export async function issueSetupLink(db: Db, baseUrl: string): Promise<{ url: string; expiresAt: Date } | null> {
  if (await hasAnyUser(db)) return null;
  const { secret, hash } = newSecret("vsetup_");
  const expiresAt = new Date(Date.now() + SETUP_LINK_LIFETIME_MS);
  const value = { hash, expiresAt: expiresAt.toISOString() };
  await db.instanceSetting.upsert({ where: { key: SETUP_TOKEN_KEY }, create: { key: SETUP_TOKEN_KEY, value }, update: { value } });
  return { url: `${baseUrl.replace(/\/$/, "")}/setup/${secret}`, expiresAt };
}

export type SetupLinkState = "valid" | "invalid" | "done";

/** What the setup page shows: the form, "this link is not valid", or "already set up". */
export async function setupLinkState(db: Db, token: string): Promise<SetupLinkState> {
  if (await hasAnyUser(db)) return "done";
  return (await storedSetupTokenMatches(db, token)) ? "valid" : "invalid";
}

/**
 * Creates the first owner from a valid setup link. They own every project that exists already
 * (the example data loaded on first start), and the link is used up — all in one transaction.
 */
export async function completeSetup(db: Db, token: string, account: TNewAccount) {
  // Judged and hashed before the transaction (auth/credentials.ts).
  const newAccount = await prepareNewAccount(account);
  return db.$transaction(async (tx) => {
    // One setup at a time: a second browser racing with the same link waits, then finds a user.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(72707370)`;
    if ((await tx.user.count()) > 0) throw new AppError("CONFLICT", "Versus is already set up; sign in instead");
    if (!(await storedSetupTokenMatches(tx, token))) {
      throw new AppError("NOT_FOUND", "This setup link is not valid or has expired; run `npx versus admin setup-link` for a new one");
    }
    const user = await createUserWithPassword(tx, newAccount);
    const projects = await tx.project.findMany({ select: { id: true } });
    if (projects.length) await tx.member.createMany({ data: projects.map((p) => ({ projectId: p.id, userId: user.id, role: "owner" as const })) });
    await tx.instanceSetting.delete({ where: { key: SETUP_TOKEN_KEY } });
    return { id: user.id, email: user.email, name: user.name };
  });
}

type SettingsReader = Pick<Db, "instanceSetting">;

async function storedSetupTokenMatches(db: SettingsReader, token: string): Promise<boolean> {
  const stored = await db.instanceSetting.findUnique({ where: { key: SETUP_TOKEN_KEY } });
  const value = stored?.value as { hash?: string; expiresAt?: string } | undefined;
  if (!value?.hash || !value.expiresAt || new Date(value.expiresAt).getTime() < Date.now()) return false;
  const given = Buffer.from(hashSecret(token), "hex");
  const expected = Buffer.from(value.hash, "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
