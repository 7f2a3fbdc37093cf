// Reads `Authorization: Bearer <secret>`, saying plainly what is missing or malformed.
import { AppError } from "../core/errors";

/** The secret of a Bearer header; `what` names the expected secret in the error ("project API key"). */
export function bearerSecret(authorization: string | null, what: string): string {
  if (!authorization) throw new AppError("UNAUTHORIZED", `Missing Authorization header: send \`Authorization: Bearer <${what}>\``);
  const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
  if (!match?.[1]) throw new AppError("UNAUTHORIZED", `Malformed Authorization header: expected \`Bearer <${what}>\``);
  return match[1];
}
