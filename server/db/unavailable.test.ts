// The shapes of "database unavailable" that the integration test cannot provoke on demand
// (PostgreSQL starting up, a connection cut by the network, a full server), as node-postgres,
// the Prisma driver adapter and Prisma build them; and look-alikes that are not outages.
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./unavailable";

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: "FATAL" });
const prismaError = (code: string, cause?: object) =>
  Object.assign(new Error(`Invalid invocation ${code}`), {
    name: "PrismaClientKnownRequestError",
    code,
    meta: cause ? { driverAdapterError: { name: "DriverAdapterError", cause } } : {},
  });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["57P03 the database system is starting up", pgError("57P03", "the database system is starting up")],
    ["57P02 crash shutdown", pgError("57P02", "terminating connection because of crash of another server process")],
    ["08006 connection failure", pgError("08006", "connection failure")],
    ["53300 too many connections", pgError("53300", "sorry, too many clients already")],
    ["a reset socket", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET", syscall: "read", errno: -104 })],
    // PostgreSQL, reached through its Unix-domain socket, stopped: the socket is gone (node-postgres, then a Prisma model query passing it on).
    ["no socket to connect to", Object.assign(new Error("connect ENOENT /tmp/.s.PGSQL.54320"), { code: "ENOENT", syscall: "connect", errno: -2 })],
    [
      "no socket, under a model query",
      Object.assign(new Error("Invalid `db.project.findMany()` invocation:\n\nconnect ENOENT /tmp/.s.PGSQL.54320"), { code: "ENOENT" }),
    ],
    ["node-postgres: connection terminated", new Error("Connection terminated unexpectedly")],
    ["node-postgres: a dead transaction's client", new Error("Client has encountered a connection error and is not queryable")],
    ["node-postgres: pool connect timeout", new Error("timeout exceeded when trying to connect")],
    ["Prisma P1017 server closed the connection", prismaError("P1017")],
    ["Prisma P2024 pool timeout", prismaError("P2024")],
    ["adapter ConnectionClosed under P2010", prismaError("P2010", { kind: "ConnectionClosed" })],
    ["adapter 57P03 under a model query", prismaError("P2036", { kind: "postgres", code: "57P03", originalCode: "57P03" })],
    ["wrapped as a cause", new Error("storing the run failed", { cause: new Error("Connection terminated unexpectedly") })],
    // ALTER DATABASE … ALLOW_CONNECTIONS false: as node-postgres and the adapter gave them (a real server).
    [
      "55000 database not accepting connections, on the pool",
      Object.assign(pgError("55000", 'database "versus" is not currently accepting connections'), { routine: "CheckMyDatabase", file: "postinit.c" }),
    ],
    [
      "55000 under a model query",
      prismaError("P2039", {
        originalCode: "55000",
        originalMessage: 'database "versus" is not currently accepting connections',
        kind: "postgres",
        code: "55000",
        severity: "FATAL",
        message: 'database "versus" is not currently accepting connections',
      }),
    ],
    [
      "55000 under a raw query",
      prismaError("P2010", {
        originalCode: "55000",
        kind: "postgres",
        code: "55000",
        severity: "FATAL",
        message: 'database "versus" is not currently accepting connections',
      }),
    ],
    [
      "55000 in another language (FATAL: only connecting ends a session with it)",
      prismaError("P2039", { kind: "postgres", code: "55000", severity: "FATAL", message: "la base de données « versus » n'accepte plus les connexions" }),
    ],
    [
      "57P03 shutting down (smart shutdown), under a model query",
      prismaError("P2039", { originalCode: "57P03", kind: "postgres", code: "57P03", severity: "FATAL", message: "the database system is shutting down" }),
    ],
    [
      "53300 under a model query",
      prismaError("P2037", {
        originalCode: "53300",
        originalMessage: "sorry, too many clients already",
        kind: "TooManyConnections",
        cause: "sorry, too many clients already",
      }),
    ],
  ])("%s → unavailable", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", prismaError("P2002")],
    ["a raw query's syntax error", prismaError("P2010", { kind: "postgres", code: "42601" })],
    ["a division by zero", pgError("22012", "division by zero")],
    // Other object_not_in_prerequisite_state errors are the statement's own fault.
    [
      "55000 currval before nextval",
      Object.assign(new Error('currval of sequence "s" is not yet defined in this session'), { code: "55000", severity: "ERROR", routine: "currval_oid" }),
    ],
    [
      "55000 under a raw query, not about connecting",
      prismaError("P2010", { kind: "postgres", code: "55000", severity: "ERROR", message: 'currval of sequence "s" is not yet defined in this session' }),
    ],
    ["an ordinary error", new Error("Connection string is malformed")],
    ["a file that is not there", Object.assign(new Error("ENOENT: no such file or directory, open 'results.json'"), { code: "ENOENT", syscall: "open" })],
    [
      "an error whose cause refers to itself",
      (() => {
        const error: Error & { cause?: unknown } = new Error("loop");
        error.cause = error;
        return error;
      })(),
    ],
    ["null", null],
  ])("%s → not unavailable", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
