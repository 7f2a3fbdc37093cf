// better-auth's endpoints: sign-in, sign-out, session.
import { toNextJsHandler } from "better-auth/next-js";
import { routeMethods } from "~/server/api/route-methods";
import { auth } from "~/server/auth/auth";

const { GET: get, POST: post } = toNextJsHandler(auth);
export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ GET: get, POST: post });
