// Numbers packed as little-endian binary (float64, uint32) for the stored histories
// (stored-series.ts): reading 100,000 of them back is a copy, where a PostgreSQL array would be
// 100,000 strings to parse.
import os from "node:os";

const littleEndianHost = os.endianness() === "LE";

export function packFloat64(values: ArrayLike<number>): Buffer {
  if (littleEndianHost && values instanceof Float64Array) return Buffer.from(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  const out = Buffer.allocUnsafe(values.length * 8);
  for (let i = 0; i < values.length; i++) out.writeDoubleLE(values[i] as number, i * 8);
  return out;
}

export function packUint32(values: ArrayLike<number>): Buffer {
  if (littleEndianHost && values instanceof Uint32Array) return Buffer.from(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  const out = Buffer.allocUnsafe(values.length * 4);
  for (let i = 0; i < values.length; i++) out.writeUInt32LE(values[i] as number, i * 4);
  return out;
}

export function unpackFloat64(bytes: Uint8Array): Float64Array {
  if (bytes.length % 8 !== 0) throw new Error(`packed float64 values need a multiple of 8 bytes, got ${bytes.length}`);
  const out = new Float64Array(bytes.length / 8);
  if (littleEndianHost) new Uint8Array(out.buffer).set(bytes);
  else for (let i = 0; i < out.length; i++) out[i] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readDoubleLE(i * 8);
  return out;
}

export function unpackUint32(bytes: Uint8Array): Uint32Array {
  if (bytes.length % 4 !== 0) throw new Error(`packed uint32 values need a multiple of 4 bytes, got ${bytes.length}`);
  const out = new Uint32Array(bytes.length / 4);
  if (littleEndianHost) new Uint8Array(out.buffer).set(bytes);
  else for (let i = 0; i < out.length; i++) out[i] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).readUInt32LE(i * 4);
  return out;
}
