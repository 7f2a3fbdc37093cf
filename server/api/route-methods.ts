// Every route handler module exports all the methods Next.js routes to it, so that a method the
// route does not implement gets 405 with an Allow header and the API's error body (Next.js's own
// 405 has neither), OPTIONS lists the methods, and HEAD is GET without the body.
import { AppError } from "../core/errors";

/** The methods Next.js dispatches to a route handler module; it answers any other one itself. */
export const routeMethodNames = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"] as const;
export type RouteMethod = (typeof routeMethodNames)[number];

type Handler<Context> = (req: Request, context: Context) => Response | Promise<Response>;
/** What the module exports; without route parameters, callers (tests) may leave the context out. */
type Exported<Context> = unknown extends Context
  ? (req: Request, context?: Context) => Promise<Response>
  : (req: Request, context: Context) => Promise<Response>;

/**
 * The module's exports: `handlers` as given, plus HEAD (GET's answer) when GET is given, OPTIONS
 * (204 with Allow), and 405 with Allow for every other method.
 *
 *     export const { GET, HEAD, OPTIONS, POST, PUT, DELETE, PATCH } = routeMethods({ GET: handler });
 */
export function routeMethods<Context = unknown>(handlers: Partial<Record<RouteMethod, Handler<Context>>>): Record<RouteMethod, Exported<Context>> {
  const implemented: Partial<Record<RouteMethod, Handler<Context>>> = { ...handlers };
  if (implemented.GET && !implemented.HEAD) implemented.HEAD = implemented.GET;
  const allow = routeMethodNames.filter((method) => implemented[method] || method === "OPTIONS").join(", ");
  implemented.OPTIONS ??= () => new Response(null, { status: 204, headers: { Allow: allow } });
  const notAllowed = (req: Request) => methodNotAllowed(req.method, allow);
  const exported = (method: RouteMethod) => {
    const handler = implemented[method] ?? notAllowed;
    return async (req: Request, context: Context) => handler(req, context);
  };
  return Object.fromEntries(routeMethodNames.map((method) => [method, exported(method)])) as Record<RouteMethod, Exported<Context>>;
}

/** 405 with Allow and the API's error body; also what the server in front of Next.js answers (scripts/lib/method-guard.ts). */
export function methodNotAllowed(method: string, allow: string): Response {
  const error = new AppError("METHOD_NOT_ALLOWED", `${method} is not allowed here; this route answers ${allow}`);
  return Response.json(error.toJSON(), { status: error.httpStatus, headers: { Allow: allow } });
}
