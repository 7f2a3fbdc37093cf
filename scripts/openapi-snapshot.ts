// `npm run openapi:snapshot`: writes docs/openapi.json, the OpenAPI document the server generates
// from its Zod schemas (see lib/openapi-snapshot.ts). Run it after changing a REST operation or a
// schema it uses, commit the file, then run the agents' tests: their conformance tests check each
// agent against it.
import fs from "node:fs";
import path from "node:path";
import { openApiSnapshotPath, openApiSnapshotText } from "./lib/openapi-snapshot";

fs.writeFileSync(openApiSnapshotPath, openApiSnapshotText());
console.log(`wrote ${path.relative(process.cwd(), openApiSnapshotPath)}`);
