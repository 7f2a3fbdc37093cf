// better-auth's endpoints: sign-in, sign-out, session (503 with Retry-After while the database is away).
import { toNextJsHandler } from "better-auth/next-js";
import { routeMethods } from "~/server/api/route-methods";
import { auth } from "~/server/auth/auth";
import { answeringDatabaseOutages } from "~/server/auth/outage-answer";

const { GET: get, POST: post } = toNextJsHandler(auth);
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ GET: answeringDatabaseOutages(get), POST: answeringDatabaseOutages(post) });
