// Request bodies are UTF-8. One that is not is refused with the byte offset of the first bad
// sequence, instead of being stored with U+FFFD replacement characters where the bytes were.
import { AppError } from "../../core/errors";

/** The body as text (a leading byte order mark dropped), or a 400 naming where it stops being UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const offset = invalidUtf8Offset(bytes);
    throw new AppError("BAD_REQUEST", `The body is not valid UTF-8: the bad byte sequence starts at byte offset ${offset} (0x${hex(bytes, offset)})`);
  }
}

/**
 * Where the first invalid sequence starts. The decoder says only that there is one, so find the
 * shortest prefix it refuses (a streaming decode refuses a prefix once a sequence in it is
 * definitely broken, and every longer prefix too), then step back to the lead byte of the sequence
 * that byte broke.
 */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  const refuses = (length: number) => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, length), { stream: length < bytes.length });
      return false;
    } catch {
      return true;
    }
  };
  let low = 0; // a prefix the decoder accepts
  let high = bytes.length; // one it refuses
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (refuses(middle)) high = middle;
    else low = middle;
  }
  const failedAt = high - 1;
  // The bytes before the failing one may be the unfinished start of the sequence it broke.
  let lead = failedAt - 1;
  while (lead >= 0 && failedAt - lead < 4 && isContinuation(bytes[lead]!)) lead--;
  if (lead >= 0 && lead < failedAt && sequenceLength(bytes[lead]!) > failedAt - lead) return lead;
  return failedAt;
}

const isContinuation = (byte: number) => (byte & 0xc0) === 0x80;

/** How many bytes a sequence with this lead byte has (0: not a lead byte). */
function sequenceLength(byte: number): number {
  if (byte >= 0xc2 && byte <= 0xdf) return 2;
  if (byte >= 0xe0 && byte <= 0xef) return 3;
  if (byte >= 0xf0 && byte <= 0xf4) return 4;
  return 0;
}

function hex(bytes: Uint8Array, from: number): string {
  return Array.from(bytes.subarray(from, from + 4), (byte) => byte.toString(16).toUpperCase().padStart(2, "0")).join(" ");
}
