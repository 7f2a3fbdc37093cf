// Types of next.config.js for the TypeScript that imports it (scripts/lib/direct-routes.ts);
// the project does not type-check JavaScript files.
import type { NextConfig } from "next";

export const apiAnswerHeaders: { key: string; value: string }[];
declare const nextConfig: NextConfig;
export default nextConfig;
