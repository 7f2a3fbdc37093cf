// Every relative link in the README and docs/*.md points at a file that exists, and a link to a
// heading (`page.md#heading`) at a heading that page has. The README is a short front page that
// links into docs/, and the pages link to each other: a page renamed or a heading reworded must
// not leave a dead link behind. Headings' anchors are GitHub's (github-slugger), as the pages
// are read on GitHub.
import fs from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString } from "mdast-util-to-string";
import { visit } from "unist-util-visit";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const pages = [
  "README.md",
  ...fs
    .readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

interface Link {
  url: string;
  line: number;
}

function parse(file: string) {
  return fromMarkdown(fs.readFileSync(path.join(root, file), "utf8"));
}

/** Links, images and link definitions (`[x]: url`) of a Markdown file, outside code. */
function linksOf(markdown: ReturnType<typeof fromMarkdown>): Link[] {
  const links: Link[] = [];
  visit(markdown, (node) => {
    if (node.type === "link" || node.type === "image" || node.type === "definition") links.push({ url: node.url, line: node.position?.start.line ?? 0 });
  });
  return links;
}

/** The anchors GitHub gives a page's headings, in order (a repeated heading gets -1, -2, …). */
function anchorsOf(markdown: ReturnType<typeof fromMarkdown>): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  visit(markdown, "heading", (heading) => {
    anchors.add(slugger.slug(toString(heading)));
  });
  return anchors;
}

const external = /^[a-z][a-z0-9+.-]*:/i;

/** What is wrong with one link of `from` (a path from the repository root), or null. */
function problemOf(from: string, url: string): string | null {
  if (external.test(url)) return null;
  const [target, anchor] = url.split("#", 2) as [string, string | undefined];
  const file = target === "" ? from : path.posix.normalize(path.posix.join(path.posix.dirname(from), decodeURIComponent(target)));
  if (file.startsWith("../") || path.isAbsolute(file)) return `${url}: points outside the repository`;
  const absolute = path.join(root, file);
  if (!fs.existsSync(absolute)) return `${url}: ${file} does not exist`;
  if (anchor === undefined || !file.endsWith(".md")) return null;
  const anchors = anchorsOf(parse(file));
  if (!anchors.has(decodeURIComponent(anchor))) return `${url}: ${file} has no heading #${anchor} (its anchors: ${[...anchors].join(", ")})`;
  return null;
}

describe("links in the README and docs/", () => {
  it("reads links, images and definitions, not code", () => {
    const markdown = fromMarkdown(
      ["# A `b` c: d/e.ts", "[x](y.md#z) ![i](p.png) `[not](a link)`", "", "```", "[nor](this)", "```", "", "[r]: r.md"].join("\n"),
    );
    expect(linksOf(markdown).map((link) => link.url)).toEqual(["y.md#z", "p.png", "r.md"]);
    expect([...anchorsOf(markdown)]).toEqual(["a-b-c-dets"]);
  });

  it("finds a missing file and a missing heading", () => {
    expect(problemOf("README.md", "docs/no-such-page.md")).toMatch(/does not exist/);
    expect(problemOf("docs/security.md", "../README.md#no-such-heading")).toMatch(/README.md has no heading #no-such-heading/);
    expect(problemOf("README.md", "#no-such-heading")).toMatch(/has no heading/);
    expect(problemOf("README.md", "../outside.md")).toMatch(/outside the repository/);
    expect(problemOf("README.md", "https://example.com/anything")).toBeNull();
  });

  // The longest pages (agent-protocol.md) take seconds to parse and check on a loaded 2-core machine.
  it.each(pages)(
    "%s: every relative link resolves",
    (page) => {
      const links = linksOf(parse(page));
      const problems = links.flatMap((link) => {
        const problem = problemOf(page, link.url);
        return problem ? [`${page}:${link.line}: ${problem}`] : [];
      });
      expect(problems).toEqual([]);
    },
    30_000,
  );

  it("docs/README.md, the index, links to every page in docs/", () => {
    const linked = new Set(linksOf(parse("docs/README.md")).map((link) => path.posix.normalize(path.posix.join("docs", link.url.split("#")[0] ?? ""))));
    const unlisted = pages.filter((page) => page.startsWith("docs/") && page !== "docs/README.md" && !linked.has(page));
    expect(unlisted).toEqual([]);
  });
});
