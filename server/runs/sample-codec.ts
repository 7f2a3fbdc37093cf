// Raw samples are stored as one compact blob per run and metric, never a row per sample:
// byte-shuffled little-endian floats, deflated. Shuffling groups the bytes of equal
// significance (sign/exponent bytes together), which deflate compresses far better.
//   byte 0 = 1: float64 (exact) — up to FLOAT64_LIMIT samples
//   byte 0 = 2: float32 (~7 significant digits) — above that, to keep a million samples small
import { promisify } from "node:util";
import zlib from "node:zlib";

export const FLOAT64_LIMIT = 100_000;
const FLOAT64 = 1;
const FLOAT32 = 2;

// Run-length matching only (Z_RLE): after the shuffle, the sign and exponent bytes come in long
// runs and the low mantissa bytes are noise no match finder shortens, so looking back further only
// costs time. Measured on a million latencies (float32): 43 ms and 2.86 MB, against 122 ms and
// 2.90 MB at level 1 with the usual matching (218 ms and 2.85 MB at the default level); on a
// thousand (float64) 0.12 ms against 0.17 ms, the same bytes. Plain deflate either way: blobs
// written before inflate as they did.
const DEFLATE = { level: 1, strategy: zlib.constants.Z_RLE };
const deflateRaw = promisify(zlib.deflateRaw);

function shuffled(samples: ArrayLike<number>): { format: number; bytes: Uint8Array } {
  const wide = samples.length <= FLOAT64_LIMIT;
  // A typed array (samplesBase64's) is copied fastest by the constructor, a plain array (JSON's) by
  // `from`: a million values in 1.7 against 5.2 ms, and 13.1 against 5.2 ms.
  const Type = wide ? Float64Array : Float32Array;
  return { format: wide ? FLOAT64 : FLOAT32, bytes: shuffle(ArrayBuffer.isView(samples) ? new Type(samples as Float64Array) : Type.from(samples)) };
}

/**
 * Below this many samples, compressing on the thread pool costs more than compressing: a
 * thousand samples deflate in tens of microseconds, while the asynchronous path's stream and
 * callbacks took a tenth of the server's CPU per upload under bench/load.ts.
 */
const ASYNC_FROM = 50_000;

// From ASYNC_FROM samples the bytes are deflated in two halves, each on its own thread of libuv's
// pool, the first ended by a sync flush (its blocks not final, then an empty stored block to the
// next byte): the two outputs end to end are one raw deflate stream, which inflates as any other
// (the second half never refers back into the first). An upload of a million samples as base64
// waited ~40 ms for its compression after summarising them, and took 25 ms less this way (medians
// of 330 and 305 ms), for a few bytes more.
const HEAD = { ...DEFLATE, finishFlush: zlib.constants.Z_SYNC_FLUSH };

/** The two halves large shuffled bytes are deflated in, the first with HEAD. */
function halves(bytes: Uint8Array): [Uint8Array, Uint8Array] {
  const half = Math.floor(bytes.length / 2);
  return [bytes.subarray(0, half), bytes.subarray(half)];
}

/**
 * `options` with an output buffer the deflated bytes fit in at once (deflate adds at most a few
 * bytes per 16 KB of what it cannot shorten). Node's zlib fills one buffer of `chunkSize` (16 KB
 * by default) per turn, and on the thread pool each turn is handed back to the main thread for
 * the next: half a million samples went back and forth about ninety times, each time waiting for
 * the main thread to finish what it was doing (summarising the same samples), so the compression
 * ended 60-90 ms after it began for 22 ms of work. In one buffer it is one turn.
 */
const inOneBuffer = <O extends zlib.ZlibOptions>(options: O, bytes: Uint8Array): O => ({
  ...options,
  chunkSize: Math.max(zlib.constants.Z_DEFAULT_CHUNK, bytes.byteLength + (bytes.byteLength >> 10) + 1024),
});

