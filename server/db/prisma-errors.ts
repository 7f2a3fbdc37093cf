// Recognises database errors that are the caller's fault, so services can answer 409 instead of 500.
import pg from "pg";
import { Prisma } from "./generated/client";

/** A unique constraint refused a row: Prisma's P2002, or SQLSTATE 23505 from node-postgres (statements run on the pool). */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) return error.code === "P2002";
  return error instanceof pg.DatabaseError && error.code === "23505";
}
