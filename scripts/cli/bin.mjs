#!/usr/bin/env node
// `versus` command entry: loads the TypeScript CLI through tsx (a project dependency).
import { register } from "tsx/esm/api";

register();
await import("./versus.ts");