export function encodeSamples(samples: ArrayLike<number>): Buffer {
  const { format, bytes } = shuffled(samples);
  if (samples.length < ASYNC_FROM) return Buffer.concat([Buffer.from([format]), zlib.deflateRawSync(bytes, DEFLATE)]);
  const [head, tail] = halves(bytes);
  return Buffer.concat([Buffer.from([format]), zlib.deflateRawSync(head, HEAD), zlib.deflateRawSync(tail, DEFLATE)]);
}

/** The same, compressing large sample sets on libuv's thread pool so the caller can summarise meanwhile. */
export async function encodeSamplesAsync(samples: ArrayLike<number>): Promise<Buffer> {
  if (samples.length < ASYNC_FROM) return encodeSamples(samples);
  const { format, bytes } = shuffled(samples);
  const [head, tail] = halves(bytes);
  const deflated = await Promise.all([deflateRaw(head, inOneBuffer(HEAD, head)), deflateRaw(tail, inOneBuffer(DEFLATE, tail))]);
  return Buffer.concat([Buffer.from([format]), ...deflated]);
}

export function decodeSamples(blob: Uint8Array): Float64Array {
  const format = blob[0];
  if (format !== FLOAT64 && format !== FLOAT32) throw new Error(`unknown sample encoding ${String(format)}`);
  const width = format === FLOAT64 ? 8 : 4;
  // unshuffle writes a buffer of its own: float64 values are returned in it, float32 ones widened.
  const bytes = unshuffle(zlib.inflateRawSync(blob.subarray(1)), width);
  if (format === FLOAT64) return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
  return Float64Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
}

/** Decodes `samplesBase64` from an upload: little-endian float64 values, 8 bytes each. */
export function float64FromBase64(base64: string): Float64Array | undefined {
  return float64FromBytes(Buffer.from(base64, "base64"));
}

/** `samplesBase64`'s bytes, decoded, as float64 values; undefined when they are none or not whole values. */
export function float64FromBytes(bytes: Buffer): Float64Array | undefined {
  if (bytes.length === 0 || bytes.length % 8 !== 0) return undefined;
  // A Float64Array must start at a multiple of 8 bytes, as a decoded buffer does (its own memory,
  // or a slice of Node's pool, which Node aligns to 8): used as it is; copied only if it did not.
  if (bytes.byteOffset % 8 === 0) return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.length / 8);
  const aligned = new Uint8Array(bytes.length);
  aligned.set(bytes);
  return new Float64Array(aligned.buffer);
}

// Byte b of every value goes to plane b, taken from the value's 32-bit words four bytes at a time
// (a million float32 samples: 4.9 ms, against 13.5 ms a byte at a time). Typed arrays hold values
// in the machine's byte order, little-endian on x86-64 and arm64, which the stored layout is; the
// byte-at-a-time version assumed the same.
function shuffle(values: Float64Array | Float32Array): Uint8Array {
  const count = values.length;
  const perValue = values.BYTES_PER_ELEMENT / 4;
  const words = new Uint32Array(values.buffer, values.byteOffset, count * perValue);
  const out = new Uint8Array(values.byteLength);
  for (let w = 0; w < perValue; w++) {
    const plane = 4 * w * count;
    for (let i = 0; i < count; i++) {
      const word = words[i * perValue + w] as number;
      out[plane + i] = word;
      out[plane + count + i] = word >>> 8;
      out[plane + 2 * count + i] = word >>> 16;
      out[plane + 3 * count + i] = word >>> 24;
    }
  }
  return out;
}

function unshuffle(bytes: Uint8Array, width: number): Uint8Array {
  const count = bytes.length / width;
  const perValue = width / 4;
  const out = new Uint8Array(bytes.length);
  const words = new Uint32Array(out.buffer);
  for (let w = 0; w < perValue; w++) {
    const plane = 4 * w * count;
    for (let i = 0; i < count; i++) {
      // A Uint32Array stores the bitwise result (a signed 32-bit integer) as its unsigned twin.
      words[i * perValue + w] =
        (bytes[plane + i] as number) |
        ((bytes[plane + count + i] as number) << 8) |
        ((bytes[plane + 2 * count + i] as number) << 16) |
        ((bytes[plane + 3 * count + i] as number) << 24);
    }
  }
  return out;
}
