// The Content-Security-Policy and HSTS of pages, which proxy.ts sets on each page request: the
// policy carries a nonce that is new every time (Next.js reads it from the request's own
// Content-Security-Policy header and puts it on the scripts it emits), and HSTS depends on
// whether Versus is reached over https. Every other answer (API, downloads, Next's files) gets
// the fixed headers in next.config.js, which also gives every answer nosniff and a
// Referrer-Policy.

/** A year; without includeSubDomains, so other names under the same domain are not affected. */
export const HSTS = "max-age=31536000";

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
}

export function pageContentSecurityPolicy(nonce: string, options: { https: boolean; development: boolean }): string {
  return [
    "default-src 'self'",
    // 'strict-dynamic': scripts Next.js's nonce-carrying scripts load are trusted too. React's
    // development build evaluates code to rebuild call stacks, hence 'unsafe-eval' there only.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    // React and Recharts set style attributes; a nonce here would disable 'unsafe-inline'.
    "style-src 'self' 'unsafe-inline'",
    // Chart downloads draw the chart's SVG from a data: URL onto a canvas and save it as a blob.
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    // No page is meant to be framed, shared comparisons included: a link opens on its own.
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
}
