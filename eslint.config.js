// ESLint flat config: Next.js core-web-vitals + TypeScript rules, plus the house layering rules.
import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import boundaries from "eslint-plugin-boundaries";

// server/'s feature folders and top-level files in layers, top to bottom: each may import itself
// and what lies below it, never what lies above or beside it, so no folder can come to import one
// that imports it (docs/architecture.md, "Layers and their rules").
const serverLayers = [
  ["api"],
  ["background", "examples"],
  ["regressions"],
  ["reports", "history"],
  ["comparison", "experiments"],
  ["agents"],
  ["projects", "runs", "workloads"],
  // Pure parsers of tools' output, which runs/ingest-import.ts stores.
  ["importers"],
  ["auth", "access"],
  ["http"],
  ["db", "schemas", "display"],
  ["stats"],
  ["core"],
];
const serverElements = serverLayers.flat().map((name) => ({ type: name, pattern: `server/${name}` }));
const serverPolicies = serverLayers.flatMap((layer, index) =>
  layer.map((name) => ({
    from: { element: { type: name } },
    allow: { to: { element: { types: { anyOf: [name, ...serverLayers.slice(index + 1).flat()] } } } },
  })),
);

const noFramework = { group: ["react", "react-dom", "next", "next/*", "@tanstack/*"], message: "server/ never imports React or Next." };

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".data/**",
    "node_modules/**",
    "server/db/generated/**",
    "agents/go/**",
    "agents/jvm/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
  ]),
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
    // server/'s folders import only downwards (serverLayers); tests may reach anywhere for fixtures.
    files: ["server/**/*.ts"],
    ignores: ["**/*.test.ts"],
    plugins: { boundaries },
    settings: { "boundaries/elements": serverElements },
    rules: { "boundaries/dependencies": ["error", { default: "disallow", policies: serverPolicies }] },
  },
  {
    // docs/architecture.md (layers): pages and components never touch the database or compute statistics.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["~/server/db/*", "**/server/db/*", "@prisma/*", "pg"],
              message: "app/ and components/ go through tRPC or a service, never the database.",
              allowTypeImports: true,
            },
            { group: ["~/server/stats/*", "**/server/stats/*"], message: "Statistics are computed in server/, not in the UI.", allowTypeImports: true },
          ],
        },
      ],
    },
  },
]);
