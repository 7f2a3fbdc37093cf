// The byte offset an invalid-UTF-8 refusal names is where the bad sequence starts, for each way
// UTF-8 breaks: a stray continuation byte, a sequence cut short (mid-body or at the end), an
// overlong form, an encoded surrogate, a byte that never occurs in UTF-8.
import { describe, expect, it } from "vitest";
import { AppError } from "../../core/errors";
import { decodeUtf8, invalidUtf8Offset } from "./body";

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : Buffer.from(part))));

describe("invalidUtf8Offset", () => {
  it.each([
    ["a stray continuation byte", bytes("abc", [0x80], "def"), 3],
    ["a stray continuation byte right after a complete é", bytes("ab", [0xc3, 0xa9, 0x80]), 4],
    ["a two-byte sequence whose second byte is ASCII", bytes("x", [0xc3, 0x28], "y"), 1],
    ["a three-byte sequence cut short mid-body", bytes("fa", [0xe2, 0x82], "st"), 2],
    ["a four-byte sequence cut short at the very end", bytes("ok ", [0xf0, 0x9f, 0x98]), 3],
    ["an overlong encoding of '/'", bytes("a", [0xc0, 0xaf]), 1],
    ["an overlong three-byte form", bytes("ab", [0xe0, 0x80, 0xaf]), 2],
    ["an encoded UTF-16 surrogate", bytes("€", [0xed, 0xa0, 0x80]), 3],
    ["a byte that never occurs in UTF-8", bytes("ok", [0xff]), 2],
  ])("%s", (_, body, offset) => {
    expect(invalidUtf8Offset(body)).toBe(offset);
  });
});

describe("decodeUtf8", () => {
  it("decodes valid UTF-8, multi-byte characters included, and drops a leading byte order mark", () => {
    expect(decodeUtf8(bytes([0xef, 0xbb, 0xbf], "naïve 😀 €"))).toBe("naïve 😀 €");
  });

  it("refuses invalid UTF-8 with a 400 naming the byte offset and the bytes there", () => {
    const error = (() => {
      try {
        decodeUtf8(bytes("variant,", [0xe2, 0x82], "x"));
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).httpStatus).toBe(400);
    expect((error as AppError).message).toBe("The body is not valid UTF-8: the bad byte sequence starts at byte offset 8 (0xE2 82 78)");
  });
});
