// Numbers packed as little-endian binary (float64, uint32) for the stored histories
// (stored-series.ts): reading 100,000 of them back is a copy, where a PostgreSQL array would be
// 100,000 strings to parse.
import os from "node:os";

const littleEndianHost = os.endianness() === "LE";

interface Kind<T extends Float64Array | Uint32Array> {
  name: string;
  width: number;
  Typed: new (length: number) => T;
  write: (out: Buffer, value: number, offset: number) => void;
  read: (bytes: Buffer, offset: number) => number;
}

const float64: Kind<Float64Array> = {
  name: "float64",
  width: 8,
  Typed: Float64Array,
  write: (out, value, offset) => out.writeDoubleLE(value, offset),
  read: (bytes, offset) => bytes.readDoubleLE(offset),
};

const uint32: Kind<Uint32Array> = {
  name: "uint32",
  width: 4,
  Typed: Uint32Array,
  write: (out, value, offset) => out.writeUInt32LE(value, offset),
  read: (bytes, offset) => bytes.readUInt32LE(offset),
};

function pack<T extends Float64Array | Uint32Array>(kind: Kind<T>, values: ArrayLike<number>): Buffer {
  // A typed array of the kind is its own little-endian bytes on a little-endian host.
  if (littleEndianHost && values instanceof kind.Typed) return Buffer.from(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  const out = Buffer.allocUnsafe(values.length * kind.width);
  for (let i = 0; i < values.length; i++) kind.write(out, values[i] as number, i * kind.width);
  return out;
}

function unpack<T extends Float64Array | Uint32Array>(kind: Kind<T>, bytes: Uint8Array): T {
  if (bytes.length % kind.width !== 0) throw new Error(`packed ${kind.name} values need a multiple of ${kind.width} bytes, got ${bytes.length}`);
  const out = new kind.Typed(bytes.length / kind.width);
  // Copied, not viewed: the driver's buffer need not be aligned for a typed array.
  if (littleEndianHost) new Uint8Array(out.buffer).set(bytes);
  else {
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let i = 0; i < out.length; i++) out[i] = kind.read(view, i * kind.width);
  }
  return out;
}

export const packFloat64 = (values: ArrayLike<number>) => pack(float64, values);
export const packUint32 = (values: ArrayLike<number>) => pack(uint32, values);
export const unpackFloat64 = (bytes: Uint8Array) => unpack(float64, bytes);
export const unpackUint32 = (bytes: Uint8Array) => unpack(uint32, bytes);
