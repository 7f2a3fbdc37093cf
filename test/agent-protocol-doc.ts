// The JSON examples of docs/agent-protocol.md, for the tests that hold them to the server's schemas.
import fs from "node:fs";
import path from "node:path";

const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../docs/agent-protocol.md"), "utf8");

/** The ```json blocks of the section whose heading starts with `heading` (`level` "###" or "##"), in order. */
export function protocolDocExamples(heading: string, level: "##" | "###"): unknown[] {
  const start = doc.indexOf(`${level} ${heading}`);
  if (start < 0) throw new Error(`no section "${heading}" in docs/agent-protocol.md`);
  const end = doc.indexOf(`\n${level} `, start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```json\n([\s\S]*?)\n```/g)].map((match) => JSON.parse(match[1] as string));
}
