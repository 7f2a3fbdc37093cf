// ESLint flat config: Next.js core-web-vitals + TypeScript rules, plus the house layering rules.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

const noFramework = { group: ["react", "react-dom", "next", "next/*", "@tanstack/*"], message: "server/ never imports React or Next." };

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([".next/**", ".data/**", "node_modules/**", "server/db/generated/**", "agents/go/**", "agents/jvm/**", "test-results/**", "playwright-report/**", "next-env.d.ts"]),
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // docs/architecture.md (layers): server/ is framework-free domain code.
    files: ["server/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [noFramework] }],
    },
  },
  {
    // Schemas are what every layer (tRPC, REST, forms, the CLI) shares, so they import no layer.
    files: ["server/schemas/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            noFramework,
            { group: ["../importers", "../importers/*", "../services/*", "../db/*", "../api/*", "../ingest/*", "../auth/*"], message: "server/schemas/ imports no layer above it." },
          ],
        },
      ],
    },
  },
  {
    // docs/architecture.md (layers): pages and components never touch the database or compute statistics.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["~/server/db/*", "**/server/db/*", "@prisma/*", "pg"], message: "app/ and components/ go through tRPC or a service, never the database.", allowTypeImports: true },
            { group: ["~/server/stats/*", "**/server/stats/*"], message: "Statistics are computed in server/, not in the UI.", allowTypeImports: true },
          ],
        },
      ],
    },
  },
]);
