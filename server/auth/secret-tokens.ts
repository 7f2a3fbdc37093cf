// The one way Versus makes a bearer secret (API keys, share links, invitations, agent enrollment
// tokens, the setup link): 256 bits from the OS CSPRNG, shown once, stored only as SHA-256.
// Random 256-bit secrets need no slow KDF; that protects low-entropy passwords.
import crypto from "node:crypto";

export function hashSecret(secret: string): string {
  return crypto.createHash("sha256").update(secret, "utf8").digest("hex");
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
