// Recognises database errors that are the caller's fault, so services can answer 409 instead of 500.
import { Prisma } from "./generated/client";

export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
