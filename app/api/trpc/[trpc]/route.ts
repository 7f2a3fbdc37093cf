import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "~/server/api/root";
import { routeMethods } from "~/server/api/route-methods";
import { createTRPCContext, responseMeta } from "~/server/api/trpc";
import { isCrossSiteWrite } from "~/server/auth/same-origin";

const handler = (req: Request) => {
  // Mutations ride on the session cookie: refuse ones another site's page sent (CSRF).
  if (isCrossSiteWrite(req)) {
    return Response.json({ error: { message: "Cross-site request refused", code: "FORBIDDEN" } }, { status: 403 });
  }
  return fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: () => createTRPCContext({ headers: req.headers }),
    responseMeta,
    onError({ error, path }) {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path ?? "?"} failed:`, error.cause ?? error);
    },
  });
};

export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ GET: handler, POST: handler });
