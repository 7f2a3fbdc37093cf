// Statements that run on every agent call (authenticating the agent, claiming, completing) are
// long and their planning cost more PostgreSQL time than running them. Marked with
// `preparedStatement`, they become named prepared statements: parsed and planned once per
// connection instead of on every call. Only marked ones, as a named statement stays prepared for
// the connection's lifetime and Prisma's own queries come in too many shapes for that.
import crypto from "node:crypto";
import { Prisma } from "./generated/client";

const MARK = "/* prepared */";

/** The first fragment of a statement to prepare: db.$queryRaw`${preparedStatement} SELECT …`. */
export const preparedStatement = Prisma.raw(MARK);

/**
 * The adapter's statement name for a query: the text's hash for a marked one (so two texts never
 * share a name), none (an unnamed statement) otherwise.
 */
export function statementName(query: { sql: string }): string {
  return query.sql.startsWith(MARK) ? `v_${crypto.createHash("sha1").update(query.sql).digest("base64url")}` : "";
}
