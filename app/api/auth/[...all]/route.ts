// better-auth's endpoints: sign-in, sign-out, session.
import { toNextJsHandler } from "better-auth/next-js";
import { auth } from "~/server/auth/auth";

export const { GET, POST } = toNextJsHandler(auth);
