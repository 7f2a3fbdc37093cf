// The one way Versus makes a bearer secret (API keys, share links, invitations, agent enrollment
// tokens, the setup link): 256 bits from the OS CSPRNG, shown once, stored only as SHA-256.
// Random 256-bit secrets need no slow KDF; that protects low-entropy passwords. Callers present
// them as `Authorization: Bearer <secret>`, read here too, saying plainly what is missing or
// malformed.
import crypto from "node:crypto";
import { AppError } from "../core/errors";

export function hashSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret, "utf8").digest("hex");
}

/** The secret of a Bearer header; `what` names the expected secret in the error ("project API key"). */
export function bearerSecret(authorization: string | null, what: string): string {
  if (!authorization) throw new AppError("UNAUTHORIZED", `Missing Authorization header: send \`Authorization: Bearer <${what}>\``);
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!match?.[1]) throw new AppError("UNAUTHORIZED", `Malformed Authorization header: expected \`Bearer <${what}>\``);
  return match[1];
}

/** A Bearer header's secret and its hash (what the database keeps, so what a look-up compares). */
export function presentedSecret(authorization: string | null, what: string): { secret: string; hash: string } {
  const secret = bearerSecret(authorization, what);
  return { secret, hash: hashSecret(secret) };
}

export interface NewSecret {
  /** The whole secret: give it to the user once, never store it. */
  secret: string;
  /** Its first characters, safe to list so people can tell their secrets apart. */
  prefix: string;
  /** What the database keeps. */
  hash: string;
}

/** `kind` is a short readable tag ("vs_", "vsh_") that says what the secret is for. */
export function newSecret(kind: string): NewSecret {
  const secret = kind + crypto.randomBytes(32).toString("base64url");
  return { secret, prefix: secret.slice(0, kind.length + 6), hash: hashSecret(secret) };
}

export type SecretStatus = "active" | "expired" | "revoked";

/** Where a revocable, expiring secret stands. Revocation is final, so it outranks expiry. */
export function secretStatus(secret: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): SecretStatus {
  if (secret.revokedAt) return "revoked";
  if (secret.expiresAt && secret.expiresAt.getTime() <= now.getTime()) return "expired";
  return "active";
}
