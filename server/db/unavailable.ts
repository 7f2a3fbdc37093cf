// Recognises the errors that mean "the database cannot be reached right now" — PostgreSQL is
// restarting, shutting down, crashed, full, closed to connections, or the network to it is down —
// as opposed to a bug or bad input. They are the caller's cue to retry later: the REST API answers them 503 with
// Retry-After (server/api/rest/handler.ts), tRPC SERVICE_UNAVAILABLE (server/api/trpc.ts).
// One place, because they come in many shapes (checked by server/db/unavailable.int.test.ts,
// which provokes them): Prisma's own errors (P1001…) carrying the driver adapter's error kind in
// `meta.driverAdapterError`, the adapter's DriverAdapterError, and node-postgres's errors as
// they are when a statement runs on the pool directly (server/db/prepared-statements.ts) or a
// transaction's connection dies: socket codes, SQLSTATEs, and a few messages without any code.

import { AppError } from "../core/errors";
import { noteDatabaseUnavailable } from "./outage-notes";
import { DATABASE_RETRY_AFTER_SECONDS } from "./retry-after";

export { DATABASE_RETRY_AFTER_SECONDS };

/** What a caller is told when `cause` is isDatabaseUnavailable: the 503 to retry (the cause stays in the server's log). */
export function databaseUnavailableError(cause: unknown): AppError {
  console.warn(`database unavailable, answered 503: ${unavailableReason(cause)}`);
  noteDatabaseUnavailable();
  return new AppError(
    "UNAVAILABLE",
    `The database is unavailable right now (restarting, refusing connections or unreachable); retry in ${DATABASE_RETRY_AFTER_SECONDS} seconds`,
    { cause },
  );
}

/**
 * Why the database could not be reached, in one line: the last line of the error's message
 * (Prisma's begin with the invocation, "\nInvalid `…` invocation:", and end with the reason).
 */
export function unavailableReason(cause: unknown): string {
  return cause instanceof Error ? (cause.message.trim().split("\n").pop() ?? "") : String(cause);
}

// Prisma: can't reach the server, timed out reaching it, the server closed the connection,
// timed out waiting for a connection from the pool.
const prismaCodes = new Set(["P1001", "P1002", "P1017", "P2024"]);
// @prisma/adapter-pg's kinds for socket errors and a full server.
const adapterKinds = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
// Node's socket errors: refused, reset, timed out, broken pipe, no route, name not resolved.
const socketCodes = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// Connecting to a Unix-domain socket that is not there: PostgreSQL removes its socket when it
// stops, so a DATABASE_URL that names the socket's folder (?host=/var/run/postgresql) gets this.
const NO_SOCKET = "ENOENT";
// PostgreSQL: admin_shutdown, crash_shutdown, cannot_connect_now (starting up or shutting down),
// too_many_connections; and class 08, connection exceptions.
const sqlStates = new Set(["57P01", "57P02", "57P03", "53300"]);
// object_not_in_prerequisite_state is also "database … is not currently accepting connections"
// (ALTER DATABASE … ALLOW_CONNECTIONS false), refused while connecting: FATAL, the session never
// began. As an ERROR it is a statement's own fault (currval before nextval) and not an outage.
const NOT_ACCEPTING_CONNECTIONS = "55000";
// node-postgres says these without a code: the connection ended under a query or a transaction,
// or the pool's connectionTimeoutMillis passed.
const driverMessages = [/^Connection terminated/, /has encountered a connection error and is not queryable/, /^timeout exceeded when trying to connect/];

/**
 * Whether the database is unavailable, asked of the database itself: for an error that lost its
 * cause on the way (better-auth answers a failed session lookup with "Failed to get session").
 */
export async function databaseIsUnavailable(db: { $queryRaw: (query: TemplateStringsArray) => Promise<unknown> }): Promise<boolean> {
  try {
    await db.$queryRaw`SELECT 1`;
    return false;
  } catch (error) {
    return isDatabaseUnavailable(error);
  }
}

type Inspectable = {
  code?: unknown;
  syscall?: unknown;
  errorCode?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  severity?: unknown;
  routine?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
};

export function isDatabaseUnavailable(error: unknown): boolean {
  // The error, what it wraps (cause, Prisma's driverAdapterError and its cause), a few levels down.
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0 && seen.size < 10) {
    const value = pending.pop();
    if (value === null || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    if (looksUnavailable(value as Inspectable)) return true;
    const { cause, meta } = value as Inspectable;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}

function looksUnavailable(value: Inspectable): boolean {
  const codes = [value.code, value.errorCode, value.originalCode].filter((code): code is string => typeof code === "string");
  if (codes.some((code) => prismaCodes.has(code) || socketCodes.has(code) || sqlStates.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (codes.includes(NOT_ACCEPTING_CONNECTIONS) && refusedConnecting(value)) return true;
  // Prisma passes the code on without the syscall, which its message still names.
  if (codes.includes(NO_SOCKET) && (value.syscall === "connect" || (typeof value.message === "string" && value.message.includes(`connect ${NO_SOCKET}`))))
    return true;
  if (typeof value.kind === "string" && adapterKinds.has(value.kind)) return true;
  return typeof value.message === "string" && driverMessages.some((pattern) => pattern.test(value.message as string));
}

/**
 * A 55000 refused while connecting: FATAL (the severity reads so in the languages PostgreSQL
 * translates to, the message only in English), raised where PostgreSQL checks a database's
 * connection flags, or saying so.
 */
function refusedConnecting(value: Inspectable): boolean {
  return (
    value.severity === "FATAL" ||
    value.routine === "CheckMyDatabase" ||
    (typeof value.message === "string" && /is not currently accepting connections/.test(value.message))
  );
}
