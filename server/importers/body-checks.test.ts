// The JSON reading every JSON importer shares: messages that say where, name a bare NaN or
// Infinity, call a document that stops mid-value truncated, and refuse numbers beyond float64.
import { describe, expect, it } from "vitest";
import { lineAndColumn, parseJsonText } from "./body-checks";

const refusal = (text: string) => {
  try {
    parseJsonText("tool", text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("accepted");
};

describe("parseJsonText", () => {
  it("reads JSON", () => expect(parseJsonText("tool", '{"a": [1, 2.5]}')).toEqual({ a: [1, 2.5] }));

  it.each([
    ["a bare NaN", '{"a": [1,\n  NaN]}', /^Not valid tool output: malformed JSON: NaN at line 2, column 3: JSON has no NaN or Infinity/],
    ["a bare -Infinity", '{"a": -Infinity}', /-Infinity at line 1, column 7/],
    ["a document cut mid-number", '{"a": [1, 2', /ends in the middle of a value \(line 1, column 12\): the file looks truncated/],
    ["a document cut mid-string", '{"a": "tex', /the file looks truncated/],
    ["a document cut after a comma", '{"a": 1,', /the file looks truncated/],
    ["a broken document", '{"a" 1}', /malformed JSON: Expected ':' after property name at line 1, column 6$/],
    ["1e400, which JSON.parse reads as Infinity", '{"a": {"b": [0, 1e400]}}', /a\.b\.1: a number beyond the range of a 64-bit float/],
  ])("refuses %s, saying so", (_what, text, message) => {
    expect(refusal(text)).toMatch(message);
  });
});

describe("lineAndColumn", () => {
  it("counts both from 1", () => {
    expect(lineAndColumn("ab\ncd", 0)).toBe("line 1, column 1");
    expect(lineAndColumn("ab\ncd", 4)).toBe("line 2, column 2");
  });
});
