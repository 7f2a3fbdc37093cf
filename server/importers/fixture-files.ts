// Test support: the tool outputs under server/importers/fixtures/<format>/, found on disk at test
// time so that every importer's tests can feed every other format's fixtures (whichever exist)
// and expect a refusal. Only data files count; produce.sh and the sources that made them do not.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { ImportFormat } from "../schemas/import-formats";
import { importers } from "./index";

export const FIXTURES_DIR = path.join(import.meta.dirname, "fixtures");

const DATA_FILE = /\.(json|txt|csv|tsv|out|log)$/i;
const SKIPPED_DIRS = new Set(["target", "node_modules", ".git"]);

export interface FixtureFile {
  /** The folder under fixtures/, i.e. the format whose tool wrote it. */
  format: string;
  /** Path relative to fixtures/, e.g. "k6/summary.json". */
  relative: string;
  body: string;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : walk(full);
    return entry.isFile() && DATA_FILE.test(entry.name) ? [full] : [];
  });
}

export function fixtureFiles(): FixtureFile[] {
  if (!existsSync(FIXTURES_DIR)) return [];
  return walk(FIXTURES_DIR)
    .sort()
    .map((full) => {
      const relative = path.relative(FIXTURES_DIR, full).split(path.sep).join("/");
      return { format: relative.split("/")[0] ?? "", relative, body: readFileSync(full, "utf8") };
    });
}

/** Fixtures written by any tool other than `format`'s. */
export function foreignFixtures(format: string): FixtureFile[] {
  return fixtureFiles().filter((f) => f.format !== format);
}

export function readFixture(relative: string): string {
  return readFileSync(path.join(FIXTURES_DIR, relative), "utf8");
}

/** The fixtures their own format's importer reads (not a part of a bundle, like Criterion's estimates.json alone). */
export function readableFixtures(): FixtureFile[] {
  return fixtureFiles().filter((fixture) => {
    try {
      return importers[fixture.format as ImportFormat](fixture.body).benchmarks.length > 0;
    } catch {
      return false;
    }
  });
}
