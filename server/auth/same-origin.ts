// CSRF protection for cookie-authenticated writes outside better-auth (tRPC mutations): a browser
// always says where a POST comes from (Sec-Fetch-Site, Origin); refuse it unless it is this site.
// Requests without a cookie carry no ambient authority, and clients without either header are not
// browsers (curl, the CLI), so neither can be a forged cross-site request.

export function isCrossSiteWrite(request: { method: string; url: string; headers: Headers }, publicUrl?: string): boolean {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return false;
  if (!request.headers.get("cookie")) return false;
  const fetchSite = request.headers.get("sec-fetch-site");
  if (fetchSite) return fetchSite !== "same-origin" && fetchSite !== "none";
  const origin = request.headers.get("origin");
  if (!origin) return false;
  return !ownOrigins(request, publicUrl).includes(origin);
}

function ownOrigins(request: { url: string; headers: Headers }, publicUrl?: string): string[] {
  const url = new URL(request.url);
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host") ?? url.host;
  const proto = request.headers.get("x-forwarded-proto") ?? url.protocol.replace(/:$/, "");
  const origins = [`${proto}://${host}`, url.origin];
  if (publicUrl) origins.push(new URL(publicUrl).origin);
  return origins;
}
