// CSRF protection for cookie-authenticated writes outside better-auth (tRPC mutations): a browser
// always says where a POST comes from (Sec-Fetch-Site, Origin); refuse it unless it is this site.
// Requests without a cookie carry no ambient authority, and clients without either header are not
// browsers (curl, the CLI), so neither can be a forged cross-site request.
import { publicOrigin, requestOrigin } from "../http/public-origin";

export function isCrossSiteWrite(request: { method: string; url: string; headers: Headers }): boolean {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return false;
  if (!request.headers.get("cookie")) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  // This site is where the request was sent, or where Versus says it is reached.
  const own = [requestOrigin(request.headers), publicOrigin(request.headers), new URL(request.url).origin];
  return !own.includes(origin);
}
