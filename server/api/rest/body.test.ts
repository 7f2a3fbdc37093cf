// readBody refuses a body over the limit — from Content-Length before reading anything, or as
// soon as a streamed body (no Content-Length) passes the limit, without reading the rest.
import { describe, expect, it } from "vitest";
import { AppError } from "../../core/errors";
import { MAX_INPUT_DEPTH, refuseDeepJson } from "../../schemas/storable";
import { withBodyBeside } from "./bodies-beside";
import { formatBytes, parseJson, readBody } from "./body";

/** A body stream of `chunks` chunks of `size` bytes; records how many chunks were pulled. */
function chunkedStream(chunks: number, size: number) {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.pulled === chunks) return controller.close();
        state.pulled++;
        controller.enqueue(new Uint8Array(size).fill(0x61));
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

const streamed = (stream: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
  new Request("http://test.local/api/v1/results", { method: "POST", headers, body: stream, duplex: "half" } as RequestInit);

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("readBody", () => {
  it("reads a body under the limit whole", async () => {
    const { stream } = chunkedStream(4, 100);
    const bytes = await readBody(streamed(stream), 1000);
    expect(bytes.length).toBe(400);
    expect(bytes.toString()).toBe("a".repeat(400));
  });

  it("a body the client stopped sending (Node's ECONNRESET \"aborted\") is the request's failure, not the database's: 400, never 503", async () => {
    const aborted = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"runs": ['));
        controller.error(aborted);
      },
    });
    const error = await refusal(readBody(streamed(stream), 1000));
    expect(error.code).toBe("BAD_REQUEST");
    expect(error.message).toMatch(/client closed the connection/);
    expect(error.httpStatus).toBe(400); // an AppError: errorResponse answers it before asking whether the database is away
  });

  it("takes a body read ahead beside the Request (the server in front's) as it is, and refuses one over the limit", async () => {
    const bytes = Buffer.from('{"runs": []}');
    const request = () => new Request("http://test.local/api/v1/results", { method: "POST" });
    expect(await readBody(withBodyBeside(request(), bytes), 1000)).toBe(bytes);
    const error = await refusal(readBody(withBodyBeside(request(), Buffer.alloc(1025)), 1024));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    // A Request of the bridge's without a body beside it has none.
    expect((await readBody(request(), 1000)).length).toBe(0);
  });

  it("accepts a body of exactly the limit", async () => {
    const { stream } = chunkedStream(10, 100);
    expect((await readBody(streamed(stream), 1000)).length).toBe(1000);
  });

  it("refuses a streamed body over the limit as soon as it passes it, and cancels the stream", async () => {
    // 1,000 chunks of 100 bytes (100 KB) against a 1 KB limit, with no Content-Length.
    const { stream, state } = chunkedStream(1000, 100);
    const error = await refusal(readBody(streamed(stream), 1024));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(error.httpStatus).toBe(413);
    expect(error.message).toBe("Request body is larger than the limit of 1 KB (VERSUS_MAX_BODY_BYTES)");
    // 11 chunks pass 1,024 bytes; a few more may sit in the pipe, but never the whole body.
    expect(state.pulled).toBeLessThan(20);
    expect(state.cancelled).toBe(true);
  });

  it("refuses from Content-Length before reading any of the body", async () => {
    const { stream, state } = chunkedStream(1, 10);
    const error = await refusal(readBody(streamed(stream, { "content-length": "5000" }), 1024));
    expect(error.code).toBe("PAYLOAD_TOO_LARGE");
    expect(state.pulled).toBe(0);
  });

  it("does not trust a small Content-Length over a larger stream", async () => {
    const { stream } = chunkedStream(50, 100);
    const request = streamed(stream, { "content-length": "10" });
    // Undici may drop or keep the header on a stream body; either way the limit holds.
    expect((await refusal(readBody(request, 1024))).code).toBe("PAYLOAD_TOO_LARGE");
  });

  it("returns an empty buffer for a request without a body", async () => {
    expect((await readBody(new Request("http://test.local/", { method: "POST" }), 10)).length).toBe(0);
  });

  it("names the 64 MB default limit in megabytes", () => {
    expect(formatBytes(64 * 1024 * 1024)).toBe("64 MB");
    expect(formatBytes(1536)).toBe("1.5 KB");
    expect(formatBytes(12)).toBe("12 B");
  });
});

describe("parseJson", () => {
  it("parses a JSON document", () => {
    expect(parseJson(Buffer.from('{"a": [1, 2]}'))).toEqual({ a: [1, 2] });
  });

  it("refuses an empty body", () => {
    expect(() => parseJson(Buffer.alloc(0))).toThrow("Request body is empty: expected a JSON document");
  });

  it("refuses malformed JSON, NaN and bare Infinity with a 400 naming JSON", () => {
    for (const text of ['{"a": ', '{"a": NaN}', '{"a": Infinity}', "{'a': 1}"]) {
      let error: unknown;
      try {
        parseJson(Buffer.from(text));
      } catch (e) {
        error = e;
      }
      expect(error, text).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("BAD_REQUEST");
      expect((error as AppError).message).toMatch(/^Malformed JSON: /);
    }
  });
});

describe("refuseDeepJson", () => {
  const deep = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

  it(`accepts ${MAX_INPUT_DEPTH} levels and refuses one more, before parsing, naming the limit`, () => {
    expect(() => refuseDeepJson(deep(MAX_INPUT_DEPTH))).not.toThrow();
    expect(() => refuseDeepJson(deep(MAX_INPUT_DEPTH + 1))).toThrow(`The JSON body is nested deeper than ${MAX_INPUT_DEPTH} levels`);
    expect(() => parseJson(Buffer.from(deep(1_000_000)))).toThrow(AppError);
  });

  it("does not count brackets inside strings, escaped quotes included", () => {
    const tricky = JSON.stringify({ text: `${"[{".repeat(100)} \\" \\\\" ${"{".repeat(100)}`, quote: '"[[[' });
    expect(() => refuseDeepJson(tricky)).not.toThrow();
    expect(() => refuseDeepJson(`{"a": "\\\\", "b": ${deep(MAX_INPUT_DEPTH)}}`)).toThrow(AppError);
  });
});
